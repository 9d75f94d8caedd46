// Device-wide top-k of 32-bit keys, alone or with u32 values
// (wavekit::device::TopK, as CUB's DeviceTopK): the k least (or, LARGEST,
// greatest) of n keys, ties broken by the lower index, written sorted
// (least first, or greatest first); or of each of `rows` rows of n keys
// (batched: row r is keys r n .. (r + 1) n, its k written at r k). Every
// kernel is dispatched with y = the row (grid y = rows), every row with its
// own state, buffers and workgroups.
//
// Each key is a composite (s, i): s its ordered bits (encode_key of
// key_order.wgsl, all bits flipped for LARGEST, so that the wanted keys are
// always the least s), i its index in the row. Composites are distinct, so
// the answer is the k least composites. The search narrows a range [lo, hi]
// of composites that holds the k-th least: a histogram of the range's keys
// over BINS bins (a monotone bucket: by s, or by i once s is one value,
// `bucket`), then the bin where the running count reaches the number
// still wanted (`choose`) is the new range, the keys of the bins below it
// are taken, and the number wanted drops by their count (radix select with
// bins that follow the range rather than fixed digits). It is done when the
// bin holds exactly the keys still wanted.
//
// Kernels, in order (the host records init, `select_pass` (pass_a) and
// `finish_pass`: for large rows the relay pass_r, whose last workgroup a
// row goes on to the last step, else one workgroup a row for the last
// step alone. The last step lives apart from pass_a, the hot loop, so
// that its registers are not the loop's: natively a kernel's registers
// are those of its worst path):
//   init (1 workgroup a row): zeroes the row's state, reads SAMPLES keys
//     at stratified hashed places (every key of a row of at most SAMPLES),
//     and finds T, about their jstar-th least composite (exactly the k-th
//     where every key was read), with jstar such that about
//     max(RANK_SCALE k, MIN_RANK n / SAMPLES) keys of the row are at most
//     T. The range for pass_a is [-inf, T], bucketed over the samples'
//     span.
//   pass_a (`select_pass`; G workgroups a row, grid-stride tiles of BLOCK
//     x ITEMS keys): the one full read, lean (a thread holds its tile's s
//     and T; the index is the key's place, the bucket's words are read
//     from workgroup memory for each candidate, and every tile but the
//     row's last is loaded without checks). Each key at most T is a
//     candidate: staged in workgroup memory and flushed to cand_a (an
//     atomic count a flush), and counted in the workgroup histogram, added
//     to the row's at the end.
//     The last workgroup to arrive (an atomic count after a device-scope
//     barrier; no workgroup waits on another) chooses the bin (range 1).
//     Fewer than k candidates ("too tight": the sample misled) leaves the
//     rest to the last step, which then reads the input itself (slow, and
//     as good as impossible for inputs not built against the sample).
//   pass_r (`finish_pass`, the relay, for rows whose candidates one
//     workgroup would read too slowly): reads the candidates (or, where
//     more than cand_a held, the input again): those below range 1 go to
//     `selected`, those in it to cand_1 and the histogram; its last
//     workgroup chooses range 2.
//   finish (`finish_pass`: in that last workgroup, or without the relay
//     the row's one workgroup): while the keys at most the range's hi
//     are more than SORT_MAX, more histogram rounds over its source (cand_1,
//     cand_a or the input, read by this one workgroup); then gathers them
//     with `selected` into workgroup memory, sorts them by (s, i) (bitonic)
//     and writes the first k keys (and values, read at their indices);
//     unordered (SORTED false), those surely taken (below the range, or a
//     range whose every key is wanted) go to the end of the words unsorted
//     and only the range's are sorted.
// Cost: one read of the keys (two where cand_a overflows), the candidates
// (about max(4k, n / 512)) written and read once (twice without the
// relay: the last step reads them), a few histogram rounds in single
// workgroups (init's one or two; the last step's, rarely), the sort;
// three dispatches, no clears.
// Parameters (set by name by the host): KEY_ORDER, LARGEST, SORTED, PAIRS; ITEMS,
// RANK_SCALE, MIN_RANK, CAP_PERCENT, RELAY_MIN, GROUPS, PASS_STAGE
// (WAVEKIT_SHADER_PARAMS may change them; the host reads them to size the
// buffers, the grids and pick the kernels, and TILE follows ITEMS).
// Bindings: 0 keys_in (rows n), 1 values_in (rows n; any 4 bytes without
//   PAIRS), 2 keys_out (rows k), 3 values_out (rows k; any 4 bytes without
//   PAIRS), 4 state (rows x (SCALARS + BINS): BINS = 1024 or 256, the
//   host's choice), 5 selected (rows x 2k words: k = its length / 2 rows),
//   6 cand_a (rows x 2 cap_a words), 7 cand_1 (rows x 2 cap_1 words;
//   cap_1 = 1: no relay). Candidates are (s, i) pairs of words.
// Append: key_order.wgsl (encode_key, decode_key).

const KEY_ORDER = 0u;
const LARGEST = false;
const PAIRS = false;
// The k in order (true), or in no order (false, CUB's DeviceTopK): the last
// step then sorts only the keys of the k-th's range, and writes the keys
// below it (and a range whose every key is wanted) as it gathered them.
const SORTED = true;
// Keys a thread loads a tile of pass_a (and candidates of pass_r).
const ITEMS = 8u;
// T aims at RANK_SCALE x k keys under it, and at no fewer than MIN_RANK
// samples' worth: more keep its count close to the aim (relative spread
// about 1 / sqrt(MIN_RANK)), fewer keep it small. (RANK_SCALE = 0 and
// MIN_RANK = 1 make T too tight for most k: the tests' way to the slow
// path.) MIN_RANK 8 (n / 512 candidates where 4k are fewer) against 32:
// H100 through CUDA, unordered k = 64, 0.0464 -> 0.0415 ms at 2^20 and
// 0.0561 -> 0.0495 at 2^23 (with RELAY_MIN 4096; docs/benchmarks/
// 2026-11-27r); a count past the candidates' room (2.5 times the aim)
// then comes about once in a thousand calls (an estimate from the eighth
// of 4096 stratified samples, not a measurement), and costs a second read.
const RANK_SCALE = 4u;
const MIN_RANK = 8u;
// Read by the host only: cand_a holds CAP_PERCENT % of the candidates it
// expects, plus 256 (at least k, at most n); pass_r runs where it expects
// more than RELAY_MIN (below, the last step reads cand_a itself).
const CAP_PERCENT = 250u;
const RELAY_MIN = 4096u;
// Read by the host only: the most workgroups a row of a pass (G; beyond,
// they stride over the tiles). The grid's waves follow it: a pass of G
// workgroups take ceil(G / the GPU's resident ones) rounds. 792: one wave
// on an H100 (6 workgroups x 132 SMs, through CUDA and, with PASS_STAGE's
// smaller workgroup memory, through Vulkan), against 1024 through CUDA at
// 2^26 k = 64 0.1911 -> 0.1611 ms (docs/benchmarks/2026-11-27n) and
// through Vulkan 0.1904 -> 0.1684 (2026-11-27t).
const GROUPS = 792u;

const BLOCK = 256u;
const SAMPLES_PER_THREAD = 16u;
const SAMPLES = 4096u;
const TILE = BLOCK * ITEMS;
const MAX_BINS = 1024u;
// The most keys the last step sorts in workgroup memory (k and what the
// rounds leave beside them).
const SORT_MAX = 1376u;
// Candidates staged in workgroup memory before a flush (in the sort's
// words), a flush when half full.
const STAGE = SORT_MAX;
// SORT_MAX (so STAGE) of the module the host builds `select_pass` from:
// the pass over the keys sorts nothing, and with fewer words it keeps
// 7,280 bytes of workgroup memory where it kept 16,240, so that more of its
// workgroups run at once where a driver gives an SM's workgroups little
// of it (NVIDIA's Vulkan driver: about 50-60 KiB,
// docs/benchmarks/2026-11-27t-h100-vulkan-onesweep-occupancy).
const PASS_STAGE = 256u;
const FLUSH_AT = STAGE / 2u;
// Keys a thread of the last step loads at once (reads in flight).
const BATCH = 4u;
// Rounds of init's search of the sample, at most: enough for the exact
// composite with 8-bit bins (4 of s, 4 of i).
const INIT_ROUNDS = 8u;
const NONE = 0xffffffffu;

// The row's state: counters, then ranges, then the histogram.
const ARRIVE_A = 0u;
const ARRIVE_R = 1u;
const COUNT_A = 2u;
const COUNT_1 = 3u;
const SELECTED = 4u;
// The least s of pass_a's candidates (init sets NONE).
const LEAST = 5u;
const RANGE_A = 8u;
const RANGE_1 = 20u;
const RANGE_WORDS = 11u;
const SCALARS = 32u;
// Range.done: 1 when every key of the range is wanted; TOO_TIGHT when
// pass_a found fewer than k keys at most T.
const TOO_TIGHT = 2u;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> selected: array<u32>;
@group(0) @binding(6) var<storage, read_write> cand_a: array<u32>;
@group(0) @binding(7) var<storage, read_write> cand_1: array<u32>;

// The histogram (atomic), and plain words for the stage and the sort (s in
// the first half, i in the second): 16,240 bytes with the rest, under the
// 16 KiB every device gives.
var<workgroup> hist: array<atomic<u32>, MAX_BINS>;
var<workgroup> words: array<u32, 2 * SORT_MAX>;
var<workgroup> partials: array<u32, BLOCK>;
// Values thread 0 hands to the workgroup, after a barrier: 0 .. 11 the
// pass's range, 12 .. 15 choose's, after_tile's, arrive's, 16 .. 23 the
// pass's and the last step's counts (each word written once a kernel, or
// read before any barrier that precedes its next write).
var<workgroup> bcast: array<u32, 24>;
// 0: candidates staged; 1: keys gathered for the sort; 2: the least s of
// the workgroup's candidates; 3: the stage's excess written (after_tile).
var<workgroup> counters: array<atomic<u32>, 4>;

/// A range of composites [lo, hi] (x = s, y = i) and the bucket of its
/// histogram.
struct Range {
    lo: vec2<u32>,
    hi: vec2<u32>,
    // Keys of the range still wanted, and how many it holds (NONE:
    // unknown).
    wanted: u32,
    len: u32,
    // 1: len == wanted; TOO_TIGHT (see above).
    done: u32,
    // 0: by s, from base, in bins of 2^shift values (below base: bin 0);
    // 1: by i, for s == value (below: bin 0, above: the last bin).
    phase: u32,
    value: u32,
    base: u32,
    shift: u32,
}

/// The row's shape, from the bindings' lengths and the grid.
struct Geometry {
    rows: u32,
    n: u32,
    k: u32,
    bins: u32,
    digit: u32,
    stride: u32,
    cap_a: u32,
    cap_1: u32,
}

fn geometry(rows: u32) -> Geometry {
    let stride = arrayLength(&state) / rows;
    let bins = stride - SCALARS;
    return Geometry(
        rows,
        arrayLength(&keys_in) / rows,
        arrayLength(&selected) / (2u * rows),
        bins,
        countTrailingZeros(bins),
        stride,
        arrayLength(&cand_a) / (2u * rows),
        arrayLength(&cand_1) / (2u * rows),
    );
}

/// Whether the relay (pass_r) runs: its buffer has room for more than one
/// key.
fn relayed(g: Geometry) -> bool {
    return g.cap_1 > 1u;
}

/// The ordered bits of key j of the inputs: the wanted keys have the least.
fn ordered(j: u32) -> u32 {
    return order_bits(keys_in[j]);
}

/// The ordered bits of the key whose raw bits are `raw`.
fn order_bits(raw: u32) -> u32 {
    let s = encode_key(raw);
    return select(s, ~s, LARGEST);
}

fn less(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

fn inside(x: vec2<u32>, r: Range) -> bool {
    return !less(x, r.lo) && !less(r.hi, x);
}

/// The successor of composite x (x is not the greatest).
fn after(x: vec2<u32>) -> vec2<u32> {
    if x.y == NONE {
        return vec2<u32>(x.x + 1u, 0u);
    }
    return vec2<u32>(x.x, x.y + 1u);
}

/// Shift putting a span of `width + 1` values into 2^digit bins.
fn shift_for(width: u32, digit: u32) -> u32 {
    let bits = 32u - countLeadingZeros(width);
    return select(0u, bits - digit, bits > digit);
}

/// r with the bucket of its own span: by s while it spans several s, then
/// by i.
fn bucketed(r: Range, digit: u32) -> Range {
    var q = r;
    if r.lo.x < r.hi.x {
        q.phase = 0u;
        q.value = 0u;
        q.base = r.lo.x;
        q.shift = shift_for(r.hi.x - r.lo.x, digit);
    } else {
        q.phase = 1u;
        q.value = r.lo.x;
        q.base = r.lo.y;
        q.shift = shift_for(r.hi.y - r.lo.y, digit);
    }
    return q;
}

/// The bin of composite x in r's histogram: monotone in (s, i).
fn bucket(x: vec2<u32>, r: Range, bins: u32) -> u32 {
    var v = x.x;
    if r.phase == 1u {
        if x.x != r.value {
            return select(bins - 1u, 0u, x.x < r.value);
        }
        v = x.y;
    }
    if v < r.base {
        return 0u;
    }
    return min((v - r.base) >> r.shift, bins - 1u);
}

/// r narrowed to bin b, which holds h of its keys and has `below` of them
/// in the bins before it, bucketed for the next round.
fn narrowed(r: Range, b: u32, below: u32, h: u32, g: Geometry) -> Range {
    var q = r;
    q.wanted = r.wanted - below;
    q.len = h;
    q.done = select(0u, 1u, h == q.wanted);
    // The bin is not empty, so its start does not overflow.
    let start = r.base + (b << r.shift);
    let span = (1u << r.shift) - 1u;
    let open_end = b == g.bins - 1u || span > NONE - start;
    var first = vec2<u32>(start, 0u);
    var last = vec2<u32>(start + span, NONE);
    if r.phase == 1u {
        first = vec2<u32>(r.value, start);
        last = vec2<u32>(r.value, start + span);
    }
    if b > 0u && less(q.lo, first) {
        q.lo = first;
    }
    if !open_end && less(last, q.hi) {
        q.hi = last;
    }
    return bucketed(q, g.digit);
}

fn store_range(at: u32, r: Range) {
    let w = array<u32, RANGE_WORDS>(r.lo.x, r.lo.y, r.hi.x, r.hi.y, r.wanted, r.len, r.done, r.phase, r.value,
        r.base, r.shift);
    for (var j = 0u; j < RANGE_WORDS; j++) {
        atomicStore(&state[at + j], w[j]);
    }
}

fn zero_histogram(t: u32, bins: u32) {
    for (var j = t; j < bins; j += BLOCK) {
        atomicStore(&hist[j], 0u);
    }
}

/// The bin where the running count of the histogram (hist[0 .. bins))
/// reaches `wanted`: (bin, keys in the bins before it, keys in it), the
/// same in every thread; bin NONE where all of them are fewer. Every thread
/// calls it, after the histogram is complete and a barrier (which also
/// keeps the last call's readers of bcast[12 .. 15) ahead of this one's
/// writes).
fn choose(t: u32, bins: u32, wanted: u32) -> vec3<u32> {
    let per = bins / BLOCK;
    var sum = 0u;
    for (var j = 0u; j < per; j++) {
        sum += atomicLoad(&hist[t * per + j]);
    }
    partials[t] = sum;
    if t == 0u {
        bcast[12] = NONE;
        bcast[13] = 0u;
        bcast[14] = 0u;
    }
    workgroupBarrier();
    // Inclusive running sums of the threads' bins (Hillis-Steele), over
    // bins / per = BLOCK threads: a bound the compiler does not see as a
    // constant, so it keeps the loop (lavapipe compiles every barrier as a
    // suspend point; each copy costs compile time).
    for (var offset = 1u; offset < bins / per; offset *= 2u) {
        var add = 0u;
        if t >= offset {
            add = partials[t - offset];
        }
        workgroupBarrier();
        partials[t] += add;
        workgroupBarrier();
    }
    var below = partials[t] - sum;
    if below < wanted && wanted <= partials[t] {
        for (var j = 0u; j < per; j++) {
            let h = atomicLoad(&hist[t * per + j]);
            if below < wanted && wanted <= below + h {
                bcast[12] = t * per + j;
                bcast[13] = below;
                bcast[14] = h;
            }
            below += h;
        }
    }
    let b = handed();
    return vec3<u32>(b[12], b[13], b[14]);
}

/// A small hash for the sample's places.
fn mix(x: u32) -> u32 {
    var h = x * 0x9e3779b1u;
    h ^= h >> 15u;
    h *= 0x85ebca6bu;
    h ^= h >> 13u;
    return h;
}

/// The place of sample j (< m) in a row of n: every key where n <= SAMPLES,
/// else one in each of SAMPLES strata, hashed.
fn sample_at(j: u32, n: u32, m: u32, row: u32) -> u32 {
    if n <= SAMPLES {
        return j;
    }
    let q = n / SAMPLES;
    let r = n % SAMPLES;
    let start = j * q + (j * r) / SAMPLES;
    let end = (j + 1u) * q + ((j + 1u) * r) / SAMPLES;
    return start + mix(j ^ (row << 12u)) % (end - start);
}

/// Sample j (< m) as a composite for `inside` and `bucket` of r: its s,
/// and its index where they read it (s at a bound of r, or r's value when
/// bucketed by i), else 0. The index is a hash and a division away: kept
/// for every sample it held 16 registers a thread more, and `init` spilled.
fn indexed(s: u32, r: Range, j: u32, n: u32, m: u32, row: u32) -> vec2<u32> {
    var i = 0u;
    if s == r.lo.x || s == r.hi.x || (r.phase == 1u && s == r.value) {
        i = sample_at(j, n, m, row);
    }
    return vec2<u32>(s, i);
}

@compute @workgroup_size(BLOCK)
fn init(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = geometry(nwg.y);
    let row = wid.y;
    let base = row * g.stride;
    for (var j = t; j < g.stride; j += BLOCK) {
        atomicStore(&state[base + j], 0u);
    }
    let n = g.n;
    let first = row * n;
    let m = min(n, SAMPLES);
    // The sample's s, in registers (sample q * BLOCK + t where below m);
    // its index is computed again where a comparison needs it (`indexed`).
    var ss: array<u32, SAMPLES_PER_THREAD>;
    // Every load first, unconditional (places past m clamped to sample
    // m - 1 and never used; m >= 1, as k >= 1), so that all of them are in
    // flight at once: behind `j < m` each was a branch whose use waited on
    // its load, 16 round trips to memory in a row (H100, CUDA: 5-7 us a
    // call less, unordered k = 64 at 2^24 0.0730 -> 0.0661 ms,
    // docs/benchmarks/2026-11-27r).
    for (var q = 0u; q < SAMPLES_PER_THREAD; q++) {
        let j = min(q * BLOCK + t, m - 1u);
        ss[q] = keys_in[first + sample_at(j, n, m, row)];
    }
    var least = NONE;
    var most = 0u;
    for (var q = 0u; q < SAMPLES_PER_THREAD; q++) {
        ss[q] = order_bits(ss[q]);
        if q * BLOCK + t < m {
            least = min(least, ss[q]);
            most = max(most, ss[q]);
        }
    }
    if t == 0u {
        atomicStore(&hist[0], NONE);
        atomicStore(&hist[1], 0u);
    }
    workgroupBarrier();
    atomicMin(&hist[0], least);
    atomicMax(&hist[1], most);
    // Every thread has read them before the histogram is zeroed (the
    // barrier after the second read).
    let smin = workgroupUniformLoad(&hist[0]);
    let smax = workgroupUniformLoad(&hist[1]);
    // The rank wanted: the k-th where the sample is the row, else about
    // 4k keys' worth of samples, at least MIN_RANK.
    var jstar = g.k;
    if n > SAMPLES {
        let aim = RANK_SCALE * g.k * SAMPLES;
        jstar = clamp(max(MIN_RANK, aim / n + select(0u, 1u, aim % n != 0u)), 1u, m);
    }
    var r = bucketed(Range(vec2<u32>(smin, 0u), vec2<u32>(smax, n - 1u), jstar, m, 0u, 0u, 0u, 0u, 0u), g.digit);
    // At most INIT_ROUNDS rounds, the test at the end: a loop the native
    // lowering leaves rolled (a `for` to a constant it unrolls, here a copy
    // of the round's code a round).
    var round = 0u;
    loop {
        zero_histogram(t, g.bins);
        workgroupBarrier();
        for (var q = 0u; q < SAMPLES_PER_THREAD; q++) {
            let j = q * BLOCK + t;
            if j < m {
                let x = indexed(ss[q], r, j, n, m, row);
                if inside(x, r) {
                    atomicAdd(&hist[bucket(x, r, g.bins)], 1u);
                }
            }
        }
        workgroupBarrier();
        let c = choose(t, g.bins, r.wanted);
        r = narrowed(r, c.x, c.y, c.z, g);
        // Exact where the sample is the row; else close enough.
        if r.done == 1u || (n > SAMPLES && r.len - r.wanted <= jstar / 4u) {
            break;
        }
        round++;
        if round == INIT_ROUNDS {
            break;
        }
    }
    // pass_a's range [-inf, T]; its bucket spans the samples' least s to
    // T's, and as far again below (keys better than every sample), or by i
    // where the samples up to T are all one s.
    let top = r.hi;
    var a = Range(vec2<u32>(0u, 0u), top, g.k, NONE, 0u, 0u, 0u, 0u, 0u);
    if smin < top.x {
        a.base = smin - min(smin, top.x - smin);
        a.shift = shift_for(top.x - a.base, g.digit);
    } else {
        a.phase = 1u;
        a.value = top.x;
        a.shift = shift_for(top.y, g.digit);
    }
    if t == 0u {
        store_range(base + RANGE_A, a);
        atomicStore(&state[base + LEAST], NONE);
    }
}

/// Appends candidate x (staged in workgroup memory); `slot` is its place
/// in the stage, or past it where the stage is full (then written after
/// the tile, `spill`).
fn stage(x: vec2<u32>) -> u32 {
    let slot = atomicAdd(&counters[0], 1u);
    if slot < STAGE {
        words[slot] = x.x;
        words[STAGE + slot] = x.y;
    }
    return slot;
}

/// Writes candidate x to cand_a (which = 0) or cand_1 at `slot` of the row,
/// if it has room.
fn put(which: u32, row: u32, cap: u32, slot: u32, x: vec2<u32>) {
    if slot >= cap {
        return;
    }
    let at = 2u * (row * cap + slot);
    if which == 0u {
        cand_a[at] = x.x;
        cand_a[at + 1u] = x.y;
    } else {
        cand_1[at] = x.x;
        cand_1[at + 1u] = x.y;
    }
}

/// The candidate (s, i) at `slot` of the row's cand_a (which = 0) or
/// cand_1.
fn candidate(which: u32, row: u32, cap: u32, slot: u32) -> vec2<u32> {
    let at = 2u * (row * cap + slot);
    if which == 0u {
        return vec2<u32>(cand_a[at], cand_a[at + 1u]);
    }
    return vec2<u32>(cand_1[at], cand_1[at + 1u]);
}

/// The stage after a tile (every thread calls it): once FLUSH_AT or more
/// are staged (or, at the `last` tile, any), they go to the buffer (cand_a
/// where which = 0, else cand_1; `cap` its room a row, its count at
/// `count_at`); where the stage overflowed, the tile's excess goes
/// straight there too: the keys of the thread's tile (from `at`, BLOCK
/// apart) whose bits are set in `spilled`, read again from `source`
/// (`source_key`). Two barriers where neither happens (most tiles): those
/// of the count's `workgroupUniformLoad`, which makes whether to flush
/// uniform (a plain read of workgroup memory is not, for WGSL's uniformity
/// analysis: browsers refuse the flush's barriers after it).
fn after_tile(t: u32, which: u32, row: u32, g: Geometry, cap: u32, count_at: u32, source: u32, at: u32,
              spilled: u32, last: bool) {
    // Every thread reads the same count after every thread's staging: no
    // thread stages again before the barrier the next tile has between its
    // loads and its staging.
    let staged = workgroupUniformLoad(&counters[0]);
    let kept = min(staged, STAGE);
    let spill = staged > STAGE;
    if kept < FLUSH_AT && !(last && kept > 0u) {
        return;
    }
    if t == 0u {
        if spill {
            bcast[12] = atomicAdd(&state[count_at], staged - STAGE);
            atomicStore(&counters[3], 0u);
        }
        bcast[13] = atomicAdd(&state[count_at], kept);
    }
    workgroupBarrier();
    if t == 0u {
        atomicStore(&counters[0], 0u);
    }
    if spilled != 0u {
        // The excess in any order: the places bcast[12] + [0, staged -
        // STAGE), a run of them for each thread.
        var slot = bcast[12] + atomicAdd(&counters[3], countOneBits(spilled));
        for (var u = 0u; u < ITEMS; u++) {
            if (spilled & (1u << u)) != 0u {
                put(which, row, cap, slot, source_key(source, row, g, at + u * BLOCK));
                slot++;
            }
        }
    }
    let start = bcast[13];
    for (var j = t; j < kept; j += BLOCK) {
        let x = vec2<u32>(words[j], words[STAGE + j]);
        put(which, row, cap, start + j, x);
    }
    workgroupBarrier();
}

/// Adds the workgroup's histogram to the row's (and, in pass_a, its least
/// candidate s to LEAST), then counts the workgroup in at `arrive_at`:
/// whether it is the last of the row's `groups` (then after a device-scope
/// barrier: every other's writes are visible).
fn arrive(t: u32, base: u32, bins: u32, arrive_at: u32, groups: u32) -> bool {
    workgroupBarrier();
    for (var j = t; j < bins; j += BLOCK) {
        let h = atomicLoad(&hist[j]);
        if h != 0u {
            atomicAdd(&state[base + SCALARS + j], h);
        }
    }
    if t == 0u && arrive_at == ARRIVE_A {
        atomicMin(&state[base + LEAST], atomicLoad(&counters[2]));
    }
    storageBarrier();
    if t == 0u {
        bcast[15] = select(0u, 1u, atomicAdd(&state[base + arrive_at], 1u) + 1u == groups);
    }
    let last = workgroupUniformLoad(&bcast[15]) == 1u;
    if last {
        storageBarrier();
    }
    return last;
}

/// The row's histogram into workgroup memory (hist[0 .. bins)), and the
/// row's zeroed for the next pass; the row's LEAST, COUNT_A, COUNT_1 and
/// SELECTED, final now, into bcast[16 .. 20); returns bcast (`handed`).
fn take_histogram(t: u32, base: u32, bins: u32) -> array<u32, 24> {
    for (var j = t; j < bins; j += BLOCK) {
        atomicStore(&hist[j], atomicLoad(&state[base + SCALARS + j]));
        atomicStore(&state[base + SCALARS + j], 0u);
    }
    return load_counts(t, base);
}

/// The row's LEAST, COUNT_A, COUNT_1 and SELECTED (final once the pass
/// that writes them is over) into bcast[16 .. 20); returns bcast after a
/// barrier (`handed`).
fn load_counts(t: u32, base: u32) -> array<u32, 24> {
    if t == 0u {
        bcast[16] = atomicLoad(&state[base + LEAST]);
        bcast[17] = atomicLoad(&state[base + COUNT_A]);
        bcast[18] = atomicLoad(&state[base + COUNT_1]);
        bcast[19] = atomicLoad(&state[base + SELECTED]);
    }
    return handed();
}

/// Appends x to the row's `selected` (fewer than k ever, or exactly k).
fn select_key(row: u32, k: u32, base: u32, x: vec2<u32>) {
    let slot = atomicAdd(&state[base + SELECTED], 1u);
    if slot < k {
        selected[2u * (row * k + slot)] = x.x;
        selected[2u * (row * k + slot) + 1u] = x.y;
    }
}

/// The range at `range_at` of the row's state (at `base`) into bcast[0 ..
/// 11) (`pass_range`) and its COUNT_A into bcast[21], read by thread 0 and
/// handed to every thread; the workgroup's histogram and stage zeroed, its
/// least candidate s NONE.
fn begin_pass(t: u32, base: u32, range_at: u32, bins: u32) {
    if t == 0u {
        bcast[21] = atomicLoad(&state[base + COUNT_A]);
        for (var j = 0u; j < RANGE_WORDS; j++) {
            bcast[j] = atomicLoad(&state[base + range_at + j]);
        }
        atomicStore(&counters[0], 0u);
        atomicStore(&counters[2], NONE);
    }
    zero_histogram(t, bins);
    workgroupBarrier();
}

/// The pass's range, as `begin_pass` handed it out (bcast[0 .. 11), which
/// nothing writes again in the pass): read again where it is needed, so
/// that its words are not held across the pass's loop.
fn pass_range() -> Range {
    return Range(vec2<u32>(bcast[0], bcast[1]), vec2<u32>(bcast[2], bcast[3]), bcast[4], bcast[5], bcast[6],
        bcast[7], bcast[8], bcast[9], bcast[10]);
}

/// The range in words `b` (`handed`), as pass_range reads it.
fn range_in(b: array<u32, 24>) -> Range {
    return Range(vec2<u32>(b[0], b[1]), vec2<u32>(b[2], b[3]), b[4], b[5], b[6], b[7], b[8], b[9], b[10]);
}

/// bcast, read after a barrier (what thread 0 handed out before it) by
/// `workgroupUniformLoad`: a barrier, the read, a barrier. Where control
/// flow around a barrier depends on a handed-out value, it is read so:
/// WGSL's uniformity analysis (which browsers enforce) takes a plain read
/// of workgroup memory as non-uniform.
fn handed() -> array<u32, 24> {
    return workgroupUniformLoad(&bcast);
}

/// The range after the pass's histogram (in workgroup memory, in the row's
/// last workgroup; every thread calls it): r (the pass's, in the handed
/// words `b`) narrowed to the bin of its wanted key; TOO_TIGHT where
/// pass_a's candidates are fewer than k. r where it is done.
fn next_range(t: u32, g: Geometry, b: array<u32, 24>, relay: bool) -> Range {
    let r = range_in(b);
    var next = r;
    if r.done == 0u {
        let c = choose(t, g.bins, r.wanted);
        if c.x == NONE {
            // Only pass_a's: fewer than k keys at most T.
            next.done = TOO_TIGHT;
        } else {
            if !relay {
                // No candidate lies below the least s found: the range
                // starts there (bin 0 reaches down to -inf).
                let least_s = b[16];
                if next.lo.x < least_s {
                    next.lo = vec2<u32>(least_s, 0u);
                }
            }
            next = narrowed(next, c.x, c.y, c.z, g);
        }
    }
    return next;
}

/// pass_a, the one full read: the hot kernel, kept lean (the last step is
/// `finish_pass`'s, so that its registers are not this loop's). Its row's
/// last workgroup chooses range 1.
@compute @workgroup_size(BLOCK)
fn select_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = geometry(nwg.y);
    let row = wid.y;
    let base = row * g.stride;
    // [-inf, T]: nothing below lo, never done.
    begin_pass(t, base, RANGE_A, g.bins);
    let first = row * g.n;
    let tiles = (g.n + TILE - 1u) / TILE;
    for (var tile = wid.x; tile < tiles; tile += nwg.x) {
        let at = tile * TILE + t;
        // Every tile but the row's last is full: its keys unchecked.
        var spilled = 0u;
        if g.n - tile * TILE >= TILE {
            spilled = tile_a(at, first, g, false);
        } else {
            spilled = tile_a(at, first, g, true);
        }
        after_tile(t, 0u, row, g, g.cap_a, base + COUNT_A, 2u, at, spilled, tile + nwg.x >= tiles);
    }
    if !arrive(t, base, g.bins, ARRIVE_A, nwg.x) {
        return;
    }
    let next = next_range(t, g, take_histogram(t, base, g.bins), false);
    if t == 0u {
        store_range(base + RANGE_1, next);
    }
}

/// A tile of pass_a (every thread calls it): the thread's keys at, at +
/// BLOCK, .. (`checked`: those below n; else all ITEMS, loaded at once
/// before the barrier); those at most T staged and counted (`take_a`).
/// Returns the bits (1 << u) of its keys past the stage (`after_tile`).
/// Held across the tile: the keys' s and T; the index is the place, the
/// bucket's words are read where a key is taken.
fn tile_a(at: u32, first: u32, g: Geometry, checked: bool) -> u32 {
    var ss: array<u32, ITEMS>;
    if !checked {
        for (var u = 0u; u < ITEMS; u++) {
            ss[u] = ordered(first + at + u * BLOCK);
        }
    }
    // The last tile's after_tile read the stage count: no staging before
    // every thread has (the loads are on their way meanwhile).
    workgroupBarrier();
    let hi = vec2<u32>(bcast[2], bcast[3]);
    var spilled = 0u;
    for (var u = 0u; u < ITEMS; u++) {
        let j = at + u * BLOCK;
        if checked {
            // The row's last tile: its keys one at a time, up to n.
            if j >= g.n {
                break;
            }
            ss[u] = ordered(first + j);
        }
        let x = vec2<u32>(ss[u], j);
        if !less(hi, x) {
            spilled |= take_a(x, u, g.bins);
        }
    }
    return spilled;
}

/// Candidate x, key u of the thread's tile in pass_a: staged, counted in
/// the histogram, its s into the workgroup's least (counters[2]). Returns
/// its bit where it is past the stage. Candidates are few (about max(4k,
/// n / 512) of a row's n keys): the range's words are read here, from
/// workgroup memory, not held in registers across the tile.
fn take_a(x: vec2<u32>, u: u32, bins: u32) -> u32 {
    var bit = 0u;
    if stage(x) >= STAGE {
        bit = 1u << u;
    }
    atomicAdd(&hist[bucket(x, pass_range(), bins)], 1u);
    atomicMin(&counters[2], x.x);
    return bit;
}

/// pass_r where the row is relayed (G workgroups a row), then the last
/// step in its last workgroup; else (one workgroup a row) the last step
/// alone, after pass_a.
@compute @workgroup_size(BLOCK)
fn finish_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = geometry(nwg.y);
    let row = wid.y;
    let base = row * g.stride;
    // Range 1, pass_a's choice.
    begin_pass(t, base, RANGE_1, g.bins);
    let handed_out = handed();
    let r = range_in(handed_out);
    if !relayed(g) {
        let b = load_counts(t, base);
        finish(t, row, g, r, r, false, vec3<u32>(b[17], b[18], b[19]));
        return;
    }
    // The source: cand_a, or the input where cand_a could not hold them.
    let count_a = handed_out[21];
    let source = select(1u, 2u, count_a > g.cap_a);
    let total = select(count_a, g.n, source == 2u);
    let tiles = (total + TILE - 1u) / TILE;
    for (var tile = wid.x; tile < tiles; tile += nwg.x) {
        let at = tile * TILE + t;
        var xs: array<vec2<u32>, ITEMS>;
        for (var u = 0u; u < ITEMS; u++) {
            let j = at + u * BLOCK;
            if j < total {
                xs[u] = source_key(source, row, g, j);
            }
        }
        workgroupBarrier();
        var spilled = 0u;
        for (var u = 0u; u < ITEMS; u++) {
            let x = xs[u];
            if at + u * BLOCK < total {
                if r.done == TOO_TIGHT || less(x, r.lo) || (r.done == 1u && !less(r.hi, x)) {
                    select_key(row, g.k, base, x);
                } else if !less(r.hi, x) {
                    if stage(x) >= STAGE {
                        spilled |= 1u << u;
                    }
                    atomicAdd(&hist[bucket(x, r, g.bins)], 1u);
                }
            }
        }
        after_tile(t, 1u, row, g, g.cap_1, base + COUNT_1, source, at, spilled, tile + nwg.x >= tiles);
    }
    if !arrive(t, base, g.bins, ARRIVE_R, nwg.x) {
        return;
    }
    let b = take_histogram(t, base, g.bins);
    let next = next_range(t, g, b, true);
    finish(t, row, g, next, range_in(b), true, vec3<u32>(b[17], b[18], b[19]));
}

/// Key `j` of the last step's source: 0 cand_1, 1 cand_a, 2 the input.
fn source_key(source: u32, row: u32, g: Geometry, j: u32) -> vec2<u32> {
    if source == 2u {
        return vec2<u32>(ordered(row * g.n + j), j);
    }
    if source == 1u {
        return candidate(0u, row, g.cap_a, j);
    }
    return candidate(1u, row, g.cap_1, j);
}

/// Puts x, gathered from range r, into the sort's arrays: at the next
/// place from the start (counters[1]), or, unordered (SORTED false) where x
/// is surely taken (below r, or r.done: every key of r is wanted), at the
/// next place from the end (counters[3]), which the sort leaves alone.
/// Between them they gather at most SORT_MAX (the last step's test).
fn gather(x: vec2<u32>, r: Range) {
    var p = NONE;
    if !SORTED && (less(x, r.lo) || r.done == 1u) {
        let slot = atomicAdd(&counters[3], 1u);
        if slot < SORT_MAX {
            p = SORT_MAX - 1u - slot;
        }
    } else {
        let slot = atomicAdd(&counters[1], 1u);
        if slot < SORT_MAX {
            p = slot;
        }
    }
    if p != NONE {
        words[p] = x.x;
        words[SORT_MAX + p] = x.y;
    }
}

/// The gathered key at place p (past m: the greatest composite).
fn sorted_at(p: u32, m: u32) -> vec2<u32> {
    if p >= m {
        return vec2<u32>(NONE, NONE);
    }
    return vec2<u32>(words[p], words[SORT_MAX + p]);
}

/// Sorts the m (<= SORT_MAX) gathered keys by (s, i) in workgroup memory:
/// a bitonic sort whose every merge sorts ascending (its first step
/// compares mirrored places), so places past m, never stored, act as the
/// greatest composite and never move.
fn sort_gathered(t: u32, m: u32) {
    var width = 2u;
    while width < m {
        width *= 2u;
    }
    for (var size = 2u; size <= width; size *= 2u) {
        for (var stride = size / 2u; stride > 0u; stride /= 2u) {
            // stride is a power of two: q / stride and q % stride by a
            // shift and a mask, not a division by a value the compiler
            // cannot see (a long sequence of instructions on a GPU).
            let low = stride - 1u;
            let log2_stride = countTrailingZeros(stride);
            for (var q = t; q < width / 2u; q += BLOCK) {
                var a = 2u * q - (q & low);
                var b = a + stride;
                if stride == size / 2u {
                    // The mirrored partner: a's place counted from the end
                    // of its block.
                    let block = q >> log2_stride;
                    a = block * size + (q & low);
                    b = block * size + size - 1u - (q & low);
                }
                if b < m {
                    let xa = sorted_at(a, m);
                    let xb = sorted_at(b, m);
                    if less(xb, xa) {
                        words[a] = xb.x;
                        words[SORT_MAX + a] = xb.y;
                        words[b] = xa.x;
                        words[SORT_MAX + b] = xa.y;
                    }
                }
            }
            workgroupBarrier();
        }
    }
}

/// The last step of a row, in the last workgroup of its last pass: `range`
/// is the current range (after pass_a's choice, or pass_r's where `relay`:
/// then `first` is pass_a's, which pass_r read). Uniform.
fn finish(t: u32, row: u32, g: Geometry, range: Range, first: Range, relay: bool, counts: vec3<u32>) {
    let count_a = counts.x;
    let count_1 = counts.y;
    var r = range;
    // What is taken outright: `selected` (pass_r's), and cand_a entire
    // where it was too tight without a relay.
    var extra = false;
    // The source of the range's keys and the least composite read from it
    // (below: already taken).
    var source = 1u;
    var least_read = vec2<u32>(0u, 0u);
    var total = count_a;
    if r.done == TOO_TIGHT {
        // Every key at most T is taken; the rest come from the input, in
        // (T, +inf].
        extra = !relay;
        source = 2u;
        total = g.n;
        least_read = after(r.hi);
        r = bucketed(Range(least_read, vec2<u32>(NONE, g.n - 1u), g.k - count_a, NONE, 0u, 0u, 0u, 0u, 0u),
            g.digit);
    } else if relay {
        least_read = first.lo;
        if first.done == 1u {
            // pass_r took them all into `selected`.
            total = 0u;
        } else if count_1 <= g.cap_1 {
            source = 0u;
            total = count_1;
        } else if count_a > g.cap_a {
            source = 2u;
            total = g.n;
        }
    } else if count_a > g.cap_a {
        source = 2u;
        total = g.n;
    }
    // Rounds over the source, here, until the keys up to the range's hi
    // fit the sort; then one more read gathers them (one loop for both: a
    // reading loop less to compile).
    let chosen = min(counts.z, g.k);
    // At most 16 rounds, the test at the end: rolled (see init's).
    var round = 0u;
    loop {
        let gathering = r.done != 0u || (r.len != NONE && g.k - r.wanted + r.len <= SORT_MAX);
        workgroupBarrier();
        if gathering {
            if t == 0u {
                atomicStore(&counters[1], 0u);
                if !SORTED {
                    atomicStore(&counters[3], 0u);
                }
            }
        } else {
            zero_histogram(t, g.bins);
        }
        workgroupBarrier();
        if gathering {
            for (var j = t; j < chosen; j += BLOCK) {
                gather(vec2<u32>(selected[2u * (row * g.k + j)], selected[2u * (row * g.k + j) + 1u]), r);
            }
            if extra {
                for (var j = t; j < count_a; j += BLOCK) {
                    gather(candidate(0u, row, g.cap_a, j), r);
                }
            }
        }
        for (var start = 0u; start < total; start += BATCH * BLOCK) {
            var xs: array<vec2<u32>, BATCH>;
            for (var u = 0u; u < BATCH; u++) {
                let j = start + u * BLOCK + t;
                if j < total {
                    xs[u] = source_key(source, row, g, j);
                }
            }
            for (var u = 0u; u < BATCH; u++) {
                let x = xs[u];
                if start + u * BLOCK + t < total && !less(x, least_read) && !less(r.hi, x) {
                    if gathering {
                        gather(x, r);
                    } else if !less(x, r.lo) {
                        atomicAdd(&hist[bucket(x, r, g.bins)], 1u);
                    }
                }
            }
        }
        workgroupBarrier();
        if gathering {
            break;
        }
        let c = choose(t, g.bins, r.wanted);
        r = narrowed(r, c.x, c.y, c.z, g);
        round++;
        if round == 16u {
            break;
        }
    }
    if t == 0u {
        bcast[22] = min(atomicLoad(&counters[1]), SORT_MAX);
        if !SORTED {
            bcast[23] = min(atomicLoad(&counters[3]), SORT_MAX);
        }
    }
    let m = workgroupUniformLoad(&bcast[22]);
    // Taken outright (unordered), at the end of the words; written before
    // the uniform load's barrier.
    var d = 0u;
    if !SORTED {
        d = bcast[23];
    }
    sort_gathered(t, m);
    let out = row * g.k;
    for (var j = t; j < g.k; j += BLOCK) {
        let p = select(j - d, SORT_MAX - 1u - j, j < d);
        let i = row * g.n + words[SORT_MAX + p];
        keys_out[out + j] = keys_in[i];
        if PAIRS {
            values_out[out + j] = values_in[i];
        }
    }
}
