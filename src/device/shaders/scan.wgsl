// Device-wide exclusive or inclusive scan of a 32-bit T under an
// associative operator with an identity, in tiles of TILE_QUADS vec4s =
// 8192 elements for BLOCK = 256 threads (wavekit::device::Scan): the u32 /
// i32 sum (the defaults, `const SUM`), and with `SUM` false any operator -
// f32 sums, min, max, the user's WGSL function - combined in tile order,
// the earlier operand first, so it need not be commutative. The inclusive
// scan with `const INCLUSIVE` set to true.
//
// Tile layout (lane-striped, as CUB's warp-striped loads): subgroup g of S
// lanes owns the QUADS * S consecutive vec4s from
// tile * TILE_QUADS + g * QUADS * S, and round k of its lane l is vec4
// k * S + l of them. So every load and store of a subgroup covers
// S consecutive vec4s (whole 32-byte sectors), where two consecutive vec4s
// per thread left every access half a sector wide (H100: 0.69 of CUB).
// A round is scanned within the vec4 in registers and across the subgroup
// (`lane_scan`: `sg::inclusive_add` for the sum, else a shuffle_up tree of
// `scan_op`); the rounds chain through a carry; the subgroups' totals go
// through workgroup memory (one barrier), each thread combining those of
// the subgroups before its own.
//
// Bindings: 0 input (array<vec4<u32>>, T's bits: n / 4, n a multiple of
//   4), 1 output (same size), 2 tile_state (atomic u32 words: 2 per tile
//   for the look-back, 1 per tile for reduce-then-scan), 3 tile_counter (1
//   word). Every entry point binds all four.
//
// Single pass, decoupled look-back with decoupled fallback (look_back.wgsl,
// appended: the protocol, and why it needs no forward-progress guarantee):
//   scan_lookback: tile_state and tile_counter zeroed first; dispatch
//   `tiles` workgroups (spilling into y past 65535). Each workgroup takes
//   the next tile index from tile_counter (so tiles start in order), scans
//   its tile, publishes its aggregate, then looks back - the subgroup of
//   thread 0 reading S predecessors a round (one per lane, as CUB's
//   warp-wide look-back; WINDOW), combined by a subgroup sum or, for any
//   other operator, in tile order (ORDERED_WINDOW, the host sets it with
//   SUM false), or thread 0 one a round where subgroups are emulated - and
//   thread 0 publishes the tile's inclusive prefix. A predecessor that
//   stays unpublished for SPINS rounds is combined by the whole workgroup
//   from its input (the fallback: a workgroup sum, or for other operators
//   `scan_tile` itself, so its bits equal the owner's, float operators
//   included), so the scan is correct on every adapter whatever its
//   scheduler does. Publications are two words a tile
//   (look_back_words.wgsl: WGSL has no 64-bit atomics, so a 32-bit value
//   and its 2-bit state take two).
// Reduce-then-scan (three passes, no inter-workgroup waiting):
//   tile_reduce (grid of tiles): tile_state[tile] = the tile's combination;
//   scan_tile_sums (1 workgroup): tile_state becomes its exclusive scan;
//   tile_scan (grid of tiles): each tile scanned from tile_state[tile].
// Contract: subgroups of consecutive local_invocation_index values, size
//   4..128 (as everywhere wavekit's block primitives run).
// Cost per tile: 1 read and 1 write of each element; per vec4 and thread
//   3 calls of the operator within it, one `lane_scan` (the sum: one
//   `sg::inclusive_add`; other operators log2(S) + 1 shuffle_up and log2(S)
//   calls) and one `sg::broadcast`, and 4 calls for each of the two
//   prefixes it is combined with; 6 workgroup barriers (2 per
//   `workgroupUniformLoad`, 1 for the subgroup totals, 1 for the zeroed
//   workgroup memory on the native back ends); a fallback adds one read of
//   the stalled tile and 4 barriers.
// Parameters (set by name by the host): `alias T`, SUM, INCLUSIVE, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`; WINDOW,
// FALLBACK and STALL_EVERY, and ORDERED_WINDOW (look_back.wgsl).
// Append: look_back.wgsl (look_back and its protocol), look_back_words.wgsl
// (publications in two words), look_back_words_scan.wgsl (lb_publish,
// lb_install).
#import wavekit::subgroup as sg
#import wavekit::block as blk

alias T = u32;
// The operator is the u32 / i32 sum (wrapping, so any order of its
// additions gives the same bits): `sg::inclusive_add` within a round, a
// workgroup sum in the fallback, and `scan_lookback_plain` without it.
// false: `scan_op`, in tile order everywhere (the host sets
// ORDERED_WINDOW with it).
const SUM = true;
const BLOCK = 256u;
// Inclusive (each element's combination includes itself) rather than
// exclusive.
const INCLUSIVE = false;
// vec4s per thread and tile. On an H200 through CUDA 6 and 4 were slower
// for the sum and the u32 max alike (the max at 2^26: 165, 170 and 199 us;
// docs/benchmarks/2026-11-29a-h200-operator-scan-quads).
const QUADS = 8u;
const TILE_QUADS = BLOCK * QUADS;
// Subgroups per workgroup at the smallest subgroup size, 4 lanes.
const MAX_SUBGROUPS = BLOCK / 4u;
// The look-back's walk (look_back.wgsl): true, the subgroup of thread 0
// reads S predecessors a round; the host sets it to false where subgroups
// are emulated (every emulated operation is a workgroup barrier, which one
// subgroup cannot reach alone), and through wgpu with SUM false (the
// ordered window measured 1.5x slower than the walk through Vulkan, scan.rs
// says where), and thread 0 walks alone.
const WINDOW = true;
// false: spin on a predecessor without bound (Merrill & Garland, for
// comparison); STALL_EVERY: look_back.wgsl's debugging switch.
const FALLBACK = true;
const STALL_EVERY = 0u;
// Tile sums a thread of scan_tile_sums scans in registers.
const SUMS_PER_THREAD = 16u;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> tile_counter: array<atomic<u32>>;

var<workgroup> shared_tile: u32;
var<workgroup> shared_prefix: u32;
var<workgroup> subgroup_totals: array<T, MAX_SUBGROUPS>;
// Thread sums of scan_tile_sums, in the same way.
var<workgroup> sums_total: T;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE_QUADS - 1u) / TILE_QUADS;
}

/// Index of round `k`'s vec4 of thread `t` in tile `tile`.
fn quad_index(tile: u32, t: u32, k: u32) -> u32 {
    let size = sg::group_size();
    return tile * TILE_QUADS + (t / size * QUADS + k) * size + sg::invocation_id();
}

/// `scan_op(prefix, x)` for each element of `x`.
fn combine4(prefix: T, x: vec4<T>) -> vec4<T> {
    return vec4<T>(scan_op(prefix, x.x), scan_op(prefix, x.y), scan_op(prefix, x.z),
                   scan_op(prefix, x.w));
}

/// A lane's place in the scan of one value per lane: the combination of
/// the lanes before it (the identity in lane 0) and of all lanes.
struct LaneScan {
    before: T,
    total: T,
}

/// The scan of `x` over the subgroup's lanes, in lane order. Every lane of
/// a converged subgroup calls it.
fn lane_scan(x: T) -> LaneScan {
    let size = sg::group_size();
    if SUM {
        let inclusive = sg::inclusive_add<T>(x);
        return LaneScan(inclusive - x, sg::broadcast<T>(inclusive, size - 1u));
    }
    // Hillis-Steele, the earlier operand first. (Seven steps to a constant
    // 128, each under `d < size`, ran 1.22x slower through Vulkan on an
    // H200 and the same through CUDA: the same record.)
    let lane = sg::invocation_id();
    var v = x;
    for (var d = 1u; d < size; d = d << 1u) {
        let earlier = sg::shuffle_up<T>(v, d);
        v = select(v, scan_op(earlier, v), lane >= d);
    }
    let before = select(sg::shuffle_up<T>(v, 1u), scan_identity(), lane == 0u);
    return LaneScan(before, sg::broadcast<T>(v, size - 1u));
}

/// A thread's part of a scanned tile: its vec4s each combined with what
/// comes before it in the tile, and the tile's total.
struct ThreadScan {
    quads: array<vec4<T>, QUADS>,
    tile_total: T,
}

/// Scans tile `tile`: every element's exclusive (inclusive with INCLUSIVE)
/// prefix within the tile. Every thread calls it, in uniform control flow.
fn scan_tile(tile: u32, t: u32) -> ThreadScan {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    let len = arrayLength(&input);
    var quads: array<vec4<T>, QUADS>;
    var carry = scan_identity();
    for (var k = 0u; k < QUADS; k++) {
        let i = quad_index(tile, t, k);
        var q = vec4<T>(scan_identity());
        if i < len {
            q = bitcast<vec4<T>>(input[i]);
        }
        let b = scan_op(q.x, q.y);
        let c = scan_op(b, q.z);
        let d = scan_op(c, q.w);
        let within = select(vec4<T>(scan_identity(), q.x, b, c), vec4<T>(q.x, b, c, d), INCLUSIVE);
        let lanes = lane_scan(d);
        quads[k] = combine4(scan_op(carry, lanes.before), within);
        carry = scan_op(carry, lanes.total);
    }
    let subgroup = t / size;
    if lane == size - 1u {
        subgroup_totals[subgroup] = carry;
    }
    workgroupBarrier();
    var before = scan_identity();
    var total = scan_identity();
    for (var g = 0u; g < BLOCK / size; g++) {
        let s = subgroup_totals[g];
        before = scan_op(before, select(scan_identity(), s, g < subgroup));
        total = scan_op(total, s);
    }
    for (var k = 0u; k < QUADS; k++) {
        quads[k] = combine4(before, quads[k]);
    }
    return ThreadScan(quads, total);
}

/// Writes the thread's scanned vec4s, each combined after `base`.
fn store_tile(tile: u32, t: u32, s: ThreadScan, base: T) {
    let len = arrayLength(&output);
    for (var k = 0u; k < QUADS; k++) {
        let i = quad_index(tile, t, k);
        if i < len {
            output[i] = bitcast<vec4<u32>>(combine4(base, s.quads[k]));
        }
    }
}

// look_back.wgsl's tile aggregate and operator, on T's bits. The sum's
// aggregate is a workgroup sum (wrapping, so any order gives the owner's
// bits); any other operator's is `scan_tile`'s own total.
fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    if !SUM {
        return bitcast<u32>(scan_tile(p, t).tile_total);
    }
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
    return bitcast<u32>(scan_op(bitcast<T>(earlier), bitcast<T>(later)));
}

fn lb_identity() -> u32 {
    return bitcast<u32>(scan_identity());
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
    let prefix = tile_prefix(tile, t, bitcast<u32>(s.tile_total));
    store_tile(tile, t, s, bitcast<T>(prefix));
}

// scan_lookback without the fallback (look_back.wgsl's plain_look_back, the
// u32 sum): the entry point the host builds for the sum where started
// workgroups keep running.
@compute @workgroup_size(BLOCK)
fn scan_lookback_plain(@builtin(local_invocation_index) t: u32) {
    // Built only without the fallback (and never on emulated subgroups,
    // where the composer prunes what this return leaves), for the sum.
    if FALLBACK {
        return;
    }
    if !SUM {
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
    let aggregate = bitcast<u32>(s.tile_total);
    // The subgroup of thread 0 looks back (whatever the subgroups' layout).
    let looks_back = sg::any_true(t == 0u);
    if looks_back {
        let publishes = t == 0u && !lb_stalls(tile);
        var prefix = 0u;
        if tile != 0u {
            if publishes {
                lb_publish(tile, LB_AGGREGATE, aggregate);
            }
            prefix = plain_look_back(tile);
        }
        if publishes {
            lb_publish(tile, LB_PREFIX, prefix + aggregate);
        }
        if t == 0u {
            shared_prefix = prefix;
        }
    }
    store_tile(tile, t, s, bitcast<T>(workgroupUniformLoad(&shared_prefix)));
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
        atomicStore(&tile_state[tile], bitcast<u32>(s.tile_total));
    }
}

@compute @workgroup_size(BLOCK)
fn scan_tile_sums(@builtin(local_invocation_index) t: u32) {
    let tiles = tile_count();
    var carry = scan_identity();
    for (var base = 0u; base < tiles; base += BLOCK * SUMS_PER_THREAD) {
        let first = base + t * SUMS_PER_THREAD;
        var sums: array<T, SUMS_PER_THREAD>;
        var running = scan_identity();
        for (var k = 0u; k < SUMS_PER_THREAD; k++) {
            var v = scan_identity();
            if first + k < tiles {
                v = bitcast<T>(atomicLoad(&tile_state[first + k]));
            }
            sums[k] = running;
            running = scan_op(running, v);
        }
        let offset = blk::exclusive_scan<T, BLOCK, scan_op>(running, scan_identity());
        let start = scan_op(carry, offset);
        for (var k = 0u; k < SUMS_PER_THREAD; k++) {
            if first + k < tiles {
                atomicStore(&tile_state[first + k], bitcast<u32>(scan_op(start, sums[k])));
            }
        }
        if t == BLOCK - 1u {
            sums_total = scan_op(offset, running);
        }
        carry = scan_op(carry, workgroupUniformLoad(&sums_total));
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
    store_tile(tile, t, s, bitcast<T>(atomicLoad(&tile_state[tile])));
}
