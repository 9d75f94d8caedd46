// Batched binary search (wavekit::device::BinarySearch, as CUB's
// DeviceFind::LowerBound / UpperBound): for each needle, the index of the
// first element of the sorted haystack that is not less than it (lower
// bound) or greater than it (UPPER: upper bound); m where there is none.
//
// Each workgroup takes BLOCK * ITEMS needles (spilling into y), ITEMS per
// thread, strided by BLOCK: loaded and their indices stored by the block
// layer's striped rows (`block::load_direct_striped`,
// `store_direct_striped`). The first LEVELS steps of every search visit
// the same few haystack elements (the midpoints of an implicit tree: node
// 1 the whole range, node 2k its left half, 2k + 1 its right half), so the
// workgroup first loads the 2^LEVELS - 1 midpoints of those levels into
// workgroup memory, one per thread; each search walks them there, then
// goes on in the haystack, its ITEMS searches in lockstep (LOCKSTEP: a
// round reads one element for each, so ITEMS reads are in flight, where a
// search at a time has one). Both walks take the same midpoints, in
// `lo + (hi - lo) / 2` (no overflow below 2^32).
// Bindings: 0 haystack (array<T>, m >= 1, ascending by `<`), 1 needles
//   (k of T, as T's bits, array<u32>: the row takes its items by pointer,
//   and naga gives `alias T` a type of its own, so an `array<T, ITEMS>` is
//   no row's `array<u32, ITEMS>`), 2 output (array<u32>, k). The host clears the output
//   itself for m = 0.
// Parameters (set by name by the host): T (u32, i32 or f32), UPPER;
// LOCKSTEP (above).
// f32: `<` orders, so -0.0 and 0.0 are equal; NaN gives unspecified
// indices (as CUB's std::less).
#import wavekit::block as blk

alias T = u32;
const UPPER = false;
const BLOCK = 256u;
const ITEMS = 16u;
const LEVELS = 8u;
// The searches of a thread step together through the haystack (ITEMS
// reads in flight), or one after another (false: one read in flight);
// the host sets it (false on CUDA, where ptxas's schedule of the lockstep
// loop measured slower).
const LOCKSTEP = true;

@group(0) @binding(0) var<storage, read> haystack: array<T>;
@group(0) @binding(1) var<storage, read> needles: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;

// Node i (1 .. 2^LEVELS - 1) of the implicit tree: its midpoint's element.
var<workgroup> tree: array<T, BLOCK>;

/// The midpoint of [lo, hi), as both walks take it (no overflow below 2^32).
fn midpoint(lo: u32, hi: u32) -> u32 {
    return lo + (hi - lo) / 2u;
}

/// Whether a search for `x` goes right of element `h`.
fn right_of(h: T, x: T) -> bool {
    if UPPER {
        return !(x < h);
    }
    return h < x;
}

@compute @workgroup_size(BLOCK)
fn search(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
          @builtin(num_workgroups) nwg: vec3<u32>) {
    let m = arrayLength(&haystack);
    // Node t's range: the path from the root is the bits of t below its
    // leading one (0 left, 1 right). Node 0 is not a node.
    if t > 0u {
        var lo = 0u;
        var hi = m;
        for (var b = firstLeadingBit(t); b > 0u; b--) {
            if lo >= hi {
                break;
            }
            let mid = midpoint(lo, hi);
            if ((t >> (b - 1u)) & 1u) == 1u {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        if lo < hi {
            tree[t] = haystack[midpoint(lo, hi)];
        }
    }
    workgroupBarrier();
    let k = arrayLength(&needles);
    let offset = (wid.x + wid.y * nwg.x) * BLOCK * ITEMS;
    // The workgroup's needles; none where the grid spills past them.
    let valid = select(0u, k - offset, offset < k);
    var xs: array<u32, ITEMS>;
    blk::load_direct_striped<u32, BLOCK, ITEMS, needles>(offset, valid, &xs);
    // Each search's range [lo, hi) after the walk in workgroup memory (an
    // empty one past the needles).
    var los: array<u32, ITEMS>;
    var his: array<u32, ITEMS>;
    for (var item = 0u; item < ITEMS; item++) {
        var lo = 0u;
        var hi = 0u;
        if item * BLOCK + t < valid {
            let x = bitcast<T>(xs[item]);
            hi = m;
            var node = 1u;
            for (var level = 0u; level < LEVELS && lo < hi; level++) {
                let mid = midpoint(lo, hi);
                if right_of(tree[node], x) {
                    lo = mid + 1u;
                    node = 2u * node + 1u;
                } else {
                    hi = mid;
                    node = 2u * node;
                }
            }
        }
        los[item] = lo;
        his[item] = hi;
    }
    if LOCKSTEP {
        // The ITEMS searches step together: each round reads one haystack
        // element per search, ITEMS independent reads in flight. A search
        // whose range is empty reads an element it does not use (its
        // `lo`, clamped below m) and keeps its range.
        var open = true;
        while open {
            // Every read of the round first, then the steps.
            var hs: array<T, ITEMS>;
            for (var item = 0u; item < ITEMS; item++) {
                let mid = midpoint(los[item], his[item]);
                hs[item] = haystack[min(mid, m - 1u)];
            }
            open = false;
            for (var item = 0u; item < ITEMS; item++) {
                let lo = los[item];
                let hi = his[item];
                let mid = midpoint(lo, hi);
                let right = right_of(hs[item], bitcast<T>(xs[item]));
                let searching = lo < hi;
                los[item] = select(lo, mid + 1u, searching && right);
                his[item] = select(hi, mid, searching && !right);
                open = open || los[item] < his[item];
            }
        }
    } else {
        for (var item = 0u; item < ITEMS; item++) {
            var lo = los[item];
            var hi = his[item];
            while lo < hi {
                let mid = midpoint(lo, hi);
                if right_of(haystack[mid], bitcast<T>(xs[item])) {
                    lo = mid + 1u;
                } else {
                    hi = mid;
                }
            }
            los[item] = lo;
        }
    }
    blk::store_direct_striped<u32, BLOCK, ITEMS, output>(offset, valid, &los);
}
