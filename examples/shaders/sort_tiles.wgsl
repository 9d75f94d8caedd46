// Sorts each 256-key tile of `keys` in place, one workgroup per tile: 64
// threads load 4 keys each (blocked), sort the tile with
// `block::radix_sort_keys` (CUB's BlockRadixSort) and store it back.
// The last tile may be partial: `params.n` keys in all; the missing keys
// load as u32's largest value, so they sort last and are not stored.
//
//   wavekit run examples/shaders/sort_tiles.wgsl --workgroups TILES \
//       --bind 0:0=keys.npy --bind 0:1=params.bin --out 0:0=sorted.npy
#import wavekit::block as blk

struct Params {
    n: u32,
}

@group(0) @binding(0) var<storage, read_write> keys: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

const THREADS: u32 = 64u;
const ITEMS: u32 = 4u;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
    let tile = wg.x * THREADS * ITEMS;
    let valid = min(params.n - min(params.n, tile), THREADS * ITEMS);
    var items = array<u32, 4>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    blk::load_direct_blocked<u32, 64, 4, keys>(tile, valid, &items);
    blk::radix_sort_keys<u32, 64, 4>(&items, 0u, 32u);
    blk::store_direct_blocked<u32, 64, 4, keys>(tile, valid, &items);
}
