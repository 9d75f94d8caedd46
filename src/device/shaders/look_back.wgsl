// Decoupled look-back with decoupled fallback: how a tile of a single-pass
// algorithm learns the combination of every tile before it, without
// assuming that the workgroups of earlier tiles make progress (Smith,
// Levien & Owens, "Decoupled Fallback", SPAA 2025). Appended by
// `wavekit::device::shaders` (and web/build.sh) to scan.wgsl,
// compact.wgsl and by_key.wgsl; radix_onesweep.wgsl follows the same
// protocol per digit in its own code.
//
// Protocol. Tiles are numbered in the order their workgroups start (an
// atomic counter). Tile k publishes its aggregate (AGGREGATE) as soon as it
// has it, then walks back over tiles k-1, k-2, ... combining aggregates
// until it meets an inclusive prefix (PREFIX), and publishes its own
// inclusive prefix. Merrill & Garland's look-back spins on a predecessor
// until it publishes: correct only where a workgroup that has started keeps
// running while others spin, which WebGPU, Vulkan, Metal and CPU adapters
// do not promise. Here a walk spins at most SPINS rounds on an unpublished
// predecessor; then the whole workgroup computes that predecessor's
// aggregate itself from its input (the fallback), installs it (an
// atomicMax over the state word, so that a PREFIX already there wins and
// an AGGREGATE there is the same value), and walks on. So no workgroup ever
// waits for another to be scheduled, and every walk ends: at worst it
// recomputes every earlier tile.
//
// The includer defines:
//   `fn lb_publish(tile: u32, state: u32, value: u32)` - publishes `value`
//     for `tile` as LB_AGGREGATE or LB_PREFIX;
//   `fn lb_read(p: u32) -> Publication` - tile p's state word(s) as read
//     now: LB_PENDING (nothing, or a publication half-way), LB_AGGREGATE or
//     LB_PREFIX, and the value;
//   `fn lb_install(p: u32, aggregate: u32) -> Publication` - installs
//     tile p's aggregate computed by the fallback; returns tile p's PREFIX
//     if its owner had published it, else `aggregate` as LB_AGGREGATE
//     (tile 0's aggregate is its inclusive prefix: the includer installs
//     and returns it as LB_PREFIX);
//   `fn lb_tile_aggregate(p: u32, t: u32) -> u32` - tile p's aggregate,
//     bit for bit the value its owner publishes; called by every thread
//     of the workgroup in uniform control flow (it may use barriers and
//     subgroup operations; `lb_workgroup_sum` below serves integer sums);
//   `const BLOCK: u32` - threads per workgroup, at most 256;
//   `fn lb_combine(earlier: u32, later: u32) -> u32` and
//     `fn lb_identity() -> u32` - the operator on the values' bits;
//   `const WINDOW: bool` - true: the subgroup of thread 0 reads S
//     predecessors a round (one per lane) and combines them with subgroup
//     operations; false: thread 0 reads one predecessor a round, with no
//     subgroup operation (emulated subgroups, whose every operation is a
//     workgroup barrier);
//   `const ORDERED_WINDOW: bool` (declared here, default false; the host
//     sets it) - how a window combines its lanes: false, by u32 subgroup
//     sums (the operator must be the u32 sum); true, by `lb_combine` in
//     tile order over a shuffle tree (any associative operator);
//   `const FALLBACK: bool` - false spins without bound (Merrill & Garland):
//     the host's choice where the scheduler keeps started workgroups
//     running (NVIDIA, AMD and Intel GPUs, CUDA). There the host builds
//     the includers' `_plain` entry points instead, on `plain_look_back`
//     below: the code wavekit had before the fallback, which measured
//     faster (docs/benchmarks/2026-11-26a-h100-look-back-fallback);
//   `const STALL_EVERY: u32` - a debugging switch: nonzero makes every tile
//     k with k % STALL_EVERY == 0 never publish (it still computes its own
//     output), as a scheduler that never runs it again until all others
//     finish would. Without the fallback, its successors never finish.
// Cost: on the common path one round of reads per S predecessors (WINDOW)
// and one uniform load; a fallback costs one read of the stalled tile.
// Workgroup memory: 68 words.

/// A tile's publication as read: LB_PENDING, LB_AGGREGATE or LB_PREFIX,
/// and its value.
struct Publication {
    state: u32,
    value: u32,
}

const LB_PENDING = 0u;
const LB_AGGREGATE = 1u;
const LB_PREFIX = 2u;
// Rounds a walk waits on an unpublished predecessor before the fallback.
const SPINS = 64u;
// How a window combines its lanes (see the protocol above).
const ORDERED_WINDOW = false;
// Walk.stalled: the walk has met a PREFIX; the walk goes on.
const LB_DONE = 0xffffffffu;
const LB_WALK = 0xfffffffeu;

// Subgroup sums of lb_workgroup_sum: workgroups of at most 256 threads
// (BLOCK, the includer's) in subgroups of 4 or more lanes.
var<workgroup> lb_totals: array<u32, 64>;
var<workgroup> lb_stalled: u32;
var<workgroup> lb_prefix: u32;
var<workgroup> lb_got: Publication;

/// Whether tile `tile` never publishes (the STALL_EVERY debugging switch).
fn lb_stalls(tile: u32) -> bool {
    return STALL_EVERY != 0u && tile % max(STALL_EVERY, 1u) == 0u;
}

/// The sum of `x` over the workgroup, in every thread (a fallback's integer
/// aggregate, for the includers whose sums are order-free). Every thread
/// calls it, in uniform control flow.
fn lb_workgroup_sum(x: u32, t: u32) -> u32 {
    let size = sg::group_size();
    let sum = sg::reduce_all_add<u32>(x);
    if sg::invocation_id() == 0u {
        lb_totals[t / size] = sum;
    }
    workgroupBarrier();
    var total = 0u;
    for (var g = 0u; g < BLOCK / size; g++) {
        total += lb_totals[g];
    }
    // Read by all before a later call writes again.
    workgroupBarrier();
    return total;
}

/// The combination of `value` over the subgroup's lanes below `count`, in
/// every lane; lane i holds tile `end - 1 - i`, so a higher lane is an
/// earlier tile. By a u32 subgroup sum, or with ORDERED_WINDOW by
/// `lb_combine` in tile order: a shuffle tree in which lane i takes lane
/// i + d's combination as the earlier operand (as CUB's look-back reduces
/// its window with a warp reduction of the scan operator). Every lane of a
/// converged subgroup calls it.
fn lb_window_combine(value: u32, count: u32) -> u32 {
    let lane = sg::invocation_id();
    if !ORDERED_WINDOW {
        return sg::reduce_all_add<u32>(select(0u, value, lane < count));
    }
    let size = sg::group_size();
    var x = select(lb_identity(), value, lane < count);
    for (var d = 1u; d < size; d = d << 1u) {
        // Lanes past the subgroup get their own value back: not combined.
        let earlier = sg::shuffle_down<u32>(x, d);
        if lane + d < size {
            x = lb_combine(earlier, x);
        }
    }
    return sg::broadcast<u32>(x, 0u);
}

/// Where a walk stands between rounds of `look_back`: the combination of
/// the tiles in [end, tile), and the tile it waits on (LB_DONE once it has
/// met a PREFIX, and then `prefix` is the whole exclusive prefix; LB_WALK
/// before a walk).
struct Walk {
    prefix: u32,
    end: u32,
    stalled: u32,
}

/// The window walk: every lane of the subgroup of thread 0 calls it (a
/// converged subgroup). Lane i reads tile `end - 1 - i`; lanes past tile 0
/// count as a PREFIX of 0. The lanes spin with one vote a round (as the
/// plain look-back does: the reductions cost shuffles on some drivers)
/// until every lane's tile has published, or SPINS rounds have passed.
/// Then the nearest PREFIX ends the walk if no unpublished lane comes
/// before it; a window of AGGREGATEs moves the walk S tiles back; else the
/// walk stops at the first unpublished lane's tile.
fn walk_window(start: Walk) -> Walk {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    var w = start;
    loop {
        var seen = Publication(select(LB_PENDING, LB_PREFIX, lane >= w.end), 0u);
        var spins = 0u;
        loop {
            if seen.state == LB_PENDING {
                seen = lb_read(w.end - 1u - lane);
            }
            if sg::all_true(seen.state != LB_PENDING) {
                break;
            }
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                break;
            }
        }
        let missing = sg::reduce_all_min<u32>(select(LB_DONE, lane, seen.state == LB_PENDING));
        let nearest = sg::reduce_all_min<u32>(select(LB_DONE, lane, seen.state == LB_PREFIX));
        if nearest < missing {
            w.prefix = lb_combine(lb_window_combine(seen.value, nearest + 1u), w.prefix);
            w.stalled = LB_DONE;
            return w;
        }
        if missing == LB_DONE {
            w.prefix = lb_combine(lb_window_combine(seen.value, size), w.prefix);
            w.end -= size;
            continue;
        }
        // Stalled: the published aggregates before the first unpublished
        // lane count; the walk stops at that lane's tile.
        w.prefix = lb_combine(lb_window_combine(seen.value, missing), w.prefix);
        w.end -= missing;
        w.stalled = w.end - 1u;
        return w;
    }
    // Not reached (naga wants a return after the loop).
    return w;
}

/// The serial walk: thread 0 alone, one predecessor a round.
fn walk_serial(start: Walk) -> Walk {
    var w = start;
    var spins = 0u;
    loop {
        let seen = lb_read(w.end - 1u);
        if seen.state == LB_PENDING {
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                w.stalled = w.end - 1u;
                return w;
            }
            continue;
        }
        w.prefix = lb_combine(seen.value, w.prefix);
        if seen.state == LB_PREFIX {
            w.stalled = LB_DONE;
            return w;
        }
        w.end -= 1u;
        spins = 0u;
    }
    // Not reached.
    return w;
}

/// The walk of thread 0 (with WINDOW, of its subgroup) from `walk`:
/// whether this thread walks, and the walk.
fn walk_on(walk: Walk) -> Walk {
    if WINDOW {
        return walk_window(walk);
    }
    return walk_serial(walk);
}

/// Whether thread `t` walks: thread 0, and with WINDOW its subgroup.
fn lb_walker(t: u32) -> bool {
    return select(t == 0u, t < sg::group_size(), WINDOW);
}

/// Tile `tile`'s inclusive prefix from its exclusive `prefix`.
fn lb_inclusive(tile: u32, prefix: u32, aggregate: u32) -> u32 {
    return select(lb_combine(prefix, aggregate), aggregate, tile == 0u);
}

/// The cold path of `tile_prefix`, reached by the whole workgroup when the
/// first walk stalled: until the walk ends, the workgroup computes the
/// stalled tile's aggregate, thread 0 installs it, and the walk goes on
/// before that tile. Then thread 0 publishes the inclusive prefix (when
/// `publishes`) and leaves the exclusive one in lb_prefix, before a
/// barrier.
fn fall_back(tile: u32, t: u32, first: Walk, aggregate: u32, publishes: bool) {
    var walk = first;
    let walker = lb_walker(t);
    loop {
        let stalled = workgroupUniformLoad(&lb_stalled);
        if stalled == LB_DONE {
            break;
        }
        let stalled_aggregate = lb_tile_aggregate(stalled, t);
        if t == 0u {
            lb_got = lb_install(stalled, stalled_aggregate);
        }
        workgroupBarrier();
        if walker {
            let got = lb_got;
            walk.prefix = lb_combine(got.value, walk.prefix);
            walk.end = stalled;
            walk.stalled = select(LB_WALK, LB_DONE, got.state == LB_PREFIX);
            if walk.stalled == LB_WALK {
                walk = walk_on(walk);
            }
        }
        if t == 0u {
            lb_stalled = walk.stalled;
        }
    }
    if t == 0u {
        if publishes {
            lb_publish(tile, LB_PREFIX, lb_inclusive(tile, walk.prefix, aggregate));
        }
        lb_prefix = walk.prefix;
    }
    workgroupBarrier();
}

/// The combination of every tile before `tile`, for a tile whose own
/// combination is `aggregate` (the same in every thread): publishes the
/// aggregate, looks back and publishes the inclusive prefix (thread 0;
/// not at all for a tile the STALL_EVERY switch stalls). Every thread of
/// the workgroup calls it, in uniform control flow; all get the result
/// (the identity for tile 0).
///
/// The common path is the plain look-back's: one walk by the walkers, the
/// inclusive prefix published as soon as thread 0 has it, and one uniform
/// load that hands the prefix to the workgroup (with a word saying whether
/// the walk stalled). Only a stalled walk enters `fall_back`, so the
/// fallback's code sits in a branch the common path never takes.
fn tile_prefix(tile: u32, t: u32, aggregate: u32) -> u32 {
    let publishes = t == 0u && !lb_stalls(tile);
    if publishes && tile != 0u {
        lb_publish(tile, LB_AGGREGATE, aggregate);
    }
    // Tile 0 has nothing before it: no walk.
    var walk = Walk(lb_identity(), tile, select(LB_WALK, LB_DONE, tile == 0u));
    if lb_walker(t) && walk.stalled == LB_WALK {
        walk = walk_on(walk);
    }
    if t == 0u {
        if publishes && walk.stalled == LB_DONE {
            lb_publish(tile, LB_PREFIX, lb_inclusive(tile, walk.prefix, aggregate));
        }
        lb_prefix = walk.prefix;
        lb_stalled = walk.stalled;
    }
    if !FALLBACK {
        // The plain look-back: the walk waited until it ended.
        return workgroupUniformLoad(&lb_prefix);
    }
    // Outside any branch on `tile`: the fallback holds barriers, and the
    // composer cannot tell that a condition on a parameter is uniform.
    if workgroupUniformLoad(&lb_stalled) != LB_DONE {
        fall_back(tile, t, walk, aggregate, publishes);
    }
    // Written by thread 0 before the uniform load's (or fall_back's)
    // barrier; rewritten by no one after it.
    return lb_prefix;
}

/// The plain window look-back (Merrill & Garland; FALLBACK false, WINDOW,
/// the u32 sum) of the entry points the host builds where started
/// workgroups keep running (`scan_lookback_plain`, `select_lookback_plain`):
/// the code wavekit had before the fallback, kept as it was because
/// NVIDIA's Vulkan compiler made slower code of every restructured form
/// tried (2026-11-26a: up to 2.3x in the compaction). Every lane of the
/// subgroup of thread 0 calls it, for a tile > 0: lane i reads tile
/// `end - 1 - i` until every lane's has published, the nearest PREFIX in
/// the window ends the walk, else it moves S tiles back.
fn plain_look_back(tile: u32) -> u32 {
    let lane = sg::invocation_id();
    let size = sg::group_size();
    var prefix = 0u;
    var end = tile;
    loop {
        // Lanes past tile 0 read nothing and count as a prefix of 0.
        var seen = Publication(select(LB_PENDING, LB_PREFIX, lane >= end), 0u);
        loop {
            if seen.state == LB_PENDING {
                seen = lb_read(end - 1u - lane);
            }
            if sg::all_true(seen.state != LB_PENDING) {
                break;
            }
        }
        let nearest = sg::reduce_all_min<u32>(select(0xffffffffu, lane, seen.state == LB_PREFIX));
        prefix += sg::reduce_all_add<u32>(select(0u, seen.value, lane <= nearest));
        if nearest != 0xffffffffu {
            break;
        }
        end -= size;
    }
    return prefix;
}
