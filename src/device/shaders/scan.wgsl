// Device-wide exclusive prefix sum of u32 (wrapping), in tiles of
// TILE_QUADS vec4s = 8192 elements for BLOCK = 256 threads; the inclusive
// sum with `const INCLUSIVE` set to true (wavekit::device::Scan).
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
// Single pass, decoupled look-back with decoupled fallback (look_back.wgsl,
// appended: the protocol, and why it needs no forward-progress guarantee):
//   scan_lookback: tile_state and tile_counter zeroed first; dispatch
//   `tiles` workgroups (spilling into y past 65535). Each workgroup takes
//   the next tile index from tile_counter (so tiles start in order), scans
//   its tile, publishes its aggregate, then looks back - the subgroup of
//   thread 0 reading S predecessors a round (one per lane, as CUB's
//   warp-wide look-back; WINDOW), or thread 0 one a round where subgroups
//   are emulated - and thread 0 publishes the tile's inclusive prefix. A
//   predecessor that stays unpublished for SPINS rounds is reduced by the
//   whole workgroup from its input (the fallback), so the scan is correct
//   on every adapter whatever its scheduler does.
//   Publications are two words a tile (look_back_words.wgsl: WGSL has no
//   64-bit atomics, so a 32-bit value and its 2-bit state take two).
// Reduce-then-scan (three passes, no inter-workgroup waiting):
//   tile_reduce (grid of tiles): tile_state[tile] = the tile's sum;
//   scan_tile_sums (1 workgroup): tile_state becomes its exclusive scan;
//   tile_scan (grid of tiles): each tile scanned from tile_state[tile].
// Contract: subgroups of consecutive local_invocation_index values, size
//   4..128 (as everywhere wavekit's block primitives run).
// Cost per tile: 1 read and 1 write of each element, QUADS
//   `sg::inclusive_add` and `sg::broadcast` per thread, 6 workgroup barriers
//   (2 per `workgroupUniformLoad`, 1 for the subgroup totals, 1 for the
//   zeroed workgroup memory on the native back ends); a fallback adds one
//   read of the stalled tile and 4 barriers.
// Append: look_back.wgsl (look_back and its protocol), look_back_words.wgsl
// (publications in two words), look_back_words_scan.wgsl (lb_publish,
// lb_install).
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
// The look-back's walk (look_back.wgsl): true, the subgroup of thread 0
// reads S predecessors a round; the host sets it to false where subgroups
// are emulated (every emulated operation is a workgroup barrier, which one
// subgroup cannot reach alone), and thread 0 walks alone.
const WINDOW = true;
// false: spin on a predecessor without bound (Merrill & Garland, for
// comparison); STALL_EVERY: look_back.wgsl's debugging switch.
const FALLBACK = true;
const STALL_EVERY = 0u;
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

// look_back.wgsl's tile aggregate and operator: the u32 sum (wrapping,
// so any order gives the owner's bits).
fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    let len = arrayLength(&input);
    var sum = 0u;
    for (var k = 0u; k < QUADS; k++) {
        let i = p * TILE_QUADS + k * BLOCK + t;
        if i < len {
            let q = input[i];
            sum += q.x + q.y + q.z + q.w;
        }
    }
    return lb_workgroup_sum(sum, t);
}

fn lb_combine(earlier: u32, later: u32) -> u32 {
    return earlier + later;
}

fn lb_identity() -> u32 {
    return 0u;
}

@compute @workgroup_size(BLOCK)
fn scan_lookback(@builtin(local_invocation_index) t: u32) {
    if t == 0u {
        shared_tile = atomicAdd(&tile_counter[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    if tile >= tile_count() {
        return;
    }
    let s = scan_tile(tile, t);
    store_tile(tile, t, s, tile_prefix(tile, t, s.tile_total));
}

// scan_lookback without the fallback (look_back.wgsl's plain_look_back):
// the entry point the host builds where started workgroups keep running.
@compute @workgroup_size(BLOCK)
fn scan_lookback_plain(@builtin(local_invocation_index) t: u32) {
    // Built only without the fallback (and never on emulated subgroups,
    // where the composer prunes what this return leaves).
    if FALLBACK {
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
        let publishes = t == 0u && !lb_stalls(tile);
        var prefix = 0u;
        if tile != 0u {
            if publishes {
                lb_publish(tile, LB_AGGREGATE, s.tile_total);
            }
            prefix = plain_look_back(tile);
        }
        if publishes {
            lb_publish(tile, LB_PREFIX, prefix + s.tile_total);
        }
        if t == 0u {
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
