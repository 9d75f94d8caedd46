// Device-wide top-k of 32-bit keys, alone or with u32 values
// (wavekit::device::TopK, as CUB's DeviceTopK): the k least (or, LARGEST,
// greatest) of n keys, ties broken by the lower index, written sorted
// (least first, or greatest first); or of each of `rows` rows of n keys
// (batched: row r is keys r n .. (r + 1) n, its k written at r k), every
// row with its own state, candidates and workgroups (y of the grid for
// count and compact; the linear workgroup index for find and sort_out).
//
// Radix select on the 64-bit composite (s, i) of each key: s its ordered
// bits (encode_key of key_order.wgsl, all bits flipped for LARGEST, so that
// the wanted keys are always the least s), i its index. Every composite is
// distinct, so exactly k composites are at most the k-th least, which 8
// rounds of 8-bit digits (4 of s, then 4 of i) find, most significant
// first:
//   count (G workgroups, grid-stride), round d = arrayLength(&pass_info) -
//     1: each key whose top d digits equal the prefix found so far adds 1
//     to the bin of its digit d, in a workgroup histogram, then added to
//     the state's 256 bins.
//   find (1 workgroup): the bin b where the bins' running count reaches
//     the number still wanted (k in round 0); the prefix gains b, the
//     number wanted loses the keys of the bins below, and the bins are
//     zeroed. When bin b holds exactly the number wanted, every key of the
//     prefix is taken: `done` = d + 1, and later rounds return at once
//     (distinct keys: after at most 4 rounds; index digits only for ties at
//     the k-th key).
//   compact (G workgroups a row, grid-stride): each key whose top `done` digits
//     are at most the prefix is one of the k: its (s, i) goes to the next
//     candidate slot (an atomic counter; any order).
//   sort_out (1 workgroup a row): the k candidates sorted by (s, i) in
//     workgroup memory (bitonic over k rounded up to a power of two, at
//     most K_MAX slots), then key and value of each read from the inputs
//     at its index and written in that order.
// Parameters (set by name by the host): KEY_ORDER, LARGEST, PAIRS.
// Bindings: 0 keys_in (rows n), 1 values_in (rows n; any 4 bytes without
//   PAIRS), 2 keys_out (rows k), 3 values_out (rows k; any 4 bytes without
//   PAIRS), 4 state (per row STATE_WORDS: 256 bins, then prefix s, prefix
//   i, wanted, done, counter; zeroed before round 0: rows = its length /
//   STATE_WORDS), 5 candidates (2 k words a row: k = its length / 2 rows),
//   6 pass_info (d + 1 words, not read).
// Append: key_order.wgsl (encode_key, decode_key).

const KEY_ORDER = 0u;
const LARGEST = false;
const PAIRS = false;

const BLOCK = 256u;
const RADIX = 256u;
// The most candidates sort_out sorts (k at most this).
const K_MAX = 1024u;
const PREFIX_S = 256u;
const PREFIX_I = 257u;
const WANTED = 258u;
const DONE = 259u;
const COUNTER = 260u;
const STATE_WORDS = 261u;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> candidates: array<u32>;
@group(0) @binding(6) var<storage, read_write> pass_info: array<u32>;

var<workgroup> local_bins: array<atomic<u32>, RADIX>;
var<workgroup> scan: array<u32, RADIX>;
var<workgroup> shared_done: u32;
var<workgroup> sort_s: array<u32, K_MAX>;
var<workgroup> sort_i: array<u32, K_MAX>;

fn rows() -> u32 {
    return arrayLength(&state) / STATE_WORDS;
}

/// Keys a row.
fn row_length() -> u32 {
    return arrayLength(&keys_in) / rows();
}

/// Keys taken from a row.
fn k_of_row() -> u32 {
    return arrayLength(&candidates) / (2u * rows());
}

/// The ordered bits of key i of the inputs: the wanted keys have the least.
fn ordered(i: u32) -> u32 {
    let s = encode_key(keys_in[i]);
    return select(s, ~s, LARGEST);
}

/// The top `bits` (0..32) of x.
fn top(x: u32, bits: u32) -> u32 {
    if bits == 0u {
        return 0u;
    }
    return x >> (32u - bits);
}

/// Composite (s, i)'s top `bits` (0..64) compared with the prefix (s, i)
/// of a row: -1 below, 0 equal, 1 above.
fn compare_top(s: u32, i: u32, bits: u32, prefix: vec2<u32>) -> i32 {
    let bs = min(bits, 32u);
    let bi = bits - bs;
    let a = top(s, bs);
    let b = top(prefix.x, bs);
    if a != b {
        return select(1, -1, a < b);
    }
    let c = top(i, bi);
    let d = top(prefix.y, bi);
    if c != d {
        return select(1, -1, c < d);
    }
    return 0;
}

fn prefix_of(base: u32) -> vec2<u32> {
    return vec2<u32>(atomicLoad(&state[base + PREFIX_S]), atomicLoad(&state[base + PREFIX_I]));
}

/// Digit d (0..8) of composite (s, i).
fn digit(s: u32, i: u32, d: u32) -> u32 {
    let x = select(i, s, d < 4u);
    return (x >> (24u - 8u * (d & 3u))) & 0xffu;
}

/// Whether the row whose state starts at `base` is done (uniform: every
/// thread of the workgroup calls it).
fn row_done(t: u32, base: u32) -> bool {
    if t == 0u {
        shared_done = atomicLoad(&state[base + DONE]);
    }
    return workgroupUniformLoad(&shared_done) != 0u;
}

@compute @workgroup_size(BLOCK)
fn count(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = wid.y;
    let base = row * STATE_WORDS;
    if row_done(t, base) {
        return;
    }
    let d = arrayLength(&pass_info) - 1u;
    let n = row_length();
    let first = row * n;
    let prefix = prefix_of(base);
    let stride = nwg.x * BLOCK;
    for (var j = wid.x * BLOCK + t; j < n; j += stride) {
        let s = ordered(first + j);
        if compare_top(s, j, 8u * d, prefix) == 0 {
            atomicAdd(&local_bins[digit(s, j, d)], 1u);
        }
    }
    workgroupBarrier();
    let mine = atomicLoad(&local_bins[t]);
    if mine != 0u {
        atomicAdd(&state[base + t], mine);
    }
}

@compute @workgroup_size(RADIX)
fn find(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = wid.x + wid.y * nwg.x;
    if row >= rows() {
        return;
    }
    let base = row * STATE_WORDS;
    if row_done(t, base) {
        return;
    }
    let d = arrayLength(&pass_info) - 1u;
    let wanted = select(atomicLoad(&state[base + WANTED]), k_of_row(), d == 0u);
    let h = atomicLoad(&state[base + t]);
    // Inclusive running count of the bins (Hillis-Steele).
    scan[t] = h;
    workgroupBarrier();
    for (var offset = 1u; offset < RADIX; offset *= 2u) {
        var add = 0u;
        if t >= offset {
            add = scan[t - offset];
        }
        workgroupBarrier();
        scan[t] += add;
        workgroupBarrier();
    }
    let below = scan[t] - h;
    if h != 0u && below < wanted && wanted <= below + h {
        let shift = 24u - 8u * (d & 3u);
        if d < 4u {
            atomicOr(&state[base + PREFIX_S], t << shift);
        } else {
            atomicOr(&state[base + PREFIX_I], t << shift);
        }
        let left = wanted - below;
        atomicStore(&state[base + WANTED], left);
        if h == left {
            atomicStore(&state[base + DONE], d + 1u);
        }
    }
    atomicStore(&state[base + t], 0u);
}

@compute @workgroup_size(BLOCK)
fn compact(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = wid.y;
    let base = row * STATE_WORDS;
    let n = row_length();
    let k = k_of_row();
    let first = row * n;
    let prefix = prefix_of(base);
    let bits = 8u * atomicLoad(&state[base + DONE]);
    let stride = nwg.x * BLOCK;
    for (var j = wid.x * BLOCK + t; j < n; j += stride) {
        let s = ordered(first + j);
        if compare_top(s, j, bits, prefix) <= 0 {
            let slot = atomicAdd(&state[base + COUNTER], 1u);
            if slot < k {
                candidates[2u * (row * k + slot)] = s;
                candidates[2u * (row * k + slot) + 1u] = j;
            }
        }
    }
}

@compute @workgroup_size(BLOCK)
fn sort_out(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
            @builtin(num_workgroups) nwg: vec3<u32>) {
    let row = wid.x + wid.y * nwg.x;
    if row >= rows() {
        return;
    }
    let k = k_of_row();
    let at = row * k;
    // The candidates padded to a power of two (at least 2) with the
    // greatest composite.
    let width = max(1u << (32u - countLeadingZeros(k - 1u)), 2u);
    for (var j = t; j < width; j += BLOCK) {
        var s = 0xffffffffu;
        var i = 0xffffffffu;
        if j < k {
            s = candidates[2u * (at + j)];
            i = candidates[2u * (at + j) + 1u];
        }
        sort_s[j] = s;
        sort_i[j] = i;
    }
    workgroupBarrier();
    // Bitonic sort of the width (s, i) ascending; each thread compares
    // width / 2 / BLOCK pairs (or none) a step.
    for (var size = 2u; size <= width; size *= 2u) {
        for (var stride = size / 2u; stride > 0u; stride /= 2u) {
            for (var q = t; q < width / 2u; q += BLOCK) {
                let a = 2u * q - (q & (stride - 1u));
                let b = a + stride;
                let up = (a & size) == 0u;
                let sa = sort_s[a];
                let ia = sort_i[a];
                let sb = sort_s[b];
                let ib = sort_i[b];
                let a_greater = sa > sb || (sa == sb && ia > ib);
                if a_greater == up {
                    sort_s[a] = sb;
                    sort_i[a] = ib;
                    sort_s[b] = sa;
                    sort_i[b] = ia;
                }
            }
            workgroupBarrier();
        }
    }
    let first = row * row_length();
    for (var j = t; j < k; j += BLOCK) {
        let i = first + sort_i[j];
        keys_out[at + j] = keys_in[i];
        if PAIRS {
            values_out[at + j] = values_in[i];
        }
    }
}
