// The last n mod 4 elements of a prefix sum of u32 (wrapping), which
// scan.wgsl's vec4 tiles leave: one thread continues from the scanned
// element before them (none when n < 4).
//
// Bindings: 0 input (array<u32>, all n elements), 1 output (the same), the
//   first n - n mod 4 outputs already scanned by scan.wgsl.
// `const INCLUSIVE` as in scan.wgsl. One workgroup of one thread; cost: at
//   most 4 reads and 3 writes.

const INCLUSIVE = false;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(1)
fn scan_tail() {
    let n = arrayLength(&input);
    let m = n & ~3u;
    var running = 0u;
    if m > 0u {
        running = output[m - 1u];
        if !INCLUSIVE {
            running += input[m - 1u];
        }
    }
    for (var i = m; i < n; i++) {
        let x = input[i];
        if INCLUSIVE {
            running += x;
            output[i] = running;
        } else {
            output[i] = running;
            running += x;
        }
    }
}
