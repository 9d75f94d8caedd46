// Differences of neighbours (wavekit::device::AdjacentDifference, as CUB's
// DeviceAdjacentDifference): SubtractLeft writes
//   output[0] = input[0], output[i] = difference(input[i], input[i - 1]),
// SubtractRight (RIGHT)
//   output[i] = difference(input[i], input[i + 1]), output[n - 1] = input[n - 1].
//
// Tiles of TILE = BLOCK * ITEMS elements, one workgroup each (spilling into
// y); thread t handles elements t, t + BLOCK, ... of its tile (coalesced).
// Entry points:
//   subtract_copy: output from input (different bytes). Each thread reads
//     all its ITEMS elements before it writes any (input and output may
//     share a buffer, so no compiler moves a read above an earlier write:
//     read, write, read, write kept one or two reads in flight per
//     thread); each element's neighbour comes from the lane beside it
//     (`sg::shuffle_up`; RIGHT: `sg::shuffle_down`), and only the
//     subgroup's first lane (RIGHT: last), whose neighbour another
//     subgroup holds, reads it from the input (a second read for 1 element
//     of each subgroup's row instead of for every element).
//   save_edges, then subtract_in_place (in place: output is the data, input
//     is not read): save_edges copies the element each tile needs from
//     its neighbour tile (the last of the tile before, SubtractLeft; the
//     first of the tile after, SubtractRight) into edges[tile], one thread
//     per tile; then each workgroup reads its tile and those of its
//     neighbours inside it into registers, waits at a barrier for every
//     thread's reads, and writes. No tile reads another's elements, so the
//     order of workgroups does not matter.
// Bindings: 0 input (array<T>, n), 1 output (array<T>, n), 2 edges
//   (array<T>, one per tile). Every entry point binds them all; the host
//   makes every binding read_write (in place, input and output are one
//   range).
// Parameters (set by name by the host): T (u32, i32 or f32), RIGHT, the
// caller's `fn difference(a: T, b: T) -> T` (default a - b, wrapping for
// integers), ITEMS (elements per thread, 1..=32; the host reads it for
// the grid and the edges, so WAVEKIT_SHADER_PARAMS may change it).
// Contract: subgroups are formed of consecutive local_invocation_index
// values, size 4..128 (wavekit's block primitives' contract).
#import wavekit::subgroup as sg

alias T = u32;
const RIGHT = false;
fn difference(a: T, b: T) -> T { return a - b; }
const BLOCK = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> edges: array<T>;

fn element_count() -> u32 {
    return arrayLength(&output);
}

/// The index of element `i`'s neighbour; `i` itself where it has none (the
/// first element, SubtractLeft; the last, SubtractRight).
fn neighbour(i: u32, n: u32) -> u32 {
    if RIGHT {
        return min(i + 1u, n - 1u);
    }
    return max(i, 1u) - 1u;
}

/// The tile index of workgroup `wid` in a grid of `nwg`.
fn tile_of(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

@compute @workgroup_size(BLOCK)
fn subtract_copy(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = element_count();
    let first = tile_of(wid, nwg) * TILE;
    // The lane whose neighbours another subgroup holds: the first
    // (RIGHT: the last). Lane l holds element i of a row, lane l - 1
    // element i - 1 (consecutive indices in a subgroup).
    let edge = select(0u, sg::group_size() - 1u, RIGHT);
    let at_edge = sg::invocation_id() == edge;
    // Every read first: ITEMS elements (and the edge lane's neighbours)
    // in flight at once.
    var x: array<T, ITEMS>;
    var y: array<T, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let i = first + k * BLOCK + t;
        if i < n {
            x[k] = input[i];
            if at_edge {
                y[k] = input[neighbour(i, n)];
            }
        }
    }
    for (var k = 0u; k < ITEMS; k++) {
        // In uniform control flow (every lane), whether or not its element
        // exists. A lane past the end gives a zero no one uses: element
        // i's neighbour is at most n - 1 (RIGHT: the last element is its
        // own neighbour).
        var beside: T;
        if RIGHT {
            beside = sg::shuffle_down<T>(x[k], 1u);
        } else {
            beside = sg::shuffle_up<T>(x[k], 1u);
        }
        let i = first + k * BLOCK + t;
        if i < n {
            let j = neighbour(i, n);
            let other = select(beside, y[k], at_edge);
            output[i] = select(difference(x[k], other), x[k], i == j);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn save_edges(@builtin(global_invocation_id) gid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = gid.x + gid.y * nwg.x * BLOCK;
    let n = element_count();
    let tiles = (n + TILE - 1u) / TILE;
    if tile >= tiles {
        return;
    }
    // The neighbour of the tile's first (last) element, which lies in the
    // tile before (after) it; the tile's own element where there is none.
    var i = tile * TILE;
    if RIGHT {
        i = min((tile + 1u) * TILE, n) - 1u;
    }
    edges[tile] = output[neighbour(i, n)];
}

@compute @workgroup_size(BLOCK)
fn subtract_in_place(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                     @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = element_count();
    let tile = tile_of(wid, nwg);
    let first = tile * TILE;
    let last = min(first + TILE, n) - 1u;
    var values: array<T, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let i = first + k * BLOCK + t;
        if i < n {
            let j = neighbour(i, n);
            let x = output[i];
            // The neighbour outside the tile is the saved edge.
            var y = x;
            if j < first || j > last {
                y = edges[tile];
            } else if j != i {
                y = output[j];
            }
            values[k] = select(difference(x, y), x, i == j);
        }
    }
    // Every thread of the tile has read before any writes (the tile's
    // workgroups is uniform: the barrier is reached by all or none).
    workgroupBarrier();
    for (var k = 0u; k < ITEMS; k++) {
        let i = first + k * BLOCK + t;
        if i < n {
            output[i] = values[k];
        }
    }
}
