// The adjacent differences (wavekit::device::AdjacentDifference) of 1 to 3
// elements, copied or in place, where adjacent_difference.wgsl's vec4
// views cannot be bound (wgpu needs 16 bytes there): one thread reads
// every element, then writes every difference, so input and output may be
// one range. T, RIGHT and `fn difference` as adjacent_difference.wgsl's,
// set by the host, which also makes both bindings read_write.
//
// Entry point (one workgroup of one thread): subtract_few, output[i] =
// difference(input[i], input[i - 1]) (RIGHT: input[i + 1]), an element
// without that neighbour copied.
// Bindings: 0 input (array<T>, n), 1 output (array<T>, n).
// Bounds: input and output at i < n <= 3; the private array at i < 3.

alias T = u32;
const RIGHT = false;
fn difference(a: T, b: T) -> T { return a - b; }

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;

@compute @workgroup_size(1)
fn subtract_few() {
    let n = min(arrayLength(&output), 3u);
    var x: array<T, 3>;
    for (var i = 0u; i < n; i++) {
        x[i] = input[i];
    }
    for (var i = 0u; i < n; i++) {
        var j = i;
        if RIGHT && i + 1u < n {
            j = i + 1u;
        } else if !RIGHT && i > 0u {
            j = i - 1u;
        }
        output[i] = select(difference(x[i], x[j]), x[i], i == j);
    }
}
