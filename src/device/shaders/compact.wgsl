// Stream compaction: the elements of `input` for which `keep` holds, in
// order, into `output`, and their number into `count[0]`
// (wavekit::device::SelectIf, wavekit::device::RunLengthEncode's first step,
// the demos' `compact`).
//
// Parameters (declared below, set by name by the host): the element type T (u32,
// i32 or f32); the predicate `keep` (a pure function of the element; the
// default keeps the u32 below 2^31); `keep_at` (of the element's index and
// the element: DeviceSelect::Flagged's reads its flag from a sixth binding,
// `flags`, declared with it); RUN_STARTS (true: keep the elements
// that differ from the one before them, and the first, writing each one's
// index, as u32 bits of T, instead of the element: the run starts of a
// run-length encoding); UNIQUE (the same elements, written as themselves);
// SHUFFLE_BEFORE (how those two find each element's predecessor);
// PARTITION (true: write the elements not kept too,
// after the kept ones, in reverse order from output[n - 1] down, as
// DevicePartition does: wavekit::device::PartitionIf / PartitionFlagged);
// WINDOW, FALLBACK and STALL_EVERY (below).
//
// Tiles of TILE = BLOCK * ITEMS elements, lane-striped: subgroup g of S
// lanes owns the ITEMS * S consecutive elements from tile * TILE +
// g * ITEMS * S, and round k of its lane l is element k * S + l of them, so
// every load is S consecutive words and a subgroup's kept elements of a
// round are consecutive in the output. A full tile (all of it below n)
// is loaded without a test of each element (H200, CUDA: Unique 10 %
// faster at 2^26, docs/benchmarks/2026-11-29g). Ranks: per round, `sg::ballot` of the
// keep flags and `sg::lanemask_lt` give a kept element its rank among the
// round's kept elements (popcount, no shuffles), and the ballots' popcounts
// chain the rounds, so a subgroup knows where each of its kept elements goes
// among its own; the subgroups' totals go through workgroup memory (one
// barrier), each thread summing those of the subgroups before its own.
// Kept elements are written straight from registers: each round of a
// subgroup writes one run of consecutive words, and a subgroup's rounds
// follow each other in the output.
//
// Entry points:
//   select_lookback (single pass): tile_state and tile_counter zeroed first;
//     one workgroup per tile (spilling into y). Each takes the next tile
//     from tile_counter (so tiles start in order), ranks its tile, publishes
//     its count, and finds the kept elements of the tiles before it by
//     decoupled look-back with decoupled fallback (look_back.wgsl, appended:
//     the protocol; S predecessors a round by the subgroup of thread 0, as
//     scan.wgsl's, or one a round by thread 0 where subgroups are emulated;
//     a predecessor unpublished for SPINS rounds is ranked again by the
//     whole workgroup). A publication is one word, `state << 30 | count`
//     (counts below 2^30: the host refuses larger inputs), read with
//     atomicOr(x, 0) (scan.wgsl says why); the fallback installs a count
//     with atomicMax (PREFIX outranks AGGREGATE). The last tile writes
//     count. No forward-progress guarantee is needed.
//   count_tiles, then the device scan of tile_counts into tile_offsets, then
//     scatter (three passes, portable): the same ranks, with the tile's
//     offset from tile_offsets.
// Bindings: 0 input (array<T>, n), 1 output (array<T>, n),
//   2 tile_counts (select_lookback: its tile_state, one word per tile;
//   otherwise the counts), 3 tile_offsets (array<u32>, tiles rounded up to a
//   multiple of 4; select_lookback: its tile counter in word 0), 4 count
//   (1 word), and with flags 5 flags (u32 words). Every entry point binds
//   them all.
// Contract: subgroups are formed of consecutive local_invocation_index
// values (as everywhere wavekit's block primitives run), size 4..128.
// Cost per tile: 1 read of each element and 1 write of each kept one,
// ITEMS ballots per thread, 6 workgroup barriers (select_lookback; one of
// them zeroes the native back ends' workgroup memory); a fallback adds one
// rank of the stalled tile and 4 barriers.
// Append: look_back.wgsl (look_back and its protocol).
#import wavekit::subgroup as sg

const BLOCK = 256u;
const ITEMS = 16u;
const TILE = BLOCK * ITEMS;
alias T = u32;
fn keep(x: T) -> bool { return x < 0x80000000u; }
fn keep_at(i: u32, x: T) -> bool { return keep(x); }
// The three-way partition's second predicate and its two outputs (the
// host replaces these lines; its text declares bindings 5 and 6).
fn keep_second(x: T) -> bool { return false; }
fn write_second(i: u32, x: T) {}
fn write_unselected(i: u32, x: T) {}
const RUN_STARTS = false;
// UNIQUE: keep the first element and each that differs (`!=`) from the one
// before it, writing the element (wavekit::device::Unique).
const UNIQUE = false;
// RUN_STARTS and UNIQUE: the element before each one from the lane before
// it (`sg::shuffle_up`; lane 0 from the last lane of the round before),
// loading only the one before a subgroup's first; false: each lane loads
// its element's predecessor.
const SHUFFLE_BEFORE = true;
const PARTITION = false;
// Subgroups per workgroup at the smallest subgroup size, 4 lanes.
const MAX_SUBGROUPS = BLOCK / 4u;
const STATE_AGGREGATE = 0x40000000u;
const STATE_PREFIX = 0x80000000u;
const STATE_MASK = 0xc0000000u;
const COUNT_MASK = 0x3fffffffu;
// The look-back's walk and switches, as scan.wgsl's (the host sets
// WINDOW to false where subgroups are emulated).
const WINDOW = true;
const FALLBACK = true;
const STALL_EVERY = 0u;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> tile_counts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> tile_offsets: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> count: array<u32>;

var<workgroup> shared_tile: u32;
var<workgroup> shared_prefix: u32;
var<workgroup> subgroup_totals: array<u32, MAX_SUBGROUPS>;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE - 1u) / TILE;
}

/// Kept lanes below `lane` in ballot `b` (lanes 0..127).
fn rank_in_subgroup(b: vec4<u32>, lane: u32) -> u32 {
    let word = lane / 32u;
    let whole = countOneBits(b);
    let earlier = select(0u, whole.x, word > 0u) + select(0u, whole.y, word > 1u)
        + select(0u, whole.z, word > 2u);
    return earlier + countOneBits(b[word] & sg::lanemask_lt(lane % 32u));
}

/// A thread's part of a ranked tile: its elements, where each kept one goes
/// among the tile's kept elements (NONE: dropped; with PARTITION, REJECTED
/// and where a rejected one goes among the tile's rejected elements), and
/// the tile's count.
struct TileRanks {
    values: array<T, ITEMS>,
    positions: array<u32, ITEMS>,
    total: u32,
}

const NONE = 0xffffffffu;
// The flag of a rejected element's position (PARTITION; positions are
// below TILE).
const REJECTED = 0x80000000u;

/// Element `i` as the compaction sees it: what it writes (the element, or
/// with RUN_STARTS its index) and whether it is kept.
struct Element {
    value: T,
    kept: bool,
}

/// Element i - 1 read from the input, for element `x` at `i` (`x` itself
/// for the first element and past the end, where it decides nothing).
fn loaded_before(i: u32, n: u32, x: T) -> T {
    if i > 0u && i < n {
        return input[i - 1u];
    }
    return x;
}

/// Element `i` of `n`; past the end, a zero that is not kept.
fn element(i: u32, n: u32) -> Element {
    // `&` evaluates both sides: a select, not a branch.
    var x: T;
    if i < n {
        x = input[i];
    }
    if RUN_STARTS | UNIQUE {
        let starts = (i < n) & ((i == 0u) | (x != loaded_before(i, n, x)));
        return Element(select(x, bitcast<T>(i), RUN_STARTS), starts);
    }
    return Element(x, (i < n) & keep_at(i, x));
}

/// Ranks tile `tile`'s kept elements (all threads of the workgroup).
fn rank_tile(tile: u32, t: u32) -> TileRanks {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    let subgroup = t / size;
    let first = tile * TILE + subgroup * ITEMS * size + lane;
    let n = arrayLength(&input);
    // The subgroup's kept elements so far in r.total.
    var r: TileRanks;
    // SHUFFLE_BEFORE: the last lane's element of the round before.
    var carried: T;
    // The loads first, then the ranks (the ballots and shuffles outside
    // the branch, which emulated subgroups' uniformity check could not
    // see through). Lanes past the end see a zero element and keep
    // nothing.
    if tile < n / TILE {
        // A full tile: every element below n, loaded without a test.
        for (var k = 0u; k < ITEMS; k++) {
            r.values[k] = input[first + k * size];
        }
    } else {
        for (var k = 0u; k < ITEMS; k++) {
            let i = first + k * size;
            if i < n {
                r.values[k] = input[i];
            }
        }
    }
    for (var k = 0u; k < ITEMS; k++) {
        let i = first + k * size;
        rank_element(&r, &carried, k, i, i < n);
    }
    let kept = r.total;
    if lane == 0u {
        subgroup_totals[subgroup] = kept;
    }
    workgroupBarrier();
    var before = 0u;
    var total = 0u;
    for (var g = 0u; g < BLOCK / size; g++) {
        let s = subgroup_totals[g];
        before += select(0u, s, g < subgroup);
        total += s;
    }
    for (var k = 0u; k < ITEMS; k++) {
        let p = r.positions[k];
        var moved = select(NONE, p + before, p != NONE);
        if PARTITION && p != NONE && p >= REJECTED {
            // The rejected elements of the subgroups before this one.
            moved = p + subgroup * ITEMS * size - before;
        }
        r.positions[k] = moved;
    }
    r.total = total;
    return r;
}

/// Round `k` of rank_tile: element `i`, loaded into `r.values[k]` where
/// `inside` (below n), ranked in `r` (its position; RUN_STARTS
/// replaces the value by `i`), the subgroup's kept elements so far
/// counted on in `r.total`. Every lane calls it, in uniform control flow
/// (ballots, and shuffles with SHUFFLE_BEFORE).
fn rank_element(r: ptr<function, TileRanks>, carried: ptr<function, T>, k: u32, i: u32,
                inside: bool) {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    var x = (*r).values[k];
    // `&` evaluates both sides: a select, not a branch.
    var flag = inside & keep_at(i, x);
    // `|`, not `||`: naga's short-circuit makes a variable of the
    // condition, which emulated subgroups' uniformity check cannot see
    // through (the shuffles below are wavekit calls).
    if RUN_STARTS | UNIQUE {
        // Element i - 1, for i < n (a lane past the end keeps nothing
        // whatever it compares).
        let n = arrayLength(&input);
        var before: T;
        if SHUFFLE_BEFORE {
            // In uniform control flow: every lane shuffles.
            let up = sg::shuffle_up<T>(x, 1u);
            let last = sg::shuffle<T>(x, size - 1u);
            if lane != 0u {
                before = up;
            } else if k != 0u {
                before = *carried;
            } else {
                before = loaded_before(i, n, x);
            }
            *carried = last;
        } else {
            before = loaded_before(i, n, x);
        }
        flag = inside & ((i == 0u) | (x != before));
        if RUN_STARTS {
            x = bitcast<T>(i);
        }
    }
    let b = sg::ballot(flag);
    (*r).values[k] = x;
    let rank = (*r).total + rank_in_subgroup(b, lane);
    var rejected = NONE;
    if PARTITION && inside {
        // The elements of the subgroup's share before this one, less the
        // kept ones among them.
        rejected = REJECTED | (k * size + lane - rank);
    }
    (*r).positions[k] = select(rejected, rank, flag);
    let whole = countOneBits(b);
    (*r).total += whole.x + whole.y + whole.z + whole.w;
}

/// Writes the thread's kept elements of tile `tile` from output position
/// `base` on (with PARTITION, its rejected ones from output[n - 1] down,
/// after the tile * TILE - base rejected before the tile).
fn scatter_tile(r: TileRanks, base: u32, tile: u32) {
    for (var k = 0u; k < ITEMS; k++) {
        let p = r.positions[k];
        if p != NONE {
            if PARTITION && p >= REJECTED {
                let rejected_before = tile * TILE - base + (p & ~REJECTED);
                output[arrayLength(&input) - 1u - rejected_before] = r.values[k];
            } else {
                output[base + p] = r.values[k];
            }
        }
    }
}

/// look_back.wgsl's plain_look_back on the raw words (b12a834's walk, as
/// it was): the kept elements of every tile before `tile` (> 0), read by
/// one whole subgroup, S predecessors a step. select_lookback_plain calls
/// it: through Vulkan on the H100, plain_look_back's decoded publications
/// cost the compaction 3-7 % at 2^24-2^27, this walk nothing
/// (docs/benchmarks/2026-11-26a-h100-look-back-fallback, calls 8 and 9).
fn look_back_word(tile: u32) -> u32 {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    var prefix = 0u;
    var end = tile;
    loop {
        // Lanes past tile 0 read nothing and count as a prefix of 0.
        var word = select(0u, STATE_PREFIX, lane >= end);
        loop {
            if (word & STATE_MASK) == 0u {
                word = atomicOr(&tile_counts[end - 1u - lane], 0u);
            }
            if sg::all_true((word & STATE_MASK) != 0u) {
                break;
            }
        }
        let is_prefix = (word & STATE_MASK) == STATE_PREFIX;
        let nearest = sg::reduce_all_min<u32>(select(0xffffffffu, lane, is_prefix));
        prefix += sg::reduce_all_add<u32>(select(0u, word & COUNT_MASK, lane <= nearest));
        if nearest != 0xffffffffu {
            break;
        }
        end -= size;
    }
    return prefix;
}

// The first word of the look-back's publications in tile_counts: 0, and
// tile_count() while the three-way partition looks back on its second
// count (the second half of tile_counts).
var<private> lb_base: u32;

// look_back.wgsl's publications: one word, `state << 30 | count`.
fn lb_publish(tile: u32, state: u32, value: u32) {
    atomicStore(&tile_counts[lb_base + tile], (state << 30u) | value);
}

fn lb_read(p: u32) -> Publication {
    let word = atomicOr(&tile_counts[lb_base + p], 0u);
    return Publication((word & STATE_MASK) >> 30u, word & COUNT_MASK);
}

fn lb_install(p: u32, aggregate: u32) -> Publication {
    let state = select(STATE_AGGREGATE, STATE_PREFIX, p == 0u);
    let was = atomicMax(&tile_counts[lb_base + p], state | aggregate);
    if (was & STATE_MASK) == STATE_PREFIX {
        return Publication(LB_PREFIX, was & COUNT_MASK);
    }
    return Publication(state >> 30u, aggregate);
}

// A fallback's count of tile p: its kept elements, counted per thread
// (the order does not matter: an integer count).
fn lb_tile_aggregate(p: u32, t: u32) -> u32 {
    let n = arrayLength(&input);
    var kept = 0u;
    for (var i = p * TILE + t; i < min((p + 1u) * TILE, n); i += BLOCK) {
        let e = element(i, n);
        // The three-way partition's second look-back counts its second
        // part.
        let counted = select(e.kept, !e.kept && keep_second(e.value), lb_base != 0u);
        kept += select(0u, 1u, counted);
    }
    return lb_workgroup_sum(kept, t);
}

fn lb_combine(earlier: u32, later: u32) -> u32 {
    return earlier + later;
}

fn lb_identity() -> u32 {
    return 0u;
}

@compute @workgroup_size(BLOCK)
fn select_lookback(@builtin(local_invocation_index) t: u32) {
    if t == 0u {
        shared_tile = atomicAdd(&tile_offsets[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    let tiles = tile_count();
    if tile >= tiles {
        return;
    }
    let r = rank_tile(tile, t);
    let prefix = tile_prefix(tile, t, r.total);
    if t == 0u && tile == tiles - 1u {
        count[0] = prefix + r.total;
    }
    scatter_tile(r, prefix, tile);
}

// select_lookback without the fallback (look_back.wgsl's plain_look_back):
// the entry point the host builds where started workgroups keep running.
@compute @workgroup_size(BLOCK)
fn select_lookback_plain(@builtin(local_invocation_index) t: u32) {
    // Built only without the fallback (and never on emulated subgroups,
    // where the composer prunes what this return leaves).
    if FALLBACK {
        return;
    }
    if t == 0u {
        shared_tile = atomicAdd(&tile_offsets[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    let tiles = tile_count();
    if tile >= tiles {
        return;
    }
    let r = rank_tile(tile, t);
    let looks_back = sg::any_true(t == 0u);
    if looks_back {
        let publishes = t == 0u && !lb_stalls(tile);
        var prefix = 0u;
        if tile != 0u {
            if publishes {
                lb_publish(tile, LB_AGGREGATE, r.total);
            }
            prefix = look_back_word(tile);
        }
        if publishes {
            lb_publish(tile, LB_PREFIX, prefix + r.total);
        }
        if t == 0u {
            shared_prefix = prefix;
            if tile == tiles - 1u {
                count[0] = prefix + r.total;
            }
        }
    }
    scatter_tile(r, workgroupUniformLoad(&shared_prefix), tile);
}

@compute @workgroup_size(BLOCK)
fn count_tiles(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    let r = rank_tile(tile, t);
    if t == 0u {
        atomicStore(&tile_counts[tile], r.total);
    }
}

@compute @workgroup_size(BLOCK)
fn scatter(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    let tiles = tile_count();
    if tile >= tiles {
        return;
    }
    let r = rank_tile(tile, t);
    let base = atomicLoad(&tile_offsets[tile]);
    if tile == tiles - 1u && t == 0u {
        count[0] = base + r.total;
    }
    scatter_tile(r, base, tile);
}

// The three-way partition (wavekit::device::ThreeWayPartition, CUB's
// DevicePartition::If with two predicates): each element goes to the first
// part (`keep`, through keep_at), else to the second (`keep_second`), else
// to the unselected; each part in order, from word 0 of its output
// (binding 1, and the host's bindings 5 and 6 through write_second and
// write_unselected). count[0] and count[1] get the two parts' sizes.
// tile_counts holds two counts a tile: the first parts' in words
// [0, tiles), the second parts' in [tiles, 2 tiles); the single pass looks
// back on each half in turn (lb_base), the three passes scan the 2 tiles
// words at once (the second parts' offsets less the first parts' total).
// The unselected elements before a tile are the tile's start less its two
// prefixes. Bindings: compact.wgsl's 0-4 (count: 2 words), 5 second, 6
// unselected (each n elements).

// Part of a position (below TILE) in a three-way tile: SECOND, REJECTED,
// or neither (the first part).
const SECOND = 0x40000000u;

/// A thread's part of a tile ranked three ways: its elements, where each
/// goes within its part of the tile (NONE past the end; SECOND or REJECTED
/// flags the part), and the tile's two counts.
struct ThreeWayRanks {
    values: array<T, ITEMS>,
    positions: array<u32, ITEMS>,
    counts: vec2<u32>,
}

var<workgroup> subgroup_pairs: array<vec2<u32>, MAX_SUBGROUPS>;

/// Ranks tile `tile` three ways (all threads of the workgroup): per round
/// a ballot of each predicate, as rank_tile's one; an unselected element's
/// rank is its place in the subgroup's share less the selected ones
/// before it.
fn rank_three_way(tile: u32, t: u32) -> ThreeWayRanks {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    let subgroup = t / size;
    let start = tile * TILE + subgroup * ITEMS * size + lane;
    let n = arrayLength(&input);
    var r: ThreeWayRanks;
    var counts = vec2<u32>();
    for (var k = 0u; k < ITEMS; k++) {
        let i = start + k * size;
        let e = element(i, n);
        let second = (i < n) & !e.kept & keep_second(e.value);
        let first_ballot = sg::ballot(e.kept);
        let second_ballot = sg::ballot(second);
        let rank = counts + vec2(rank_in_subgroup(first_ballot, lane),
                                 rank_in_subgroup(second_ballot, lane));
        var position = select(NONE, REJECTED | (k * size + lane - rank.x - rank.y), i < n);
        position = select(position, SECOND | rank.y, second);
        r.positions[k] = select(position, rank.x, e.kept);
        r.values[k] = e.value;
        let first_bits = countOneBits(first_ballot);
        let second_bits = countOneBits(second_ballot);
        counts += vec2(first_bits.x + first_bits.y + first_bits.z + first_bits.w,
                       second_bits.x + second_bits.y + second_bits.z + second_bits.w);
    }
    if lane == 0u {
        subgroup_pairs[subgroup] = counts;
    }
    workgroupBarrier();
    var before = vec2<u32>();
    for (var g = 0u; g < BLOCK / size; g++) {
        let c = subgroup_pairs[g];
        if g < subgroup {
            before += c;
        }
        r.counts += c;
    }
    for (var k = 0u; k < ITEMS; k++) {
        let p = r.positions[k];
        if p == NONE {
            continue;
        }
        if p >= REJECTED {
            // The unselected elements of the subgroups before this one.
            r.positions[k] = p + subgroup * ITEMS * size - before.x - before.y;
        } else if p >= SECOND {
            r.positions[k] = p + before.y;
        } else {
            r.positions[k] = p + before.x;
        }
    }
    return r;
}

/// Writes the thread's elements of tile `tile`, the first and second
/// parts before it being `base`.
fn scatter_three_way(r: ThreeWayRanks, base: vec2<u32>, tile: u32) {
    for (var k = 0u; k < ITEMS; k++) {
        let p = r.positions[k];
        if p == NONE {
            continue;
        }
        if p >= REJECTED {
            write_unselected(tile * TILE - base.x - base.y + (p & ~REJECTED), r.values[k]);
        } else if p >= SECOND {
            write_second(base.y + (p & ~SECOND), r.values[k]);
        } else {
            output[base.x + p] = r.values[k];
        }
    }
}

/// The first and the second parts of every tile before `tile` (whose own
/// are `counts`): look_back.wgsl's tile_prefix on each half of tile_counts
/// in turn. The second count's aggregate is published first, so that a
/// successor's second look-back need not wait for this tile's first.
/// Every thread calls it, in uniform control flow.
fn three_way_prefix(tile: u32, t: u32, counts: vec2<u32>) -> vec2<u32> {
    let tiles = tile_count();
    lb_base = tiles;
    if t == 0u && tile != 0u && !lb_stalls(tile) {
        lb_publish(tile, LB_AGGREGATE, counts.y);
    }
    lb_base = 0u;
    let first = tile_prefix(tile, t, counts.x);
    // Every thread has read the first prefix before thread 0 writes the
    // second.
    workgroupBarrier();
    lb_base = tiles;
    let second = tile_prefix(tile, t, counts.y);
    lb_base = 0u;
    return vec2(first, second);
}

/// Writes the two counts (thread 0 of the last tile).
fn write_counts(tile: u32, t: u32, total: vec2<u32>) {
    if t == 0u && tile == tile_count() - 1u {
        count[0] = total.x;
        count[1] = total.y;
    }
}

/// The single pass (look-back with the fallback, or without where
/// FALLBACK is false): tile_counts and tile_offsets zeroed first. Each
/// workgroup takes the next tile from the counter, as select_lookback.
@compute @workgroup_size(BLOCK)
fn three_way_lookback(@builtin(local_invocation_index) t: u32) {
    if t == 0u {
        shared_tile = atomicAdd(&tile_offsets[0], 1u);
    }
    let tile = workgroupUniformLoad(&shared_tile);
    if tile < tile_count() {
        let r = rank_three_way(tile, t);
        let prefix = three_way_prefix(tile, t, r.counts);
        write_counts(tile, t, prefix + r.counts);
        scatter_three_way(r, prefix, tile);
    }
}

/// Three passes, first: each tile's two counts into tile_counts' halves
/// (one workgroup a tile, spilling into y).
@compute @workgroup_size(BLOCK)
fn count_three_way(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile < tile_count() {
        let r = rank_three_way(tile, t);
        if t == 0u {
            atomicStore(&tile_counts[tile], r.counts.x);
            atomicStore(&tile_counts[tile_count() + tile], r.counts.y);
        }
    }
}

/// Three passes, last (after the exclusive scan of the 2 tiles counts
/// into tile_offsets): each tile scattered from its two offsets.
@compute @workgroup_size(BLOCK)
fn scatter_three_way_tiles(@builtin(local_invocation_index) t: u32,
                           @builtin(workgroup_id) wid: vec3<u32>,
                           @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    let tiles = tile_count();
    if tile < tiles {
        let r = rank_three_way(tile, t);
        // The second parts' offsets run on from the first parts' total.
        let firsts = atomicLoad(&tile_offsets[tiles]);
        let base = vec2(atomicLoad(&tile_offsets[tile]),
                        atomicLoad(&tile_offsets[tiles + tile]) - firsts);
        write_counts(tile, t, base + r.counts);
        scatter_three_way(r, base, tile);
    }
}
