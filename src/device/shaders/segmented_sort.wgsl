// Device-wide segmented sort of 32-bit keys, alone or with u32 values
// (wavekit::device::SegmentedSort, as CUB's DeviceSegmentedSort): segment s
// is elements offsets[s] .. offsets[s + 1] of the n keys; each segment is
// sorted ascending on (key, value) (keys alone: on the key), into the same
// places of the outputs. Elements outside every segment are not written.
//
// Three kinds of dispatch, by segment length (read on the device, so the
// host records all of them):
//   sort_short (ceil(segments / SHORT_SEGS) workgroups): the segments of 1
//     to SHORT_LIMIT = 64 elements, SHORT_SEGS = 64 consecutive ones a
//     workgroup, in grains: each segment in an aligned group of the fewest
//     lanes (1, 2, 4, ... 64 / GRAIN) that hold it GRAIN pairs a lane, the
//     slots past its end holding the largest pair (0xffffffff, 0xffffffff).
//     The groups are packed widest first (a workgroup counter per width
//     hands out places, so every group is aligned) into rounds of
//     ROUND = STAGE / GRAIN lanes (at most two). A round's pairs come in
//     coalesced (thread t reads slots t, t + BLOCK, ... of the round, each
//     slot's segment from the lane map) into `stage`, lane p takes slots
//     p GRAIN .. (p + 1) GRAIN from there, `sort_segment_grains` (loops, or
//     written out by the host: sort_network.rs) sorts each group: the
//     bitonic network of SHORT_LIMIT, in-lane below GRAIN, shuffles above,
//     each stage across lanes only where the group spans that far; then back
//     through `stage` to coalesced stores. Keys and values pass `stage` one
//     after the other. Subgroups without a lane of a segment skip the
//     network, and the others skip its sizes past their widest group
//     (`subgroup_sorts`, `subgroup_widest`: not where subgroups are
//     emulated).
//   sort_chunk (at most CHUNK_GROUPS = 1024 workgroups, each taking every
//     such chunk in turn): the longer segments' pieces in
//     each aligned chunk of CHUNK elements, sorted in workgroup memory by
//     log2(CHUNK) merge levels (each element binary-searches its place in
//     the partner run of its segment, 3 barriers per level). A segment
//     inside one chunk is then done and written to the outputs; a longer
//     one's pieces go to the scratch's run A, and chunk_flags[chunk] says
//     whether the chunk holds such pieces. Chunks without segments longer
//     than SHORT_LIMIT return after one look at their segments' offsets.
//   merge_pass (at most 2048 workgroups, each taking every such chunk in
//     turn, 4 elements per thread), pass
//     p = arrayLength(&pass_info) - 1 (the host binds p + 1 words, as n
//     reaches every shader as a binding's size): the runs of width
//     w = CHUNK << 2p, counted from the start of each segment's first
//     chunk and cut at its ends (so a segment over m chunks is done after
//     ceil(log4(m)) passes wherever it lies: aligned to multiples of w,
//     segments across a boundary of 4^k chunks took up to k more passes,
//     2026-11-28g), are merged four at a time into runs of 4w (each element searches
//     the three other runs of its group), reading run A (p even) or B
//     (p odd) and writing the other, or the outputs once the segment lies
//     inside one run of 4w. The host records ceil(log4(n / CHUNK)) passes.
//     Chunks without unfinished segments cost one flag read (a pass clears
//     the flag of a chunk it finishes); other elements a binary search of
//     the chunk's segments' offsets.
//   Where no segment is longer than SHORT_LIMIT (sort_short, which reads
//   every segment's bounds, sets pass_info[LONG_SEEN] on seeing one),
//   sort_chunk and merge_pass return after one read of that word (before:
//   two binary searches of the offsets a chunk, and a flag a chunk a
//   pass): H100, CUDA, segments of 1..=64, 0.6583 -> 0.4959 ms at 2^24
//   (docs/benchmarks/2026-11-27r).
// Merges count the partner run's pairs strictly less (lower run) or less or
// equal (upper run), so equal pairs keep their order and the order is the
// total (key, value) order. Keys are encoded to unsigned bits of the same
// order (KEY_ORDER, as radix_sort.wgsl) and decoded on the way out.
// Offsets must be non-decreasing with offsets[segments] <= n; other offsets
// give unspecified (but in-bounds) results.
//
// Parameters (set by name by the host): KEY_ORDER, PAIRS, GRAIN (pairs a lane in
// sort_short: a power of two, at least SHORT_LIMIT over the smallest subgroup
// size); and the function sort_segment_grains (its loop form here, or
// sort_network.rs's network written out for SHORT_LIMIT and GRAIN).
// Bindings: 0 keys_in, 1 values_in (array<u32>, n; values any 4 bytes
//   without PAIRS), 2 offsets (segments + 1), 3 keys_out, 4 values_out
//   (n; values any 4 bytes without PAIRS), 5 scratch (keys A, keys B, n
//   words each, then one flag per chunk), 6 pass_info (p + 1 words; word
//   0, LONG_SEEN, every dispatch's, zeroed by the host before the first),
//   7 scratch_values (values A, values B, n words each, with PAIRS; any 4
//   bytes without): apart from the keys' so that no binding of a sort of
//   2^28 pairs exceeds 2 GiB + a flag a chunk.
// Append: key_order.wgsl (encode_key, decode_key), sort_merge.wgsl (less, padded,
// inside_run, partner_run, merge_target: sort_chunk's), sort_scratch.wgsl
// (run_key, run_value, store_run).
#import wavekit::subgroup as sg

const KEY_ORDER = 0u;
const PAIRS = true;
const BLOCK = 256u;
const CHUNK = 1024u;
const PER_THREAD = CHUNK / BLOCK;
// The longest segment sort_short sorts; sort_chunk and merge_pass take the
// longer ones.
const SHORT_LIMIT = 64u;
// sort_short: pairs a lane, segments a workgroup, slots a round (the
// stage's), lanes a round.
const GRAIN = 8u;
const SHORT_SEGS = 64u;
const STAGE = 2048u;
const ROUND = STAGE / GRAIN;
// The most lanes a workgroup's segments take (all SHORT_LIMIT long).
const MAX_LANES = SHORT_SEGS * SHORT_LIMIT / GRAIN;
// Whether a sort_short subgroup sorts, given whether the lane holds a
// segment: every one by default; the host gives, unless subgroups are
// emulated (they shuffle through workgroup barriers, which every thread
// must reach), `return sg::any_true(mine);`.
fn subgroup_sorts(mine: bool) -> bool { return true; }
// The most lanes of any group of the subgroup (`lanes`: the lane's own
// group's), for the written-out sort_segment_grains's stages: all the
// network's by default; the host gives `return sg::reduce_all_max<u32>(lanes);`
// with that network (never where subgroups are emulated: each subgroup's
// stages must then be the same).
fn subgroup_widest(lanes: u32) -> u32 { return SHORT_LIMIT / GRAIN; }

/// A lane's GRAIN pairs of one segment.
struct Grains {
    keys: array<u32, GRAIN>,
    values: array<u32, GRAIN>,
}

/// `g` sorted with the other lanes of its segment's group of `lanes` lanes
/// (`q`: the lane's place in it; `widest`: the subgroup's most lanes, which
/// the loops do not read), ascending on (key, value): the bitonic network for
/// SHORT_LIMIT over elements e = q GRAIN + r (register r of lane q), as
/// loops. Strides below GRAIN compare two registers of the lane, the others
/// exchange register r with lane q ^ (stride / GRAIN), only where the
/// group spans that far; a run ascends where e's bit `size` is clear, so
/// past its group's size a lane's sorted registers stay as they are. The
/// host replaces it, where a segment of SHORT_LIMIT takes at most 8 lanes
/// of a real subgroup, with the same network written out straight
/// (`sort_network::segment_grains`: registers by name, no loop, faster
/// where the registers must not be indexed); elsewhere (narrow or emulated
/// subgroups) this compact form compiles in a fraction of the time
/// (SwiftShader did not compile the written-out one in minutes).
fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) -> Grains { return looped_segment_grains(q, lanes, g); }

/// sort_segment_grains's default: the network as loops (each size's
/// strides across lanes, then those within the lane).
fn looped_segment_grains(q: u32, lanes: u32, g: Grains) -> Grains {
    var k = g.keys;
    var v = g.values;
    for (var size = 2u; size <= SHORT_LIMIT; size *= 2u) {
        for (var stride = size / 2u; stride >= GRAIN; stride /= 2u) {
            let d = stride / GRAIN;
            let lower = (q & d) == 0u;
            let up = ((q * GRAIN) & size) == 0u;
            for (var r = 0u; r < GRAIN; r++) {
                let ok = sg::shuffle_xor<u32>(k[r], d);
                let ov = sg::shuffle_xor<u32>(v[r], d);
                let take = less(ok, ov, k[r], v[r]) == (lower == up) && lanes > d;
                k[r] = select(k[r], ok, take);
                v[r] = select(v[r], ov, take);
            }
        }
        for (var stride = min(size, GRAIN) / 2u; stride > 0u; stride /= 2u) {
            for (var r = 0u; r < GRAIN; r++) {
                let o = r | stride;
                if o != r {
                    let up = ((q * GRAIN + r) & size) == 0u;
                    let swap = less(k[o], v[o], k[r], v[r]) == up;
                    let lk = k[r];
                    let lv = v[r];
                    k[r] = select(k[r], k[o], swap);
                    v[r] = select(v[r], v[o], swap);
                    k[o] = select(k[o], lk, swap);
                    v[o] = select(v[o], lv, swap);
                }
            }
        }
    }
    return Grains(k, v);
}

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(5) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(6) var<storage, read_write> pass_info: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> scratch_values: array<u32>;

var<workgroup> merge_keys: array<u32, CHUNK>;
var<workgroup> merge_values: array<u32, CHUNK>;
var<workgroup> vote: atomic<u32>;
var<workgroup> vote_result: u32;
// A chunk's range of segments, lo and hi, searched by two threads
// (chunk_segment_range).
var<workgroup> chunk_segments: array<u32, 2>;
// pass_info[LONG_SEEN] as thread 0 read it.
var<workgroup> long_seen: u32;
// merge_pass: a chunk's flag as thread 0 read it.
var<workgroup> flag_seen: u32;
// The word of pass_info that says a segment longer than SHORT_LIMIT exists.
const LONG_SEEN = 0u;

// sort_short: a round's slots (one padding word every 32: lane p's GRAIN
// slots and thread t's slots t + BLOCK i both read without bank conflicts),
// each lane's segment (its index in the workgroup), each segment's first
// element and its length | first lane << 8 | log2(lanes) << 24, the lanes
// handed out per width (log2 of the lanes), and the lanes of all groups.
var<workgroup> stage: array<u32, STAGE + STAGE / 32u>;
var<workgroup> lane_segment: array<u32, MAX_LANES>;
var<workgroup> short_first: array<u32, SHORT_SEGS>;
var<workgroup> short_place: array<u32, SHORT_SEGS>;
var<workgroup> width_lanes: array<atomic<u32>, 8>;
var<workgroup> short_lanes: u32;

/// Whether `mine` holds in any thread of the workgroup (every thread
/// calls it, in uniform control flow; `t` the local index).
fn workgroup_any(t: u32, mine: bool) -> bool {
    if t == 0u {
        atomicStore(&vote, 0u);
    }
    workgroupBarrier();
    if mine {
        atomicOr(&vote, 1u);
    }
    workgroupBarrier();
    if t == 0u {
        vote_result = atomicLoad(&vote);
    }
    return workgroupUniformLoad(&vote_result) != 0u;
}

fn segment_count() -> u32 {
    return max(arrayLength(&offsets), 1u) - 1u;
}

/// Notes a segment of `len` elements: one longer than SHORT_LIMIT sets
/// pass_info[LONG_SEEN] (sort_short calls it for every segment).
fn note_length(len: u32) {
    if len > SHORT_LIMIT {
        atomicStore(&pass_info[LONG_SEEN], 1u);
    }
}

/// Whether any segment is longer than SHORT_LIMIT, as sort_short
/// found (every thread calls it, in uniform control flow).
fn any_long(t: u32) -> bool {
    if t == 0u {
        long_seen = atomicLoad(&pass_info[LONG_SEEN]);
    }
    return workgroupUniformLoad(&long_seen) != 0u;
}

/// Segment s's elements [begin, end), clamped into 0..n.
fn bounds(s: u32) -> vec2<u32> {
    let n = arrayLength(&keys_in);
    let end = min(offsets[s + 1u], n);
    return vec2<u32>(min(offsets[s], end), end);
}

/// The segment holding element i, searched in segments lo..hi (hi at most
/// segment_count()), as its bounds; (i, i + 1) when none holds it (the
/// element then stays).
fn segment_of(i: u32, lo: u32, hi: u32) -> vec2<u32> {
    // The last segment s in lo..hi with offsets[s] <= i is a - 1.
    let a = offsets_after(i, lo, hi);
    if a > lo {
        let seg = bounds(a - 1u);
        if i >= seg.x && i < seg.y {
            return seg;
        }
    }
    return vec2<u32>(i, i + 1u);
}

fn store_out(i: u32, key: u32, value: u32) {
    keys_out[i] = decode_key(key);
    if PAIRS {
        values_out[i] = value;
    }
}

fn chunk_flag_index(chunk: u32) -> u32 {
    return 2u * arrayLength(&keys_in) + chunk;
}

/// Word k of the value runs (sort_scratch.wgsl's): `scratch_values`.
fn load_run_value(k: u32) -> u32 { return scratch_values[k]; }
fn store_run_value(k: u32, value: u32) { scratch_values[k] = value; }

/// Value i of the input (0 without PAIRS).
fn value_in(i: u32) -> u32 {
    if PAIRS {
        return values_in[i];
    }
    return 0u;
}

/// The element whose pair goes to slot x of the round whose first lane is
/// `first_lane`, or 0xffffffff where the slot is past its segment or past
/// every group (`lanes`: the workgroup's).
fn slot_source(x: u32, first_lane: u32, lanes: u32) -> u32 {
    let lane = first_lane + x / GRAIN;
    if lane >= lanes {
        return 0xffffffffu;
    }
    let s = lane_segment[lane];
    let place = short_place[s];
    let j = (lane - ((place >> 8u) & 0xffffu)) * GRAIN + x % GRAIN;
    if j >= (place & 0xffu) {
        return 0xffffffffu;
    }
    return short_first[s] + j;
}

/// Each slot's pair of the round (keys, or values where `values`) into
/// `stage`, the largest where `sources` has none, and lane p's GRAIN pairs
/// back (every thread calls it, in uniform control flow).
fn stage_in(t: u32, p: u32, sources: array<u32, STAGE / BLOCK>, values: bool) -> array<u32, GRAIN> {
    for (var i = 0u; i < STAGE / BLOCK; i++) {
        let source = sources[i];
        var word = 0xffffffffu;
        if source != 0xffffffffu {
            if values {
                word = values_in[source];
            } else {
                word = encode_key(keys_in[source]);
            }
        }
        stage[padded(t + BLOCK * i)] = word;
    }
    workgroupBarrier();
    var mine: array<u32, GRAIN>;
    if p < ROUND {
        for (var r = 0u; r < GRAIN; r++) {
            mine[r] = stage[padded(p * GRAIN + r)];
        }
    }
    workgroupBarrier();
    return mine;
}

/// Lane p's GRAIN pairs (keys, or values where `values`) through `stage`
/// to their elements (every thread calls it, in uniform control flow).
fn stage_out(t: u32, p: u32, sources: array<u32, STAGE / BLOCK>, mine: array<u32, GRAIN>, values: bool) {
    if p < ROUND {
        for (var r = 0u; r < GRAIN; r++) {
            stage[padded(p * GRAIN + r)] = mine[r];
        }
    }
    workgroupBarrier();
    for (var i = 0u; i < STAGE / BLOCK; i++) {
        let source = sources[i];
        if source != 0xffffffffu {
            let word = stage[padded(t + BLOCK * i)];
            if values {
                values_out[source] = word;
            } else {
                keys_out[source] = decode_key(word);
            }
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(BLOCK)
fn sort_short(@builtin(local_invocation_index) t: u32, @builtin(subgroup_id) subgroup: u32,
              @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32,
              @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let first_segment = (wid.x + wid.y * nwg.x) * SHORT_SEGS;
    let segments = segment_count();
    if t < 8u {
        atomicStore(&width_lanes[t], 0u);
    }
    workgroupBarrier();
    // Thread t < SHORT_SEGS: segment first_segment + t, its group's width
    // (log2 of its lanes) and place among the groups of that width.
    var seg = vec2<u32>(0u, 0u);
    var log2_lanes = 0u;
    var within = 0u;
    let mine = t < SHORT_SEGS && first_segment + t < segments;
    if mine {
        seg = bounds(first_segment + t);
        note_length(seg.y - seg.x);
    }
    let length = seg.y - seg.x;
    let is_short = mine && length > 0u && length <= SHORT_LIMIT;
    if is_short {
        // log2 of the lanes: of ceil(length / GRAIN) rounded up to a power of two.
        log2_lanes = firstLeadingBit(max((length + GRAIN - 1u) / GRAIN, 1u) * 2u - 1u);
        within = atomicAdd(&width_lanes[log2_lanes], 1u << log2_lanes);
    }
    workgroupBarrier();
    // The groups widest first: every group's first lane a multiple of its
    // lanes.
    if t == 0u {
        var total = 0u;
        for (var i = 0u; i < 8u; i++) {
            let w = 7u - i;
            let lanes = atomicLoad(&width_lanes[w]);
            atomicStore(&width_lanes[w], total);
            total += lanes;
        }
        short_lanes = total;
    }
    let lanes = workgroupUniformLoad(&short_lanes);
    if lanes == 0u {
        return;
    }
    if is_short {
        let first_lane = atomicLoad(&width_lanes[log2_lanes]) + within;
        short_first[t] = seg.x;
        short_place[t] = length | (first_lane << 8u) | (log2_lanes << 24u);
        for (var i = 0u; i < 1u << log2_lanes; i++) {
            lane_segment[first_lane + i] = t;
        }
    }
    workgroupBarrier();
    let p = subgroup * size + lane;
    for (var first_lane = 0u; first_lane < lanes; first_lane += ROUND) {
        // Lane first_lane + p: its group's lanes and its place in it.
        var group_lanes = 1u;
        var q = 0u;
        let holds = p < ROUND && first_lane + p < lanes;
        if holds {
            let place = short_place[lane_segment[first_lane + p]];
            group_lanes = 1u << (place >> 24u);
            q = first_lane + p - ((place >> 8u) & 0xffffu);
        }
        var sources: array<u32, STAGE / BLOCK>;
        for (var i = 0u; i < STAGE / BLOCK; i++) {
            sources[i] = slot_source(t + BLOCK * i, first_lane, lanes);
        }
        var g = Grains(stage_in(t, p, sources, false), array<u32, GRAIN>());
        // Without values every value is 0: equal keys are equal pairs.
        if PAIRS {
            g.values = stage_in(t, p, sources, true);
        }
        if subgroup_sorts(holds) {
            g = sort_segment_grains(q, group_lanes, subgroup_widest(select(0u, group_lanes, holds)), g);
        }
        stage_out(t, p, sources, g.keys, false);
        if PAIRS {
            stage_out(t, p, sources, g.values, true);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn sort_chunk(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    // Workgroup g takes chunks g, g + G, ... (G workgroups): where no
    // segment is long, a call costs G reads of a word, not a workgroup per
    // chunk.
    let groups = nwg.x * nwg.y;
    if !any_long(t) {
        return;
    }
    for (var chunk = wid.x + wid.y * nwg.x; chunk * CHUNK < n; chunk += groups) {
        sort_one_chunk(t, chunk, n);
    }
}

/// The segments that may hold elements first..=last, as lo..hi: the two
/// binary searches of the offsets side by side (threads 0 and 1; every
/// thread of the workgroup calls it, in uniform control flow).
fn chunk_segment_range(t: u32, first: u32, last: u32) -> vec2<u32> {
    let segments = segment_count();
    if t < 2u {
        chunk_segments[t] = segment_of_index(select(first, last, t == 1u), segments);
    }
    workgroupBarrier();
    return vec2<u32>(chunk_segments[0], min(chunk_segments[1] + 1u, segments));
}

/// sort_chunk's work on one chunk (every thread of the workgroup calls it,
/// in uniform control flow).
fn sort_one_chunk(t: u32, chunk: u32, n: u32) {
    let first = chunk * CHUNK;
    let last = min(first + CHUNK, n) - 1u;
    let range = chunk_segment_range(t, first, last);
    let lo = range.x;
    let hi = range.y;
    var mine = false;
    for (var s = lo + t; s < hi; s += BLOCK) {
        let seg = bounds(s);
        mine = mine || (seg.y - seg.x > SHORT_LIMIT && seg.x <= last && seg.y > first);
    }
    if !workgroup_any(t, mine) {
        if t == 0u {
            scratch[chunk_flag_index(chunk)] = 0u;
        }
        return;
    }
    // Positions first + t + BLOCK k, their segments (cut to the chunk for
    // the merges), elements past n or outside long segments alone.
    var segs: array<vec2<u32>, PER_THREAD>;
    var is_long: array<bool, PER_THREAD>;
    var unfinished = 0u;
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        var seg = vec2<u32>(p, p + 1u);
        if p < n {
            seg = segment_of(p, lo, hi);
        }
        is_long[k] = seg.y - seg.x > SHORT_LIMIT;
        if !is_long[k] {
            seg = vec2<u32>(p, p + 1u);
        } else if !inside_run(seg, CHUNK) {
            unfinished = 1u;
        }
        segs[k] = seg;
        var key = 0xffffffffu;
        var value = 0xffffffffu;
        if p < n {
            key = encode_key(keys_in[p]);
            value = value_in(p);
        }
        merge_keys[t + BLOCK * k] = key;
        merge_values[t + BLOCK * k] = value;
    }
    workgroupBarrier();
    for (var w = 1u; w < CHUNK; w *= 2u) {
        var dests: array<u32, PER_THREAD>;
        var keys: array<u32, PER_THREAD>;
        var values: array<u32, PER_THREAD>;
        for (var k = 0u; k < PER_THREAD; k++) {
            let p = first + t + BLOCK * k;
            let key = merge_keys[t + BLOCK * k];
            let value = merge_values[t + BLOCK * k];
            let seg = vec2<u32>(max(segs[k].x, first), min(segs[k].y, first + CHUNK));
            let partner = partner_run(p, seg, w);
            let upper = ((p / w) & 1u) == 1u;
            var a = partner.x;
            var b = partner.y;
            while a < b {
                let mid = (a + b) / 2u;
                let mk = merge_keys[mid - first];
                let mv = merge_values[mid - first];
                if select(less(mk, mv, key, value), !less(key, value, mk, mv), upper) {
                    a = mid + 1u;
                } else {
                    b = mid;
                }
            }
            dests[k] = merge_target(p, seg, w, a - partner.x) - first;
            keys[k] = key;
            values[k] = value;
        }
        workgroupBarrier();
        for (var k = 0u; k < PER_THREAD; k++) {
            merge_keys[dests[k]] = keys[k];
            merge_values[dests[k]] = values[k];
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        if p < n && is_long[k] {
            let key = merge_keys[t + BLOCK * k];
            let value = merge_values[t + BLOCK * k];
            if inside_run(segs[k], CHUNK) {
                store_out(p, key, value);
            } else {
                store_run(0u, p, key, value);
            }
        }
    }
    let any_unfinished = workgroup_any(t, unfinished != 0u);
    if t == 0u {
        scratch[chunk_flag_index(chunk)] = select(0u, 1u, any_unfinished);
    }
}

/// The last segment s with offsets[s] <= i (0 when none), of all segments.
fn segment_of_index(i: u32, segments: u32) -> u32 {
    return max(offsets_after(i, 0u, segments), 1u) - 1u;
}

/// The first s in lo..hi with offsets[s] > i (hi when none): a binary
/// search, log2(hi - lo) + 1 reads.
fn offsets_after(i: u32, lo: u32, hi: u32) -> u32 {
    var a = lo;
    var b = hi;
    while a < b {
        let mid = (a + b) / 2u;
        if offsets[mid] <= i {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    return a;
}

@compute @workgroup_size(BLOCK)
fn merge_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    // Workgroup g takes chunks g, g + G, ... (G workgroups): a pass whose
    // chunks have no unfinished segment costs G flag reads, not a
    // workgroup per chunk.
    let groups = nwg.x * nwg.y;
    if !any_long(t) {
        return;
    }
    for (var chunk = wid.x + wid.y * nwg.x; chunk * CHUNK < n; chunk += groups) {
        merge_chunk(t, chunk, n);
    }
}

/// Whether the chunk's flag says it holds unfinished segments, as thread 0
/// read it (every thread calls it, in uniform control flow: merge_chunk
/// has barriers).
fn chunk_unfinished(t: u32, chunk: u32) -> bool {
    if t == 0u {
        flag_seen = scratch[chunk_flag_index(chunk)];
    }
    return workgroupUniformLoad(&flag_seen) != 0u;
}

/// merge_pass's work on one chunk, none where its flag says it has no
/// unfinished segment (every thread of the workgroup calls it, in uniform
/// control flow): each element of a segment that spans runs of
/// w = CHUNK · 4^p (counted from the start of the segment's first chunk,
/// cut at its ends) finds its place among the other three runs of its group
/// of four (a binary search each: the earlier runs' equal pairs go first),
/// and goes to the outputs where the segment lies inside the group's run of
/// 4w, else to the other scratch run. The chunk's flag is cleared where none
/// of its elements is left unfinished, so later passes skip it.
fn merge_chunk(t: u32, chunk: u32, n: u32) {
    if !chunk_unfinished(t, chunk) {
        return;
    }
    let first = chunk * CHUNK;
    let last = min(first + CHUNK, n) - 1u;
    let index = arrayLength(&pass_info) - 1u;
    let w = CHUNK << (2u * index);
    let src = index & 1u;
    let range = chunk_segment_range(t, first, last);
    var unfinished = false;
    for (var k = 0u; k < PER_THREAD; k++) {
        let i = first + t + BLOCK * k;
        if i >= n {
            break;
        }
        let seg = segment_of(i, range.x, range.y);
        // Runs counted from the start of the segment's first chunk: a
        // segment over m chunks is done after ceil(log4(m)) passes, wherever
        // it lies.
        let base = seg.x - seg.x % CHUNK;
        let span = seg.y - 1u - base;
        if seg.y - seg.x <= SHORT_LIMIT || span < w {
            continue;
        }
        let key = run_key(src, i);
        let value = run_value(src, i);
        let own = (i - base) / w;
        let group = own & ~3u;
        var dest = max(base + group * w, seg.x) + (i - max(base + own * w, seg.x));
        for (var j = group; j < group + 4u; j++) {
            // Runs past the segment's end are empty.
            if j == own || j > span / w {
                continue;
            }
            let start = max(base + j * w, seg.x);
            var a = start;
            var b = min(base + j * w + w, seg.y);
            while a < b {
                let mid = (a + b) / 2u;
                let mk = run_key(src, mid);
                let mv = run_value(src, mid);
                if select(less(mk, mv, key, value), !less(key, value, mk, mv), j < own) {
                    a = mid + 1u;
                } else {
                    b = mid;
                }
            }
            dest += a - start;
        }
        if span < 4u * w {
            store_out(dest, key, value);
        } else {
            store_run(1u - src, dest, key, value);
            unfinished = true;
        }
    }
    let any_unfinished = workgroup_any(t, unfinished);
    if t == 0u && !any_unfinished {
        scratch[chunk_flag_index(chunk)] = 0u;
    }
}
