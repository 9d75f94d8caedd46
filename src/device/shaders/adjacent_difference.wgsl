// Differences of neighbours (wavekit::device::AdjacentDifference, as CUB's
// DeviceAdjacentDifference): SubtractLeft writes
//   output[0] = input[0], output[i] = difference(input[i], input[i - 1]),
// SubtractRight (RIGHT)
//   output[i] = difference(input[i], input[i + 1]), output[n - 1] = input[n - 1].
//
// Tiles of TILE = BLOCK * ITEMS elements, one workgroup each (spilling into
// y); thread t handles elements t, t + BLOCK, ... of its tile (coalesced).
// Entry points:
//   subtract_copy: output from input (different bytes). With QUADS (ITEMS
//     a multiple of 4) thread t handles the tile's quads t, t + BLOCK, ..
//     (elements 4 q .. 4 q + 3 of quad q), each read and written as one
//     vec4 (input_quads, output_quads) where it lies below n, word by word
//     where n cuts it; neighbours inside a quad are its own components.
//     Else it handles elements t, t + BLOCK, .. of the tile. Each thread reads
//     all its ITEMS elements before it writes any (input and output may
//     share a buffer, so no compiler moves a read above an earlier write:
//     read, write, read, write kept one or two reads in flight per
//     thread); each element's (quad's first element's; RIGHT: last's)
//     neighbour comes from the lane beside it (`sg::shuffle_up`; RIGHT:
//     `sg::shuffle_down`), and only the subgroup's first lane (RIGHT:
//     last), whose neighbour another subgroup holds, reads it from the
//     input (a second read for 1 element of each subgroup's row instead of
//     for every element).
//   save_edges, then subtract_in_place (in place: output is the data, input
//     is not read): save_edges copies the element each tile needs from
//     its neighbour tile (the last of the tile before, SubtractLeft; the
//     first of the tile after, SubtractRight) into edges[tile], one thread
//     per tile; then each workgroup reads its tile and those of its
//     neighbours inside it into registers, waits at a barrier for every
//     thread's reads, and writes. No tile reads another's elements, so the
//     order of workgroups does not matter.
// Bindings: 0 input (array<T>, n), 1 output (array<T>, n), 2 edges
//   (array<T>, one per tile), 3 input_quads and 4 output_quads (the first
//   n / 4 vec4s of input's and output's memory: n >= 4, since wgpu binds
//   no fewer than 16 bytes; adjacent_difference_few.wgsl takes n < 4).
//   Every entry point binds them all; the host makes every binding
//   read_write (in place, input and output are one range).
// Bounds: input_quads[q], output_quads[q] only where 4 q + 4 <= n, so q <
//   n / 4; input, output at indices below n; edges at tiles below
//   ceil(n / TILE).
// Parameters (set by name by the host): T (u32, i32 or f32), RIGHT, the
// caller's `fn difference(a: T, b: T) -> T` (default a - b, wrapping for
// integers), ITEMS (elements per thread, 1..=32; the host reads it for
// the grid and the edges, so WAVEKIT_SHADER_PARAMS may change it), QUADS
// (the copy's vec4 rows; the host leaves it true).
// Contract: subgroups are formed of consecutive local_invocation_index
// values, size 4..128 (wavekit's block primitives' contract).
#import wavekit::subgroup as sg

alias T = u32;
const RIGHT = false;
fn difference(a: T, b: T) -> T { return a - b; }
const BLOCK = 256u;
const ITEMS = 8u;
const TILE = BLOCK * ITEMS;
// The copy reads and writes vec4s (where ITEMS is a multiple of 4), or
// words (4 bytes a lane a row).
const QUADS = true;
const QUAD_ROWS = QUADS && ITEMS % 4u == 0u;
// Quads a thread of the copy by vec4 rows (1 where it does not run).
const ROW_QUADS = select(1u, ITEMS / 4u, QUAD_ROWS);

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> edges: array<T>;
@group(0) @binding(3) var<storage, read> input_quads: array<vec4<T>>;
@group(0) @binding(4) var<storage, read_write> output_quads: array<vec4<T>>;

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

/// Quad `q`'s elements: one vec4 where all four lie below n, else those
/// below n word by word (the rest zero, never used).
fn load_quad(q: u32, n: u32) -> vec4<T> {
    let first = 4u * q;
    if first + 4u <= n {
        return input_quads[q];
    }
    var x = vec4<T>();
    for (var c = 0u; c < 4u; c++) {
        if first + c < n {
            x[c] = input[first + c];
        }
    }
    return x;
}

/// Quad `q`'s differences `d` into output: one vec4 where all four
/// elements lie below n, else those below n word by word.
fn store_quad(q: u32, n: u32, d: vec4<T>) {
    let first = 4u * q;
    if first + 4u <= n {
        output_quads[q] = d;
        return;
    }
    for (var c = 0u; c < 4u; c++) {
        if first + c < n {
            output[first + c] = d[c];
        }
    }
}

/// The copy by vec4 rows (QUAD_ROWS): thread `t`'s quads of its tile,
/// all read before any is written.
fn subtract_rows(t: u32, tile: u32) {
    let n = element_count();
    let first_quad = tile * (TILE / 4u);
    // The lane whose quad's neighbour another subgroup holds: the first
    // (RIGHT: the last). Lane l holds quad q of a row, lane l - 1 quad q -
    // 1 (consecutive quads in a subgroup).
    let edge = select(0u, sg::group_size() - 1u, RIGHT);
    let at_edge = sg::invocation_id() == edge;
    var x: array<vec4<T>, ROW_QUADS>;
    var y: array<T, ROW_QUADS>;
    for (var k = 0u; k < ROW_QUADS; k++) {
        let q = first_quad + k * BLOCK + t;
        x[k] = load_quad(q, n);
        if at_edge && 4u * q < n {
            // The neighbour of the quad's first element (RIGHT: of its
            // last), below n.
            y[k] = input[neighbour(select(4u * q, 4u * q + 3u, RIGHT), n)];
        }
    }
    for (var k = 0u; k < ROW_QUADS; k++) {
        // In uniform control flow (every lane): a lane past the end gives
        // zeros no one uses.
        var beside: T;
        if RIGHT {
            beside = sg::shuffle_down<T>(x[k].x, 1u);
        } else {
            beside = sg::shuffle_up<T>(x[k].w, 1u);
        }
        let q = first_quad + k * BLOCK + t;
        let outside = select(beside, y[k], at_edge);
        // Each element's neighbour: inside the quad, or `outside` for its
        // first (RIGHT: last); an element that is its own neighbour (the
        // first, RIGHT: the last) keeps its value.
        var d: vec4<T>;
        for (var c = 0u; c < 4u; c++) {
            let i = 4u * q + c;
            var other = outside;
            if RIGHT && c < 3u {
                other = x[k][c + 1u];
            } else if !RIGHT && c > 0u {
                other = x[k][c - 1u];
            }
            d[c] = select(difference(x[k][c], other), x[k][c], i == neighbour(i, n));
        }
        if 4u * q < n {
            store_quad(q, n, d);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn subtract_copy(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    if QUAD_ROWS {
        subtract_rows(t, tile_of(wid, nwg));
        return;
    }
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
