// Stream compaction: the elements of `input` below THRESHOLD, in order,
// into `output`, and their number into `count[0]`.
//
// Tiles of TILE = 1024 elements: round j (0..ITEMS) of a tile covers
// elements tile*TILE + j*BLOCK + t, so loads are coalesced and a round's
// elements are ordered by thread, and rounds by j.
//   count_tiles (grid of tiles, spilling into y): tile_counts[tile] = the
//     tile's kept elements (a block reduction of per-thread counts).
//   (host) tile_offsets = exclusive scan of tile_counts (the device scan).
//   scatter (grid of tiles): per round, `sg::ballot` of the keep flags and
//     `sg::lanemask_lt` give each kept element its rank among its
//     subgroup's kept elements of that round (popcount, no shuffles); the
//     subgroups' round totals, ordered (round, subgroup), are scanned with
//     one `blk::exclusive_add`; element goes to
//     tile_offsets[tile] + that offset + its rank. The last tile writes count.
// Bindings: 0 input (array<u32>, n), 1 output (array<u32>, n),
//   2 tile_counts, 3 tile_offsets (array<u32>, tiles rounded up to a
//   multiple of 4), 4 count (1 word). Every entry point binds all five.
// Contract: subgroups are formed of consecutive local_invocation_index
// values (as everywhere wavekit's block primitives run), size 4..128.
#import wavekit::subgroup as sg
#import wavekit::block as blk

const BLOCK = 256u;
const ITEMS = 4u;
const TILE = 1024u;
const THRESHOLD = 0x80000000u;
// Entries of the (round, subgroup) table at the smallest subgroup, 4 lanes.
const MAX_ENTRIES = 256u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> tile_counts: array<u32>;
@group(0) @binding(3) var<storage, read_write> tile_offsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> count: array<u32>;

var<workgroup> round_totals: array<u32, MAX_ENTRIES>;

fn tile_count() -> u32 {
    return (arrayLength(&input) + TILE - 1u) / TILE;
}

fn keep(i: u32) -> bool {
    return i < arrayLength(&input) && input[i] < THRESHOLD;
}

/// Kept lanes below `lane` in ballot `b` (lanes 0..127).
fn rank_in_subgroup(b: vec4<u32>, lane: u32) -> u32 {
    let word = lane / 32u;
    let whole = countOneBits(b);
    let earlier = select(0u, whole.x, word > 0u) + select(0u, whole.y, word > 1u)
        + select(0u, whole.z, word > 2u);
    return earlier + countOneBits(b[word] & sg::lanemask_lt(lane % 32u));
}

@compute @workgroup_size(BLOCK)
fn count_tiles(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = wid.x + wid.y * nwg.x;
    if tile >= tile_count() {
        return;
    }
    var kept = 0u;
    for (var j = 0u; j < ITEMS; j++) {
        kept += u32(keep(tile * TILE + j * BLOCK + t));
    }
    let total = blk::reduce_add<u32, BLOCK>(kept);
    if t == 0u {
        tile_counts[tile] = total;
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
    let lane = sg::invocation_id();
    let size = sg::group_size();
    let subgroups = BLOCK / size;
    let subgroup = t / size;
    var values: array<u32, ITEMS>;
    var ranks: array<u32, ITEMS>;
    var kept: array<bool, ITEMS>;
    for (var j = 0u; j < ITEMS; j++) {
        let i = tile * TILE + j * BLOCK + t;
        kept[j] = keep(i);
        if kept[j] {
            values[j] = input[i];
        }
        let b = sg::ballot(kept[j]);
        ranks[j] = rank_in_subgroup(b, lane);
        if lane == 0u {
            let whole = countOneBits(b);
            round_totals[j * subgroups + subgroup] = whole.x + whole.y + whole.z + whole.w;
        }
    }
    workgroupBarrier();
    let entries = ITEMS * subgroups;
    var total = 0u;
    if t < entries {
        total = round_totals[t];
    }
    let offset = blk::exclusive_add<u32, BLOCK>(total);
    workgroupBarrier();
    if t < entries {
        round_totals[t] = offset;
    }
    if tile == tiles - 1u && t == entries - 1u {
        count[0] = tile_offsets[tile] + offset + total;
    }
    workgroupBarrier();
    let base = tile_offsets[tile];
    for (var j = 0u; j < ITEMS; j++) {
        if kept[j] {
            output[base + round_totals[j * subgroups + subgroup] + ranks[j]] = values[j];
        }
    }
}
