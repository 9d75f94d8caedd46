// LSD radix sort of u32 keys (and u32 values), OneSweep-style: one read of
// the keys for all four digit histograms, then one kernel per 8-bit pass
// that ranks a tile, finds where its digits go by decoupled look-back over
// the earlier tiles' per-digit counts, and scatters: 1 read and 1 write of
// the keys per pass (and one read for the histograms) instead of
// reduce-then-scan's 2 reads and 1 write.
//
// Entry points (the host composes the file with the constants as described
// at their declarations: with RUNTIME_PASS once, one module serving every
// pass, which a pass finds at run time from the length the host binds
// pass_info with; without it once per pass, `const PASS` set to 0..3):
//   histogram (grid of H <= 65535 workgroups in x): workgroup w counts the
//     four digits of the keys of its span of tiles in workgroup atomics and
//     adds the counts into digits[pass * 256 + digit]; the grid also zeroes
//     tile_state and tile_counter.
//   digit_offsets (1 workgroup): digits[pass * 256 + d] becomes the
//     exclusive prefix sum over d of the pass's counts (a block exclusive
//     scan per pass): where the keys with digit d start in the output.
//   onesweep (one workgroup per tile, in x then y), pass p = pass_index():
//     takes the next tile index from tile_counter[p] (so every earlier tile
//     belongs to a workgroup that already runs: the look-back's forward
//     progress needs no more than that running workgroups keep running),
//     loads the tile,
//     counts its digits and publishes the counts,
//     ranks it, looks back, scatters.
//
// Tile layout: TILE = BLOCK * ITEMS keys; subgroup g of S lanes owns the
//   ITEMS * S consecutive keys from tile * TILE + g * ITEMS * S, item s of
//   lane l being key s * S + l of them. So keys are ordered by (subgroup,
//   item, lane), the order in which the rank visits them.
// Rank, with the tile's counts first (as CUB's
//   BlockRadixRankMatchEarlyCounts): each key adds 1 to its digit's counter
//   in its subgroup's row of workgroup counters (u16 pairs, two digits per
//   word, so that 256 / S rows fit in workgroup memory at small S). After a
//   barrier, thread t < 128 owns digits 2t and 2t + 1: it sums their column
//   and publishes the tile's count of each to tile_state[tile * 256 + d],
//   tagged AGGREGATE (tile 0: PREFIX), before any key is ranked, so later
//   tiles looking back wait only for this histogram; one
//   `blk::exclusive_add` over the digit pairs gives each digit's first
//   position in the tile, and the column becomes each subgroup's first
//   position of the digit. Then per item, the lanes with the same digit
//   (their peers) are found with 8 `sg::ballot`s, one per digit bit (on
//   CUDA as CUB's MatchAny writes them: PEERS); one
//   peer (the highest with subgroups of up to 32 lanes, as CUB's rank; else
//   the lowest) adds the number of peers to its subgroup's counter of that
//   digit (atomicAdd returns where they go in the tile) and `sg::shuffle`
//   hands it to its peers; a key's tile position is that plus its peers in
//   lower lanes (`sg::lanemask_lt`).
// Look-back with decoupled fallback (the protocol of look_back.wgsl, per
//   digit): thread d (for each d in steps of BLOCK) walks back over the
//   earlier tiles' words of digit d, summing aggregates until it meets a
//   PREFIX, and publishes its inclusive prefix as PREFIX. A walk waits at
//   most SPINS reads on an unpublished word; then the workgroup takes the
//   nearest tile any walk waits on, counts that tile's digits itself from
//   its keys (the fallback: a histogram in counters' first row, free once
//   the rank is done), installs the counts it finds missing
//   (compare-and-swap from the stale word), and the walks waiting there
//   go on before it. So no tile waits for another workgroup to be
//   scheduled: the sort needs no forward-progress guarantee. Without
//   FALLBACK (the host's choice where started workgroups keep running)
//   each digit runs `plain_look_back`, the walk as it was before the
//   fallback, which measured faster (docs/benchmarks/2026-11-26a).
//   A word is TAG << 30 | count. One tile_state, zeroed once, serves all
//   four passes: even passes tag AGGREGATE 1 and PREFIX 2, odd passes 3
//   and 0, and every other tag reads as "not yet". Before tile k publishes
//   in pass p, its word holds the zero of the initial state (p = 0) or
//   pass p - 1's PREFIX, never a tag of pass p.
// Scatter: each key goes to its position in the tile's output order in a
//   workgroup array, then thread t writes positions t, t + BLOCK, ... to
//   their digit's base + position, so neighbouring threads write runs of
//   equal digits to neighbouring addresses (values follow through the same
//   array).
// Bindings: 0 keys_in (n u32), 1 keys_out (n u32), 2 values_in, 3 values_out
//   (n u32 each when PAIRS; any 4-byte buffers otherwise), 4 digits
//   (4 * 256 u32, zeroed before `histogram`), 5 tile_state (tiles * 256 u32),
//   6 tile_counter (4 u32), 7 pass_info (p + 1 u32 for pass p, never read:
//   with RUNTIME_PASS its length is the pass number; `histogram` and
//   `digit_offsets` take any).
// Contract: subgroups of consecutive local_invocation_index values, size
//   4..128, BLOCK / S <= SUBGROUPS; n < 2^30.
// Bounds (why a host may build these kernels without bounds checks, as
//   wavekit::device does on CUDA): with the bindings sized as above, every
//   index is in range by construction. Keys, values: read at i < n, written
//   at a digit base + tile position, which is below n because the digit
//   offsets are the exclusive prefix of the histograms of the same keys.
//   bins, digits, tile_count, tile_first, digit_base: a pass index < 4
//   (pass_index(): PASS, or the host binds at most 4 words of pass_info)
//   times 256 plus a digit < 256. counters: subgroup < BLOCK / S <=
//   SUBGROUPS rows of ROW; the fallback's row at FALLBACK_ROW plus a word
//   < ROW; with STAGE_IN_COUNTERS staged positions (below) < PART <=
//   COUNTER_WORDS - ROW. tile_state: tile < ceil(n / TILE) (the grid's
//   extra workgroups return first) times 256 plus a digit. staged: the rank
//   of a key of the tile (below TILE; keys past n too with STAGE_PAST_END)
//   less its part's first position, below PART (the part's test; with one
//   part PART is TILE).
// Workgroup memory (why a host may also skip zeroing it, as the demos'
//   own steps do through wgpu): every entry writes each
//   workgroup word before reading it. histogram: bins zeroed, then a
//   barrier. onesweep: tile_slot and stalled_any written by thread 0
//   before the uniform load (stalled_any is reset by thread 0 each time it
//   is read, between barriers; stalled_tile written before its uniform
//   load); counters zeroed before that load's barrier; tile_count and
//   tile_first written for all 256 digits (threads < 128, two each) and
//   digit_base for all of them (d in steps of BLOCK) before the barriers
//   that precede their reads; staged written at the ranks of the tile's
//   keys in the part (less its first position), which include all the
//   part's positions below tile_keys, the positions read. blk's
//   exclusive_add (digit_offsets, onesweep) reads only the partials of
//   lower subgroups, which those wrote before its barrier.
// Cost per key and pass: 1 read and 1 write in digit runs (2 of each with
//   PAIRS), 8 ballots, 1 shuffle, 1 + 1/S workgroup atomicAdds, a workgroup
//   store and load; per tile 6 workgroup barriers (8 with PAIRS; 2 more a
//   staged part after the first, twice with PAIRS), a block scan and 256
//   look-back walks; plus 1 read and 4 workgroup atomicAdds per key for
//   the four histograms, once. Workgroup memory: SUBGROUPS * 512 +
//   PART * 4 + 3 KiB, or with STAGE_IN_COUNTERS max(SUBGROUPS * 512,
//   PART * 4 + 512) + 3 KiB (and a barrier more).
// Append: key_order.wgsl (encode_key, decode_key).
#import wavekit::subgroup as sg
#import wavekit::block as blk

// Where a pass finds its number (`pass_index`): true, at run time, from
// pass_info's length (one module for every pass: lavapipe compiles the
// pass kernel once, not 4 or 8 times); false, the constant PASS (one module
// per pass: on CUDA the runtime pass number made the keys-only pass 46 %
// slower at 2^26, H100, docs/benchmarks/2026-11-27j).
const RUNTIME_PASS = true;
const PASS = 0u;
// The bits sorted: BEGIN_BIT..END_BIT of the (encoded) keys, 8 a pass from
// BEGIN_BIT; the last pass's digit may be narrower (pass_bits).
const BEGIN_BIT = 0u;
const END_BIT = 32u;
// Key order (see encode_key in key_order.wgsl): 0 u32, 1 i32, 2 f32. The first pass
// encodes the keys it reads, the last decodes those it writes; with u32
// keys both are the identity.
const KEY_ORDER = 0u;
const PAIRS = false;
// Threads per workgroup: 512, 256 or 128 (the host's choice by subgroup
// size and limits: 256 / 4 subgroups' u16 counter rows would take 32 KiB).
const BLOCK = 256u;
// Rows of subgroup counters: BLOCK / the smallest subgroup size.
const SUBGROUPS = 8u;
// Keys per thread and tile.
const ITEMS = 8u;
// Spin on tile_state with atomicOr(x, 0) rather than atomicLoad: a slower
// round spends lavapipe's loop budget more slowly (scan.wgsl); GPUs pay for
// the RMW.
const SPIN_WITH_RMW = true;
// false: spin on a predecessor without bound (Merrill & Garland), the
// host's choice where started workgroups keep running (look_back.wgsl);
// STALL_EVERY: tiles k with k % STALL_EVERY == 0 never publish
// (look_back.wgsl's debugging switch).
const FALLBACK = true;
const STALL_EVERY = 0u;
// Reads a walk waits on an unpublished word before the fallback.
const SPINS = 64u;
// Digits per thread.
const WALKS = (RADIX + BLOCK - 1u) / BLOCK;
// Subgroups of at most 32 lanes: ballots fit their first word.
const NARROW = false;
// How a NARROW rank finds a key's peers (the lanes with its digit): 0,
// eight `sg::ballot`s, one per digit bit; 1, one `sg::match_any` (one
// `match.any.sync` on CUDA, a ballot loop elsewhere); 2, `wk_sg_match_bits8`
// (the eight ballots, as CUB's MatchAny writes them on CUDA).
const PEERS = 0u;
// Full-word counters: a row of 256 words per subgroup instead of 128
// words of two u16 halves, which saves the halves' shifts and masks
// where workgroup memory allows (SUBGROUPS * 1 KiB).
const WIDE_COUNTERS = false;
// Stage the tile in the counters' workgroup memory, which the rank no
// longer needs once the keys are staged (a barrier between the two), so
// that a workgroup takes up to SUBGROUPS * ROW * 4 bytes less than the two
// apart: NVIDIA's Vulkan driver gives the workgroups of an SM about 50-60
// KiB of workgroup memory, so that 512 x 6 tiles ran two workgroups an SM
// apart and three staged, 512 x 10 two staged
// (docs/benchmarks/2026-11-27t-h100-vulkan-onesweep-occupancy).
const STAGE_IN_COUNTERS = false;
// The staged tile's parts: the tile is staged and written out a part at a
// time, positions [p * PART, (p + 1) * PART) in part p, each with two
// barriers more, so that a workgroup keeps PART words of staged keys
// rather than TILE: through Vulkan more keys a workgroup at the same
// workgroups an SM. ITEMS is a multiple of it.
const STAGE_PARTS = 1u;
// Use the counting atomicAdds' results (in a test that never passes), so
// that NVIDIA's Vulkan driver does not wrap each in its aggregation of
// non-returning atomics (a MATCH.ALL and a branch a key): the keys' pass
// ran 1-2 % faster through Vulkan on an H100, the pairs' no faster
// (docs/benchmarks/2026-11-27v-vulkan-staged-parts, call 9).
const RETURNING_COUNTS = false;
// Full tiles (every tile but the last) loaded, staged and written without
// a test of each key against n, the tests kept for the last tile only
// (`full`, uniform): through Vulkan on an H200 the keys' sort took 4-6 %
// less time at 2^22-2^26 and the pairs' 1-2 % less. Natively the host
// turns it off: the CUDA JIT gave the keys' pass 89-96 registers instead
// of 64 (one workgroup an SM instead of two), so the sort took 47 %
// longer though the pass ran 12 % fewer instructions; bounded to two
// workgroups an SM, 6-7 % longer (the pairs 9-11 %, also at 384 x 16 and
// 384 x 18; docs/benchmarks/2026-11-28m-h200-full-tiles).
const FULL_TILES = true;
// A pair sort's values loaded once the keys are staged, not with the keys:
// the rank then holds no values, and their loads are in flight while the
// look-back's barrier and the keys' write-out run. Natively this freed
// ITEMS registers, so that 512 x 16 tiles ran at 64 registers, two
// workgroups an SM: through CUDA on an H200 the pairs' sort took 16 % less
// time at 2^26 than 512 x 12 with the values early (CUB's place, after the
// keys' write-out, 2 % more than here; through Vulkan at 512 x 10, 1-4 %
// more than early; docs/benchmarks/2026-11-29r-h200-late-values).
const LATE_VALUES = false;
// Keys past n (in the last tile) staged like the others: the tile's keys
// have distinct ranks below TILE and those past n the last ones, which are
// never read, so staging tests no key against n. Natively the keys' pass
// then took 64 registers at 512 x 15, not 80 (the tests kept each key's
// index live through the rank), and the keys' sort 2 % less time at 2^26
// through CUDA and Vulkan; pairs with their values early were 2 % faster
// with the tests (docs/benchmarks/2026-11-29r-h200-late-values).
const STAGE_PAST_END = !PAIRS || LATE_VALUES;
const TILE = BLOCK * ITEMS;
// Keys per thread and staged part, and words of a staged part.
const PART_ITEMS = ITEMS / STAGE_PARTS;
const PART = BLOCK * PART_ITEMS;
const_assert ITEMS % STAGE_PARTS == 0u;
const RADIX = 256u;
const PAIRS_OF_DIGITS = 128u;
// Words of a subgroup's row of counters.
const ROW = PAIRS_OF_DIGITS * (1u + u32(WIDE_COUNTERS));
// Where the fallback counts a stalled tile's digits: counters' first row,
// or with STAGE_IN_COUNTERS the row after the staged part (the fallback
// runs while the first part is staged).
const FALLBACK_ROW = u32(STAGE_IN_COUNTERS) * PART;
// Words of `counters` and of `staged`: the rows, or with
// STAGE_IN_COUNTERS at least a staged part and the fallback's row after
// it, and `staged` then a single unused word.
const COUNTER_WORDS = max(SUBGROUPS * ROW, u32(STAGE_IN_COUNTERS) * (PART + ROW));
const STAGED_WORDS = PART - u32(STAGE_IN_COUNTERS) * (PART - 1u);
const COUNT_MASK = 0x3fffffffu;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(2) var<storage, read> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> digits: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> tile_counter: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read> pass_info: array<u32>;

var<workgroup> bins: array<atomic<u32>, 1024>;
var<workgroup> tile_slot: u32;
// The look-back's fallback: the nearest tile a walk waits on, plus 1 (0:
// none), and the tile the workgroup counts.
var<workgroup> stalled_any: atomic<u32>;
var<workgroup> stalled_tile: u32;
// Row g: the counts (before the rank) or next tile positions (during it)
// of the digits in subgroup g: word w holds digits 2w (low half) and
// 2w + 1 (high half), or with WIDE_COUNTERS digit w.
// With STAGE_IN_COUNTERS, also the staged tile (`stage`) after the rank.
var<workgroup> counters: array<atomic<u32>, COUNTER_WORDS>;
var<workgroup> tile_count: array<u32, RADIX>;
var<workgroup> tile_first: array<u32, RADIX>;
// Where the keys of digit d go: output position of the tile's first key of
// digit d minus its position in the tile.
var<workgroup> digit_base: array<u32, RADIX>;
// The tile's keys (then values) in their output order (`stage`), unless
// STAGE_IN_COUNTERS.
var<workgroup> staged: array<u32, STAGED_WORDS>;

// Puts `word` at position `at` of the staged tile.
fn stage(at: u32, word: u32) {
    if STAGE_IN_COUNTERS {
        atomicStore(&counters[at], word);
    } else {
        staged[at] = word;
    }
}

// The word at position `at` of the staged tile.
fn staged_at(at: u32) -> u32 {
    if STAGE_IN_COUNTERS {
        return atomicLoad(&counters[at]);
    }
    return staged[at];
}

// The pass this dispatch sorts: pass_info's length less one, or PASS.
fn pass_index() -> u32 {
    if RUNTIME_PASS {
        return arrayLength(&pass_info) - 1u;
    }
    return PASS;
}

// The first bit of this pass's digit.
fn pass_shift() -> u32 {
    return BEGIN_BIT + 8u * pass_index();
}

// Bits of this pass's digit: 8, or fewer in a last pass that ends at
// END_BIT (a constant 8 where the bits are whole digits).
fn pass_bits() -> u32 {
    if (END_BIT - BEGIN_BIT) % 8u == 0u {
        return 8u;
    }
    return min(8u, END_BIT - pass_shift());
}

// Whether this pass reads the caller's keys (and encodes them).
fn pass_first() -> bool {
    return pass_index() == 0u;
}

// Whether this pass writes the result (and decodes the keys).
fn pass_last() -> bool {
    return pass_shift() + 8u >= END_BIT;
}

// The look-back's tags of this pass ("Look-back" above): even passes tag
// AGGREGATE 1 and PREFIX 2, odd passes 3 and 0.
fn aggregate_tag() -> u32 {
    return (1u + 2u * (pass_index() & 1u)) << 30u;
}

fn prefix_tag() -> u32 {
    return (2u - 2u * (pass_index() & 1u)) << 30u;
}

// Key `i` of keys_in, encoded when this pass reads the caller's keys.
fn load_key(i: u32) -> u32 {
    let k = keys_in[i];
    if pass_first() {
        return encode_key(k);
    }
    return k;
}

// `key` as keys_out holds it: decoded when this pass writes the result.
fn store_key(key: u32) -> u32 {
    if pass_last() {
        return decode_key(key);
    }
    return key;
}

// This pass's digit of an (encoded) key.
fn digit_of(key: u32) -> u32 {
    return (key >> pass_shift()) & ((1u << pass_bits()) - 1u);
}

// Pass p's digit of an (encoded) key, for the histograms of every pass.
fn pass_digit(key: u32, p: u32) -> u32 {
    let shift = BEGIN_BIT + 8u * p;
    if shift >= END_BIT {
        return 0u;
    }
    return extractBits(key, shift, min(8u, END_BIT - shift));
}

// The keys [begin, end) of histogram workgroup `w` of `parts`.
fn keys_of_part(w: u32, parts: u32) -> vec2<u32> {
    let n = arrayLength(&keys_in);
    let tiles = (n + TILE - 1u) / TILE;
    let per = (tiles + parts - 1u) / parts;
    let begin = min(w * per, tiles) * TILE;
    let end = min(min((w + 1u) * per, tiles) * TILE, n);
    return vec2<u32>(begin, max(begin, end));
}

@compute @workgroup_size(BLOCK)
fn histogram(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    for (var k = t; k < 4u * RADIX; k += BLOCK) {
        atomicStore(&bins[k], 0u);
    }
    // The look-back's state for the passes, cleared here rather than by a
    // separate fill so that its cost is part of the sort.
    let threads = nwg.x * BLOCK;
    for (var k = wid.x * BLOCK + t; k < arrayLength(&tile_state); k += threads) {
        atomicStore(&tile_state[k], 0u);
    }
    if wid.x == 0u && t < 4u {
        atomicStore(&tile_counter[t], 0u);
    }
    workgroupBarrier();
    let span = keys_of_part(wid.x, nwg.x);
    for (var base = span.x; base < span.y; base += TILE) {
        var keys: array<u32, ITEMS>;
        for (var s = 0u; s < ITEMS; s++) {
            let i = base + s * BLOCK + t;
            if i < span.y {
                keys[s] = encode_key(keys_in[i]);
            }
        }
        for (var s = 0u; s < ITEMS; s++) {
            if base + s * BLOCK + t < span.y {
                let key = keys[s];
                atomicAdd(&bins[pass_digit(key, 0u)], 1u);
                atomicAdd(&bins[RADIX + pass_digit(key, 1u)], 1u);
                atomicAdd(&bins[2u * RADIX + pass_digit(key, 2u)], 1u);
                atomicAdd(&bins[3u * RADIX + pass_digit(key, 3u)], 1u);
            }
        }
    }
    workgroupBarrier();
    for (var k = t; k < 4u * RADIX; k += BLOCK) {
        let count = atomicLoad(&bins[k]);
        if count != 0u {
            atomicAdd(&digits[k], count);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn digit_offsets(@builtin(local_invocation_index) t: u32) {
    for (var p = 0u; p < 4u; p++) {
        var low = 0u;
        var high = 0u;
        let at = p * RADIX + 2u * t;
        if t < PAIRS_OF_DIGITS {
            low = atomicLoad(&digits[at]);
            high = atomicLoad(&digits[at + 1u]);
        }
        let start = blk::exclusive_add<u32, BLOCK>(low + high);
        if t < PAIRS_OF_DIGITS {
            atomicStore(&digits[at], start);
            atomicStore(&digits[at + 1u], start + low);
        }
    }
}

/// Lanes of `mask` below `lane` (lanes 0..127).
fn below(mask: vec4<u32>, lane: u32) -> u32 {
    let word = lane / 32u;
    let whole = countOneBits(mask);
    let earlier = select(0u, whole.x, word > 0u) + select(0u, whole.y, word > 1u)
        + select(0u, whole.z, word > 2u);
    return earlier + countOneBits(mask[word] & sg::lanemask_lt(lane % 32u));
}

/// The lanes (0..31) whose `digit` has bit `b` as this lane's does.
fn same_bit(digit: u32, b: u32) -> u32 {
    let one = extractBits(digit, b, 1u) == 1u;
    let lanes = sg::ballot(one).x;
    return select(~lanes, lanes, one);
}

/// The lanes (0..127) whose `digit` has bit `b` as this lane's does.
fn same_bit_wide(digit: u32, b: u32) -> vec4<u32> {
    let one = extractBits(digit, b, 1u) == 1u;
    let lanes = sg::ballot(one);
    return select(~lanes, lanes, vec4<bool>(one));
}

/// The lowest lane of a non-zero `mask`.
fn lowest(mask: vec4<u32>) -> u32 {
    let bits = firstTrailingBit(mask);
    return select(select(select(96u + bits.w, 64u + bits.z, mask.z != 0u), 32u + bits.y,
                         mask.y != 0u), bits.x, mask.x != 0u);
}

/// The count of `digit` in its counter word `word`.
fn counter_half(word: u32, digit: u32) -> u32 {
    if WIDE_COUNTERS {
        return word;
    }
    return extractBits(word, 16u * (digit & 1u), 16u);
}

/// The counter word of `digit` in row `g`.
fn counter_at(g: u32, digit: u32) -> u32 {
    if WIDE_COUNTERS {
        return g * ROW + digit;
    }
    return g * ROW + digit / 2u;
}

/// `count` placed in `digit`'s part of its counter word.
fn counter_add(digit: u32, count: u32) -> u32 {
    if WIDE_COUNTERS {
        return count;
    }
    return count << (16u * (digit & 1u));
}

/// The lanes (0..31) whose `digit`'s 8 bits equal this lane's: 8 ballots.
/// The native CUDA back end replaces the body by CUB's MatchAny sequence
/// (per bit: and, setp, vote.ballot, @!p not, and; see
/// native/src/nvptx/fused.rs; keep the name and signature). All 32 lanes
/// active.
fn wk_sg_match_bits8(digit: u32) -> u32 {
    return same_bit(digit, 0u) & same_bit(digit, 1u) & same_bit(digit, 2u) & same_bit(digit, 3u)
        & same_bit(digit, 4u) & same_bit(digit, 5u) & same_bit(digit, 6u) & same_bit(digit, 7u);
}

/// Tile `k`'s word of digit `d` as read now.
fn read_state(k: u32, d: u32) -> u32 {
    if SPIN_WITH_RMW {
        return atomicOr(&tile_state[k * RADIX + d], 0u);
    }
    return atomicLoad(&tile_state[k * RADIX + d]);
}

/// Whether tile `tile` never publishes (the STALL_EVERY debugging switch).
fn stalls(tile: u32) -> bool {
    return STALL_EVERY != 0u && tile % max(STALL_EVERY, 1u) == 0u;
}

/// Installs `count`, tile `k`'s count of digit `d` as the fallback found
/// it, unless the tile's own publication is there; returns the word to
/// use: the tile's PREFIX, or `count` tagged AGGREGATE (tile 0: PREFIX).
fn install(k: u32, d: u32, count: u32) -> u32 {
    let mine = select(aggregate_tag(), prefix_tag(), k == 0u) | count;
    let old = atomicLoad(&tile_state[k * RADIX + d]);
    if (old & ~COUNT_MASK) == prefix_tag() {
        return old;
    }
    if (old & ~COUNT_MASK) != aggregate_tag() {
        // The word still holds the initial zero or the last pass's PREFIX.
        let swapped = atomicCompareExchangeWeak(&tile_state[k * RADIX + d], old, mine);
        if !swapped.exchanged && (swapped.old_value & ~COUNT_MASK) == prefix_tag() {
            return swapped.old_value;
        }
    }
    return mine;
}

/// Digit d's exclusive prefix over the earlier tiles of this pass, from
/// their publications, spinning without bound (FALLBACK false); `tile` > 0.
fn plain_look_back(tile: u32, d: u32) -> u32 {
    var prefix = 0u;
    var k = tile - 1u;
    loop {
        let word = read_state(k, d);
        let tag = word & ~COUNT_MASK;
        if tag == prefix_tag() {
            prefix += word & COUNT_MASK;
            break;
        }
        if tag == aggregate_tag() {
            prefix += word & COUNT_MASK;
            k -= 1u;
        }
    }
    return prefix;
}

/// Digit `d`'s walk from `w` = (the sum of tiles [end, tile), end): back
/// over the earlier tiles' words until it meets a PREFIX (then end is 0)
/// or waits SPINS reads on an unpublished word (FALLBACK; then end - 1 is
/// the tile it waits on).
fn walk_digit(d: u32, w: vec2<u32>) -> vec2<u32> {
    var prefix = w.x;
    var end = w.y;
    var spins = 0u;
    while end != 0u {
        let word = read_state(end - 1u, d);
        let tag = word & ~COUNT_MASK;
        if tag == prefix_tag() {
            prefix += word & COUNT_MASK;
            end = 0u;
        } else if tag == aggregate_tag() {
            prefix += word & COUNT_MASK;
            end -= 1u;
            spins = 0u;
        } else {
            spins += 1u;
            if FALLBACK && spins >= SPINS {
                break;
            }
        }
    }
    return vec2<u32>(prefix, end);
}

/// Digit `d`'s exclusive prefix is known: publishes the tile's inclusive
/// prefix (tiles after the first, unless stalled) and sets its output base.
fn finish_digit(tile: u32, d: u32, prefix: u32) {
    if tile > 0u && !stalls(tile) {
        atomicStore(&tile_state[tile * RADIX + d], prefix_tag() | (prefix + tile_count[d]));
    }
    digit_base[d] = atomicLoad(&digits[pass_index() * RADIX + d]) + prefix - tile_first[d];
}

/// Walks digit `d` on from `w` and finishes it, or records the tile it
/// waits on in stalled_any; returns the walk.
fn walk_and_finish(tile: u32, d: u32, w: vec2<u32>) -> vec2<u32> {
    let walked = walk_digit(d, w);
    if walked.y == 0u {
        finish_digit(tile, d, walked.x);
    } else {
        atomicMax(&stalled_any, walked.y);
    }
    return walked;
}

/// The cold path of the look-back, reached by the whole workgroup when a
/// walk stalled ("Look-back" above): until no walk waits, the workgroup
/// counts the digits of the nearest tile a walk waits on in counters'
/// first row, installs them, and every unfinished walk goes on. `walks`
/// holds each of the thread's digits' (prefix, end).
fn fall_back(tile: u32, t: u32, walks: ptr<function, array<vec2<u32>, WALKS>>) {
    loop {
        let stalled = workgroupUniformLoad(&stalled_tile);
        if stalled == 0u {
            break;
        }
        let k = stalled - 1u;
        for (var w = t; w < ROW; w += BLOCK) {
            atomicStore(&counters[FALLBACK_ROW + w], 0u);
        }
        workgroupBarrier();
        let n = arrayLength(&keys_in);
        for (var s = 0u; s < ITEMS; s++) {
            let i = k * TILE + s * BLOCK + t;
            if i < n {
                let digit = digit_of(load_key(i));
                atomicAdd(&counters[FALLBACK_ROW + counter_at(0u, digit)], counter_add(digit, 1u));
            }
        }
        workgroupBarrier();
        for (var i = 0u; i < WALKS; i++) {
            let d = t + i * BLOCK;
            var w = (*walks)[i];
            if d >= RADIX || w.y == 0u {
                continue;
            }
            if w.y == stalled {
                let word = install(k, d, counter_half(atomicLoad(&counters[FALLBACK_ROW + counter_at(0u, d)]), d));
                w.x += word & COUNT_MASK;
                w.y = select(k, 0u, (word & ~COUNT_MASK) == prefix_tag());
                if w.y == 0u {
                    finish_digit(tile, d, w.x);
                }
            }
            if w.y != 0u {
                w = walk_and_finish(tile, d, w);
            }
            (*walks)[i] = w;
        }
        workgroupBarrier();
        if t == 0u {
            stalled_tile = atomicExchange(&stalled_any, 0u);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn onesweep(@builtin(local_invocation_index) t: u32) {
    if t == 0u {
        tile_slot = atomicAdd(&tile_counter[pass_index()], 1u);
        atomicStore(&stalled_any, 0u);
    }
    for (var k = t; k < SUBGROUPS * ROW; k += BLOCK) {
        atomicStore(&counters[k], 0u);
    }
    let tile = workgroupUniformLoad(&tile_slot);
    let n = arrayLength(&keys_in);
    // The host's grid may round the tile count up.
    if tile >= (n + TILE - 1u) / TILE {
        return;
    }
    let lane = sg::invocation_id();
    let size = sg::group_size();
    let subgroup = t / size;
    let first_key = tile * TILE + subgroup * ITEMS * size + lane;

    // Keys past the end (in the last tile) are 0xffffffff: digit 255 in
    // every pass, ranked after every real key (they come last in the
    // tile's order), so they are never written out and need no ballot of
    // their own. They count in the last tile's published count of digit
    // 255, which no tile reads (tiles look back, never ahead).
    // Every tile but the last is full: its loads, stages and writes test
    // no key against n (`full` is uniform, and the helpers are inlined
    // once with each value).
    let full = FULL_TILES && tile < n / TILE;
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    if full {
        load_tile(true, first_key, size, n, &keys, &values);
    } else {
        load_tile(false, first_key, size, n, &keys, &values);
    }
    // The subgroups' digit counts: each key adds 1 to its digit in its
    // subgroup's row (keys past the end count as digit 255: only the last
    // tile has them, and no tile reads the last tile's counts).
    var returned = 0u;
    for (var s = 0u; s < ITEMS; s++) {
        let digit = digit_of(keys[s]);
        let before = atomicAdd(&counters[counter_at(subgroup, digit)], counter_add(digit, 1u));
        if RETURNING_COUNTS {
            returned |= before;
        }
    }
    if RETURNING_COUNTS && (returned & 0x80008000u) != 0u {
        // Never: a row counts a subgroup's keys, at most ITEMS * 128 < 2^15
        // (a u16 half or a full word).
        atomicStore(&stalled_any, returned);
    }
    workgroupBarrier();

    // Thread t < 128: digits 2t and 2t + 1, down the subgroup rows. It
    // publishes the tile's counts before the rank (as CUB's
    // BlockRadixRankMatchEarlyCounts does), so that later tiles looking back
    // need not wait for this tile's rank; then each row's counter becomes
    // the tile position of the subgroup's first key of the digit.
    let rows = BLOCK / size;
    var low = 0u;
    var high = 0u;
    if t < PAIRS_OF_DIGITS {
        for (var g = 0u; g < rows; g++) {
            if WIDE_COUNTERS {
                low += atomicLoad(&counters[g * ROW + 2u * t]);
                high += atomicLoad(&counters[g * ROW + 2u * t + 1u]);
            } else {
                let word = atomicLoad(&counters[g * ROW + t]);
                low += word & 0xffffu;
                high += word >> 16u;
            }
        }
        let tag = select(aggregate_tag(), prefix_tag(), tile == 0u);
        if !stalls(tile) {
            atomicStore(&tile_state[tile * RADIX + 2u * t], tag | low);
            atomicStore(&tile_state[tile * RADIX + 2u * t + 1u], tag | high);
        }
    }
    let start = blk::exclusive_add<u32, BLOCK>(low + high);
    if t < PAIRS_OF_DIGITS {
        var at_low = start;
        var at_high = start + low;
        tile_count[2u * t] = low;
        tile_count[2u * t + 1u] = high;
        tile_first[2u * t] = at_low;
        tile_first[2u * t + 1u] = at_high;
        for (var g = 0u; g < rows; g++) {
            if WIDE_COUNTERS {
                let count_low = atomicLoad(&counters[g * ROW + 2u * t]);
                let count_high = atomicLoad(&counters[g * ROW + 2u * t + 1u]);
                atomicStore(&counters[g * ROW + 2u * t], at_low);
                atomicStore(&counters[g * ROW + 2u * t + 1u], at_high);
                at_low += count_low;
                at_high += count_high;
            } else {
                let word = atomicLoad(&counters[g * ROW + t]);
                atomicStore(&counters[g * ROW + t], at_low | (at_high << 16u));
                at_low += word & 0xffffu;
                at_high += word >> 16u;
            }
        }
    }
    workgroupBarrier();

    // Rank within the subgroup, item by item. `live` masks the lanes of
    // the subgroup (a complemented ballot sets the bits past its size).
    let live = sg::ballot(true);
    var ranks: array<u32, ITEMS>;
    for (var s = 0u; s < ITEMS; s++) {
        let digit = digit_of(keys[s]);
        // The lanes with this lane's digit: how many of them are below it,
        // the one that counts them (`leader`; `leads` in that lane), and,
        // in that lane, how many there are.
        var earlier: u32;
        var total: u32;
        var leader: u32;
        var leads: bool;
        if NARROW {
            // Written out: a loop here made the NVIDIA Vulkan driver's code
            // slower.
            var peers: u32;
            if PEERS == 1u {
                peers = live.x & sg::match_any<u32>(digit).x;
            } else if PEERS == 2u {
                peers = live.x & wk_sg_match_bits8(digit);
            } else {
                peers = live.x & same_bit(digit, 0u) & same_bit(digit, 1u)
                    & same_bit(digit, 2u) & same_bit(digit, 3u) & same_bit(digit, 4u)
                    & same_bit(digit, 5u) & same_bit(digit, 6u) & same_bit(digit, 7u);
            }
            // The highest peer adds their count, as CUB's
            // BlockRadixRankMatch does: every other peer is below it, so
            // the count is its own `earlier` plus one (no popcount of the
            // peers, and the leader is one firstLeadingBit). Through CUDA
            // on an H200 the pairs' sort took 1-2 % less time from 2^22,
            // the keys' 2-4 % (Vulkan unchanged;
            // docs/benchmarks/2026-11-29k-h200-merge-sort-chunks, call 4).
            earlier = countOneBits(peers & sg::lanemask_lt(lane));
            leader = firstLeadingBit(peers);
            leads = lane == leader;
            total = earlier + 1u;
        } else {
            let peers = live & same_bit_wide(digit, 0u) & same_bit_wide(digit, 1u)
                & same_bit_wide(digit, 2u) & same_bit_wide(digit, 3u) & same_bit_wide(digit, 4u)
                & same_bit_wide(digit, 5u) & same_bit_wide(digit, 6u) & same_bit_wide(digit, 7u);
            earlier = below(peers, lane);
            let counts = countOneBits(peers);
            total = counts.x + counts.y + counts.z + counts.w;
            leader = lowest(peers);
            leads = earlier == 0u;
        }
        var before = 0u;
        if leads {
            let word = atomicAdd(&counters[counter_at(subgroup, digit)], counter_add(digit, total));
            before = counter_half(word, digit);
        }
        ranks[s] = sg::shuffle<u32>(before, leader) + earlier;
    }

    // Look back, each digit's inclusive prefix published as soon as it is
    // known; tile 0 has nothing to walk (end 0). Without FALLBACK, the
    // plain look-back's code as it was before the fallback (NVIDIA's
    // compilers made 1-6 % slower code of the restructured walk,
    // 2026-11-26a).
    var walks: array<vec2<u32>, WALKS>;
    if FALLBACK {
        for (var i = 0u; i < WALKS; i++) {
            let d = t + i * BLOCK;
            if d < RADIX {
                walks[i] = walk_and_finish(tile, d, vec2<u32>(0u, tile));
            }
        }
    } else {
        for (var d = t; d < RADIX; d += BLOCK) {
            var prefix = 0u;
            if tile > 0u {
                prefix = plain_look_back(tile, d);
                if !stalls(tile) {
                    // The row from tile_slot (unchanged since its uniform
                    // load): natively 512 x 16 keys otherwise kept
                    // `tile * RADIX` from the counts' publication through
                    // the rank, spilled to local memory at 64 registers.
                    atomicStore(&tile_state[tile_slot * RADIX + d], prefix_tag() | (prefix + tile_count[d]));
                }
            }
            digit_base[d] = atomicLoad(&digits[pass_index() * RADIX + d]) + prefix - tile_first[d];
        }
    }
    // Stage the keys in workgroup memory in their order in the tile's
    // output, so that consecutive threads write runs of equal digits to
    // consecutive addresses: scattering from registers instead sent each
    // key to its own memory transaction (H100, CUDA, 2^26 keys: 1.46 ms
    // a pass against 0.56 with coalesced writes). After the look-back, so
    // that the prefixes are published first (staging first cost 4 % with
    // pairs on CUDA and 5 % through Vulkan, 2026-11-26a).
    if STAGE_IN_COUNTERS {
        // Every subgroup's rank is done with its counter row.
        workgroupBarrier();
    }
    // The first part here, the others after its keys are written out.
    for (var s = 0u; s < ITEMS; s++) {
        if (STAGE_PAST_END || full || first_key + s * size < n)
            && (STAGE_PARTS == 1u || ranks[s] < PART) {
            stage(ranks[s], keys[s]);
        }
    }
    if PAIRS && LATE_VALUES {
        // The first key's index again, from tile_slot (unchanged since its
        // uniform load) rather than `first_key`: natively the compilers
        // otherwise keep the keys' ITEMS indices live through the rank for
        // these loads (512 x 16: 64 registers so, 93 reusing them).
        load_values(full, tile_slot * TILE + subgroup * ITEMS * size + lane, size, n, &values);
    }
    // One barrier for the staged keys, the digit bases and stalled_any;
    // the fallback only where a walk stalled (without FALLBACK, every walk
    // waited until it ended: the plain look-back's code).
    workgroupBarrier();
    if FALLBACK {
        if t == 0u {
            stalled_tile = atomicExchange(&stalled_any, 0u);
        }
        if workgroupUniformLoad(&stalled_tile) != 0u {
            fall_back(tile, t, &walks);
        }
    }
    let tile_keys = min(TILE, n - tile * TILE);
    var destinations: array<u32, ITEMS>;
    for (var part = 0u; part < STAGE_PARTS; part++) {
        let low = part * PART;
        if part > 0u {
            // The last part's keys are out: stage this part's.
            workgroupBarrier();
            for (var s = 0u; s < ITEMS; s++) {
                if (STAGE_PAST_END || full || first_key + s * size < n)
                    && ranks[s] - low < PART {
                    stage(ranks[s] - low, keys[s]);
                }
            }
            workgroupBarrier();
        }
        if full {
            write_keys(true, t, part, TILE, &destinations);
        } else {
            write_keys(false, t, part, tile_keys, &destinations);
        }
    }
    if PAIRS {
        for (var part = 0u; part < STAGE_PARTS; part++) {
            let low = part * PART;
            workgroupBarrier();
            for (var s = 0u; s < ITEMS; s++) {
                if (STAGE_PAST_END || full || first_key + s * size < n)
                    && (STAGE_PARTS == 1u || ranks[s] - low < PART) {
                    stage(ranks[s] - low, values[s]);
                }
            }
            workgroupBarrier();
            if full {
                write_values(true, t, part, TILE, &destinations);
            } else {
                write_values(false, t, part, tile_keys, &destinations);
            }
        }
    }
}

/// Loads this thread's keys (encoded) and values, from `first_key` on,
/// `size` apart; keys at n or past it are 0xffffffff (unless `full`: the
/// tile has no such key, and no key is tested).
fn load_tile(full: bool, first_key: u32, size: u32, n: u32, keys: ptr<function, array<u32, ITEMS>>,
             values: ptr<function, array<u32, ITEMS>>) {
    for (var s = 0u; s < ITEMS; s++) {
        let i = first_key + s * size;
        (*keys)[s] = 0xffffffffu;
        if full || i < n {
            (*keys)[s] = load_key(i);
            if PAIRS && !LATE_VALUES {
                (*values)[s] = values_in[i];
            }
        }
    }
}

/// Loads this thread's values, from `first_key` on, `size` apart (those
/// below n; all of them when `full`), with LATE_VALUES.
fn load_values(full: bool, first_key: u32, size: u32, n: u32,
               values: ptr<function, array<u32, ITEMS>>) {
    for (var s = 0u; s < ITEMS; s++) {
        let i = first_key + s * size;
        if full || i < n {
            (*values)[s] = values_in[i];
        }
    }
}

/// Writes thread t's positions of staged part `part` (those below
/// `tile_keys`; all of them when `full`) to keys_out, keeping each one's
/// output index in `destinations` for the values.
fn write_keys(full: bool, t: u32, part: u32, tile_keys: u32,
              destinations: ptr<function, array<u32, ITEMS>>) {
    let low = part * PART;
    for (var k = 0u; k < ITEMS; k++) {
        let j = k * BLOCK + t;
        if (full || j < tile_keys) && k / PART_ITEMS == part {
            let key = staged_at(j - low);
            let at = digit_base[digit_of(key)] + j;
            keys_out[at] = store_key(key);
            (*destinations)[k] = at;
        }
    }
}

/// Writes thread t's values of staged part `part` to the output indices
/// its keys went to (`write_keys`).
fn write_values(full: bool, t: u32, part: u32, tile_keys: u32,
                destinations: ptr<function, array<u32, ITEMS>>) {
    let low = part * PART;
    for (var k = 0u; k < ITEMS; k++) {
        let j = k * BLOCK + t;
        if (full || j < tile_keys) && k / PART_ITEMS == part {
            values_out[(*destinations)[k]] = staged_at(j - low);
        }
    }
}
