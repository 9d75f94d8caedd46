// Segmented reductions and scans (wavekit::device::SegmentedReduce,
// SegmentedScan) of a 32-bit T under an associative operator with an
// identity: segment s is elements [begin, end) of the input, from offsets
// (begin_offsets[s], end_offsets[s], as CUB's) or of one fixed size
// (s * size, (s + 1) * size).
//
// One workgroup per segment (spilling into y). Every combination takes the
// earlier operand first, so the operator need not be commutative.
// - Reduction: subgroups read groups of S * ITEMS elements (S the subgroup
//   size): lane l folds the ITEMS consecutive elements at l * ITEMS, and
//   shuffles combine the lanes in lane order (lane 0 holds the group's
//   total). The segment is cut into BLOCK / S equal shares of whole
//   groups, one a subgroup (the last may run past the segment's end or be
//   empty), so every subgroup takes the same trips. A subgroup folds its
//   share GROUPS groups at a time (ITEMS * GROUPS loads in flight a lane)
//   and the rest one at a time, with no barrier; the workgroup meets once,
//   for thread 0 to combine the shares' totals in order.
// - Scan: tiles of TILE = BLOCK * ITEMS elements, thread t owning ITEMS
//   consecutive elements of each (blocked); a tile is folded per thread,
//   scanned over the workgroup with the block layer's user-operator scan
//   (`blk::exclusive_scan<T, BLOCK, scan_op>`) and stored, and a carry runs
//   from tile to tile. One read and one write an element, each element
//   read by the thread that writes it (in place is safe).
// On an H200 through CUDA (docs/benchmarks/2026-11-28p-h200-segmented-shares),
// u32 sums over segments of 65536 took 12.2 us at 2^20 elements by shares
// against 41.2 with a block scan a tile of 1024 (0.56x CUB against 0.17x),
// and over segments of 1024 26.4 against 32.1 at 2^24 (1.76x CUB). Tried
// for the scan and not kept: tiles of 4096 with one barrier (8.0 against
// 6.0 us at 2^20 over segments of 1024), and reading the next tile before
// scanning this one (up to 1.4x faster over a few long segments, but 9-18 %
// slower over segments of 1024 and 1.4x slower at 2^26 over segments of
// 65536).
// No pass and no state spans segments, so there is no temp and no
// look-back. Element indices stay below 2^32 - BLOCK * ITEMS * GROUPS.
//
// Segments, their count and the fixed size's stand-in bindings:
// segment_range.wgsl (appended); no element is read or written out of
// bounds whatever the offsets. An empty segment reduces to the identity and writes no scan
// output. Elements outside every segment are not written by a scan.
//
// Parameters (set by name by the host): `alias T`, `const INCLUSIVE`, the
// operator `fn scan_op` (the host replaces its line by the user's function
// text and a `scan_op` that calls it) and `fn scan_identity`; ITEMS and
// GROUPS (WAVEKIT_SHADER_PARAMS may change them).
// Bindings: 0 input (n of T, as bits: array<u32>: blocked_items.wgsl says
//   why; the subgroup shuffles take the bits too), 1
//   output (array<T>: one per segment for the reduction, n for the scan),
//   2 begin_offsets, 3 end_offsets (u32, one per segment).
// fill_identity (n = 0: the offsets bound as the input) writes the
//   identity to each segment's output.
// Cost per element: 1 read (and 1 write for the scan); per group of S *
//   ITEMS elements log2(S) shuffles and one barrier a segment (the
//   reduction); per tile one block scan and a uniform load (the scan).
// Append: blocked_items.wgsl (load_tile, fold, store_scanned),
// segment_range.wgsl (segment_count, segment).
#import wavekit::subgroup as sg
#import wavekit::block as blk

alias T = u32;
const INCLUSIVE = true;
const BLOCK = 256u;
const ITEMS = 4u;
const GROUPS = 4u;
const TILE = BLOCK * ITEMS;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read> begin_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> end_offsets: array<u32>;

/// A reduction's subgroup totals (at most BLOCK subgroups); a scan's tile
/// total.
var<workgroup> subgroup_totals: array<T, BLOCK>;
var<workgroup> tile_total: T;

/// The groups of S * ITEMS elements in every subgroup's share of `range`
/// (subgroups of `size` lanes): the same in every invocation, since the
/// subgroups loop over them together (the emulated subgroups' shuffles
/// meet at barriers).
fn share_groups(range: vec2<u32>, size: u32) -> u32 {
    let len = range.y - range.x;
    let group = size * ITEMS;
    let subgroups = BLOCK / size;
    let groups = len / group + select(0u, 1u, len % group != 0u);
    return groups / subgroups + select(0u, 1u, groups % subgroups != 0u);
}

/// Lane `lane`'s ITEMS consecutive elements of each of the `count` (1 or
/// GROUPS, a literal at every call, so the loops unroll and `items` stays
/// in registers) groups of S * ITEMS elements from `start`: the identity
/// at `end` and past it.
fn load_groups(start: u32, end: u32, lane: u32, size: u32, count: u32) -> array<T, ITEMS * GROUPS> {
    let group = size * ITEMS;
    let first = start + lane * ITEMS;
    var items: array<T, ITEMS * GROUPS>;
    if start + count * group <= end {
        for (var k = 0u; k < count; k++) {
            for (var j = 0u; j < ITEMS; j++) {
                items[k * ITEMS + j] = bitcast<T>(input[first + k * group + j]);
            }
        }
    } else {
        for (var k = 0u; k < count; k++) {
            for (var j = 0u; j < ITEMS; j++) {
                let i = first + k * group + j;
                var x = scan_identity();
                if i < end {
                    x = bitcast<T>(input[i]);
                }
                items[k * ITEMS + j] = x;
            }
        }
    }
    return items;
}

/// The combination of group `k`'s ITEMS elements of `items`, in order.
fn fold_group(items: array<T, ITEMS * GROUPS>, k: u32) -> T {
    var acc = items[k * ITEMS];
    for (var j = 1u; j < ITEMS; j++) {
        acc = scan_op(acc, items[k * ITEMS + j]);
    }
    return acc;
}

/// The combination of the subgroup's `value`s in lane order, in lane 0
/// (other lanes hold parts).
fn subgroup_total(value: T, size: u32) -> T {
    var x = value;
    for (var d = 1u; d < size; d <<= 1u) {
        x = scan_op(x, bitcast<T>(sg::shuffle_down<u32>(bitcast<u32>(x), d)));
    }
    return x;
}

/// `acc` (in lane 0) combined with the `count` groups from `start`, in
/// order.
fn fold_groups(acc: T, start: u32, end: u32, lane: u32, size: u32, count: u32) -> T {
    let items = load_groups(start, end, lane, size, count);
    var total = acc;
    for (var k = 0u; k < count; k++) {
        total = scan_op(total, subgroup_total(fold_group(items, k), size));
    }
    return total;
}

/// Segment `s`'s reduction into output[s]: subgroup g of the workgroup
/// folds the g-th of BLOCK / S equal shares, GROUPS groups at a time and
/// the rest one at a time (two loops, not an `if`: emulated subgroups'
/// calls must not sit under one), and thread 0 combines the shares.
fn reduce_segment(s: u32, t: u32, fixed: bool) {
    let size = sg::group_size();
    let lane = sg::invocation_id();
    // Subgroups of consecutive threads, as compact.wgsl and look_back.wgsl take them.
    let subgroup = t / size;
    let range = segment(s, fixed);
    let groups = share_groups(range, size);
    let group = size * ITEMS;
    let len = range.y - range.x;
    let first = range.x + min(subgroup * groups * group, len);
    let end = range.x + min((subgroup + 1u) * groups * group, len);
    var acc = scan_identity();
    var g = 0u;
    for (; g + GROUPS <= groups; g += GROUPS) {
        acc = fold_groups(acc, first + g * group, end, lane, size, GROUPS);
    }
    for (; g < groups; g++) {
        acc = fold_groups(acc, first + g * group, end, lane, size, 1u);
    }
    if lane == 0u {
        subgroup_totals[subgroup] = acc;
    }
    workgroupBarrier();
    if t == 0u {
        var total = subgroup_totals[0];
        for (var k = 1u; k < BLOCK / size; k++) {
            total = scan_op(total, subgroup_totals[k]);
        }
        output[s] = total;
    }
}

/// Segment `s`'s scan into its elements of output: tiles of TILE, thread
/// t's ITEMS consecutive elements of each folded, scanned over the
/// workgroup (`blk::exclusive_scan`) and stored, a carry running from tile
/// to tile.
fn scan_segment(s: u32, t: u32, fixed: bool) {
    let range = segment(s, fixed);
    var carry = scan_identity();
    for (var base = range.x; base < range.y; base += TILE) {
        let first = base + t * ITEMS;
        let items = load_tile(base, range.y);
        let mine = fold(items);
        let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
        store_scanned(first, range.y, items, scan_op(carry, before));
        if t == BLOCK - 1u {
            tile_total = scan_op(before, mine);
        }
        carry = scan_op(carry, workgroupUniformLoad(&tile_total));
    }
}

@compute @workgroup_size(BLOCK)
fn segmented_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    reduce_segment(s, t, false);
}

@compute @workgroup_size(BLOCK)
fn fixed_reduce(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    reduce_segment(s, t, true);
}

@compute @workgroup_size(BLOCK)
fn segmented_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    scan_segment(s, t, false);
}

@compute @workgroup_size(BLOCK)
fn fixed_scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s >= segment_count() {
        return;
    }
    scan_segment(s, t, true);
}

/// Without elements (n = 0, the offsets bound as a stand-in input): every
/// segment's reduction is the identity.
@compute @workgroup_size(BLOCK)
fn fill_identity(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = wid.x + wid.y * nwg.x;
    if s < segment_count() && t == 0u {
        output[s] = scan_identity();
    }
}
