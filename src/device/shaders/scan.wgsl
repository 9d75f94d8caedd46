// Device-wide exclusive prefix sum of u32 (wrapping), in tiles of
// TILE_QUADS vec4s = 8192 elements for BLOCK = 256 threads; the inclusive
// sum with `const INCLUSIVE` edited to true (wavekit::device::Scan).
//
// Tile layout (lane-striped, as CUB's warp-striped loads): subgroup g of S
// lanes owns the QUADS * S consecutive vec4s from
// tile * TILE_QUADS + g * QUADS * S, and round k of its lane l is vec4
// k * S + l of them. So every load and store of a subgroup covers
// S consecutive vec4s (whole 32-byte sectors), where two consecutive vec4s
// per thread left every access half a sector wide (H100: 0.69 of CUB).
// A round is scanned within the vec4 in registers and across the subgroup
// with `sg::inclusive_add`; the rounds chain through a carry; the
// subgroups' totals go through workgroup memory (one barrier), each thread
// summing those of the subgroups before its own.
//
// Bindings: 0 input (array<vec4<u32>>: n / 4, n a multiple of 4),
//   1 output (same size), 2 tile_state (atomic u32 words: 2 per tile for the
//   look-back, 1 per tile for reduce-then-scan), 3 tile_counter (1 word).
// Every entry point binds all four.
//
// Single pass, decoupled look-back (Merrill & Garland 2016):
//   scan_lookback: tile_state and tile_counter zeroed first; dispatch
//   `tiles` workgroups (spilling into y past 65535). Each workgroup takes
//   the next tile index from tile_counter (so tiles start in order), scans
//   its tile, publishes its aggregate, then the subgroup of thread 0 walks
//   back over the predecessors' published aggregates, S tiles per step (one
//   per lane, as CUB's warp-wide look-back), until it meets an inclusive
//   prefix, and thread 0 publishes the tile's inclusive prefix.
//   Forward progress: a workgroup spins on a predecessor that has already
//   started (it took an earlier index), so it needs only that started
//   workgroups keep running while others spin - true of NVIDIA, AMD and
//   Intel GPUs and of CUDA, but not promised by WebGPU or Vulkan; the host
//   picks reduce-then-scan elsewhere.
//   WGSL has no 64-bit atomics, so a 32-bit value and its 2-bit state do not
//   fit one word: each publication is two words, `state << 30 | 16 bits`,
//   low half then high half. A reader that sees the two words in different
//   states (a publication half-way) reads them again.
// Reduce-then-scan (three passes, no inter-workgroup waiting):
//   tile_reduce (grid of tiles): tile_state[tile] = the tile's sum;
//   scan_tile_sums (1 workgroup): tile_state becomes its exclusive scan;
//   tile_scan (grid of tiles): each tile scanned from tile_state[tile].
// Contract: subgroups of consecutive local_invocation_index values, size
//   4..128 (as everywhere wavekit's block primitives run).
// Cost per tile: 1 read and 1 write of each element, QUADS
//   `sg::inclusive_add` and `sg::broadcast` per thread, 6 workgroup barriers
//   (2 per `workgroupUniformLoad`, 1 for the subgroup totals, 1 for the
//   zeroed workgroup memory on the native back ends).
#import wavekit::subgroup as sg
#import wavekit::block as blk

const BLOCK = 256u;
// Inclusive (each element's sum includes itself) rather than exclusive.
const INCLUSIVE = false;
// vec4s per thread and tile.
const QUADS = 8u;
const TILE_QUADS = BLOCK * QUADS;
// Subgroups per workgroup at the smallest subgroup size, 4 lanes.
const MAX_SUBGROUPS = BLOCK / 4u;
// Whether scan_lookback scans (the host edits it to false where subgroups
// are emulated: one subgroup cannot look back alone there, since every
// emulated primitive is a workgroup barrier; scan_lookback then returns
// at once, and the host picks reduce-then-scan).
const LOOK_BACK = true;
const STATE_AGGREGATE = 0x40000000u;
const STATE_PREFIX = 0x80000000u;
const STATE_MASK = 0xc0000000u;
// Tile sums a thread of scan_tile_sums scans in registers.
const SUMS_PER_THREAD = 16u;

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> tile_counter: array<atomic<u32>>;

var<workgroup> shared_tile: u32;
var<workgroup> shared_prefix: u32;
var<workgroup> subgroup_totals: array<u32, MAX_SUBGROUPS>;
// Thread sums of scan_tile_sums, in the same way.
var<workgroup> sums_total: u32;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE_QUADS - 1u) / TILE_QUADS;
}

/// Index of round `k`'s vec4 of thread `t` in tile `tile`.
fn quad_index(tile: u32, t: u32, k: u32) -> u32 {
    let size = sg::group_size();
    return tile * TILE_QUADS + (t / size * QUADS + k) * size + sg::invocation_id();
}

/// A thread's part of a scanned tile: the exclusive prefixes of its vec4s
/// within the tile, and the tile's total.
struct ThreadScan {
    quads: array<vec4<u32>, QUADS>,
    tile_total: u32,
}

/// Scans tile `tile`: every element's exclusive prefix within the tile.
fn scan_tile(tile: u32, t: u32) -> ThreadScan {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    let len = arrayLength(&input);
    var quads: array<vec4<u32>, QUADS>;
    var carry = 0u;
    for (var k = 0u; k < QUADS; k++) {
        let i = quad_index(tile, t, k);
        var q = vec4<u32>(0u);
        if i < len {
            q = input[i];
        }
        let exclusive = vec4<u32>(0u, q.x, q.x + q.y, q.x + q.y + q.z);
        let within = select(exclusive, exclusive + q, INCLUSIVE);
        let sum = exclusive.w + q.w;
        let inclusive = sg::inclusive_add<u32>(sum);
        quads[k] = within + (carry + inclusive - sum);
        carry += sg::broadcast<u32>(inclusive, size - 1u);
    }
    let subgroup = t / size;
    if lane == size - 1u {
        subgroup_totals[subgroup] = carry;
    }
    workgroupBarrier();
    var before = 0u;
    var total = 0u;
    for (var g = 0u; g < BLOCK / size; g++) {
        let s = subgroup_totals[g];
        before += select(0u, s, g < subgroup);
        total += s;
    }
    for (var k = 0u; k < QUADS; k++) {
        quads[k] += before;
    }
    return ThreadScan(quads, total);
}

/// Writes the thread's scanned vec4s, offset by `base`.
fn store_tile(tile: u32, t: u32, s: ThreadScan, base: u32) {
    let len = arrayLength(&output);
    for (var k = 0u; k < QUADS; k++) {
        let i = quad_index(tile, t, k);
        if i < len {
            output[i] = s.quads[k] + base;
        }
    }
}

fn publish(tile: u32, state: u32, value: u32) {
    atomicStore(&tile_state[2u * tile], state | (value & 0xffffu));
    atomicStore(&tile_state[2u * tile + 1u], state | (value >> 16u));
}

/// A predecessor's publication as one lane reads it: its state (0: not
/// published, or published half-way) and value.
struct Publication {
    state: u32,
    value: u32,
}

fn read_publication(p: u32) -> Publication {
    // Read with read-modify-writes, not atomicLoad: a slower round spends
    // lavapipe's loop budget more slowly. lavapipe (Mesa 22.3) ends every
    // loop of an invocation after 65535 iterations in all, so a spin that
    // waits longer leaves with a zero prefix (ScanAlgorithm's docs): seen
    // one run in six at 64 tiles with atomic loads, rarer with RMWs, never
    // with workgroups run in order.
    let low = atomicOr(&tile_state[2u * p], 0u);
    let high = atomicOr(&tile_state[2u * p + 1u], 0u);
    let state = low & STATE_MASK;
    if state != (high & STATE_MASK) {
        return Publication(0u, 0u);
    }
    return Publication(state, (low & 0xffffu) | ((high & 0xffffu) << 16u));
}

/// The sum of every element before tile `tile` (> 0), from the
/// predecessors' publications, read by one whole subgroup: lane i reads
/// tile `end - 1 - i` of a window of S predecessors, the subgroup waits
/// until every lane's is published, and the nearest inclusive prefix in the
/// window (`sg::reduce_all_min` of the lanes that saw one) ends the walk;
/// the aggregates up to it are summed with `sg::reduce_all_add`. Without a
/// prefix in the window, it moves S tiles back. So a walk costs one round
/// of reads per S predecessors, not one per predecessor. Every lane of the
/// subgroup calls it; all get the sum.
fn look_back(tile: u32) -> u32 {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    var prefix = 0u;
    var end = tile;
    loop {
        // Lanes past tile 0 read nothing and count as a prefix of 0. The
        // lanes spin together (one vote per round, reached by every lane):
        // the subgroup operations' contract is a converged subgroup.
        var seen = Publication(select(0u, STATE_PREFIX, lane >= end), 0u);
        loop {
            if seen.state == 0u {
                seen = read_publication(end - 1u - lane);
            }
            if sg::all_true(seen.state != 0u) {
                break;
            }
        }
        let nearest = sg::reduce_all_min<u32>(select(0xffffffffu, lane, seen.state == STATE_PREFIX));
        prefix += sg::reduce_all_add<u32>(select(0u, seen.value, lane <= nearest));
        if nearest != 0xffffffffu {
            break;
        }
        end -= size;
    }
    return prefix;
}

@compute @workgroup_size(BLOCK)
fn scan_lookback(@builtin(local_invocation_index) t: u32) {
    if !LOOK_BACK {
        return;
    }
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    if tile >= tile_count() {
        return;
    }
    let s = scan_tile(tile, t);
    // The subgroup of thread 0 looks back (whatever the subgroups' layout).
    let looks_back = sg::any_true(t == 0u);
    if looks_back {
        var prefix = 0u;
        if tile != 0u {
            if t == 0u {
                publish(tile, STATE_AGGREGATE, s.tile_total);
            }
            prefix = look_back(tile);
        }
        if t == 0u {
            publish(tile, STATE_PREFIX, prefix + s.tile_total);
            shared_prefix = prefix;
        }
    }
    store_tile(tile, t, s, workgroupUniformLoad(&shared_prefix));
}

@compute @workgroup_size(BLOCK)
fn tile_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let s = scan_tile(tile, t);
    if t == 0u {
        atomicStore(&tile_state[tile], s.tile_total);
    }
}

@compute @workgroup_size(BLOCK)
fn scan_tile_sums(@builtin(local_invocation_index) t: u32) {
    let tiles = tile_count();
    var carry = 0u;
    for (var base = 0u; base < tiles; base += BLOCK * SUMS_PER_THREAD) {
        let first = base + t * SUMS_PER_THREAD;
        var sums: array<u32, SUMS_PER_THREAD>;
        var running = 0u;
        for (var k = 0u; k < SUMS_PER_THREAD; k++) {
            var v = 0u;
            if first + k < tiles {
                v = atomicLoad(&tile_state[first + k]);
            }
            sums[k] = running;
            running += v;
        }
        let offset = blk::exclusive_add<u32, BLOCK>(running);
        for (var k = 0u; k < SUMS_PER_THREAD; k++) {
            if first + k < tiles {
                atomicStore(&tile_state[first + k], carry + offset + sums[k]);
            }
        }
        if t == BLOCK - 1u {
            sums_total = offset + running;
        }
        carry += workgroupUniformLoad(&sums_total);
    }
}

@compute @workgroup_size(BLOCK)
fn tile_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let s = scan_tile(tile, t);
    store_tile(tile, t, s, atomicLoad(&tile_state[tile]));
}
