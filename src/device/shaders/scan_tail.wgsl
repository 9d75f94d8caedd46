// The last n mod 4 elements of a scan.wgsl scan (the same T, operator and
// INCLUSIVE), which its vec4 tiles leave: one thread continues from the
// scanned element before them (from the identity when n < 4), combining
// in order.
//
// Bindings: 0 input (array<u32>, T's bits, all n elements), 1 output (the
//   same), the first n - n mod 4 outputs already scanned by scan.wgsl.
// Parameters as scan.wgsl's: `alias T`, INCLUSIVE, `fn scan_op` and
// `fn scan_identity`. One workgroup of one thread; cost: at most 4 reads,
// 3 writes and 4 calls of the operator.

alias T = u32;
const INCLUSIVE = false;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(1)
fn scan_tail() {
    let n = arrayLength(&input);
    let m = n & ~3u;
    var running = scan_identity();
    if m > 0u {
        running = bitcast<T>(output[m - 1u]);
        if !INCLUSIVE {
            running = scan_op(running, bitcast<T>(input[m - 1u]));
        }
    }
    for (var i = m; i < n; i++) {
        let x = bitcast<T>(input[i]);
        if INCLUSIVE {
            running = scan_op(running, x);
            output[i] = bitcast<u32>(running);
        } else {
            output[i] = bitcast<u32>(running);
            running = scan_op(running, x);
        }
    }
}
