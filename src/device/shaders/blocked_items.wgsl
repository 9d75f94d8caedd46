// A tile of BLOCK threads, each owning ITEMS consecutive elements
// (blocked), under `scan_op` with `scan_identity`: the loads, folds,
// tile combinations and scanned stores of scan_op.wgsl's scans (appended
// to it). It binds `input` and `output` (T's bits, array<u32>), declares
// `var<workgroup> tile_total: T`, `const INCLUSIVE`, BLOCK, ITEMS,
// LOAD_TRANSPOSED and STORE_TRANSPOSED, and imports the block layer as
// `blk`.
//
// The load is the block layer's `block::load_direct_blocked` on the bits,
// over the identity's, or with LOAD_TRANSPOSED `block::load_transpose`
// (striped loads, a subgroup's load S consecutive words, turned blocked
// through workgroup memory, as CUB's BLOCK_LOAD_TRANSPOSE). The store is
// `block::store_transpose` (blocked to striped through workgroup memory,
// then coalesced), or without STORE_TRANSPOSED each thread's ITEMS words
// directly: ITEMS stores a thread 4 * ITEMS bytes apart, each subgroup
// store writing 4 of a 32-byte sector's bytes, which keeps the L2 busy
// with partial sectors (as segmented.wgsl's scan before its quads,
// docs/benchmarks/2026-11-28u-h200-segmented-scan-quads, and by_key.wgsl's
// store, docs/benchmarks/2026-11-27h). Loads measured faster directly
// (scan_op.wgsl's LOAD_TRANSPOSED says by how much); the exchange's
// blocked reads (t * ITEMS + k) meet 8-way bank conflicts at 8 items. Bits, because naga gives `alias T` a type of its own: an
// `array<T, ITEMS>` is not the `array<u32, ITEMS>` (or f32, i32) that a
// row instantiated through T takes by pointer, whatever T is set to;
// `array<u32, ITEMS>` is, and a bitcast only renames a register. The
// direct store is a loop of its own: with `block::store_direct_blocked`
// after the scan, ptxas spilled 16 bytes in scan_op.wgsl's scan_lookback
// (sm_90), where the loop stores each item as it is scanned.
//
// Both transposes meet at workgroup barriers, so the callers call them in
// uniform control flow, the whole workgroup.

/// Thread t's ITEMS elements of the tile that starts at input[offset]
/// (offset + t * ITEMS + k), the identity at `end` and past it
/// (`offset < end`).
fn load_tile(offset: u32, end: u32) -> array<T, ITEMS> {
    var bits: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        bits[k] = bitcast<u32>(scan_identity());
    }
    if LOAD_TRANSPOSED {
        blk::load_transpose<u32, BLOCK, ITEMS, input>(offset, end - offset, &bits);
    } else {
        blk::load_direct_blocked<u32, BLOCK, ITEMS, input>(offset, end - offset, &bits);
    }
    var items: array<T, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        items[k] = bitcast<T>(bits[k]);
    }
    return items;
}

fn fold(items: array<T, ITEMS>) -> T {
    var acc = items[0];
    for (var k = 1u; k < ITEMS; k++) {
        acc = scan_op(acc, items[k]);
    }
    return acc;
}

/// A tile's block scan: the combination of the items of the threads
/// before this one (`before`), and of the whole tile (`total`, in every
/// thread).
struct TileScan {
    before: T,
    total: T,
}

/// The block scan of thread `t`'s `items` over the tile: one exclusive
/// scan of the threads' folds, the total the last thread's `before`
/// combined with its fold. The one function that scan_op.wgsl's owner and
/// fallback use for a tile's aggregate, so both get its bits; the owner
/// stores from the same scan's `before`.
fn tile_scan_of(items: array<T, ITEMS>, t: u32) -> TileScan {
    let mine = fold(items);
    let before = blk::exclusive_scan<T, BLOCK, scan_op>(mine, scan_identity());
    if t == BLOCK - 1u {
        tile_total = scan_op(before, mine);
    }
    return TileScan(before, workgroupUniformLoad(&tile_total));
}

/// Writes thread `t`'s `items` of the tile at output[offset..end) (its
/// elements offset + t * ITEMS + k below `end`) scanned from `start` (the
/// combination of everything before them): inclusive or exclusive by
/// INCLUSIVE.
fn store_scanned(offset: u32, t: u32, end: u32, items: array<T, ITEMS>, start: T) {
    var running = start;
    if STORE_TRANSPOSED {
        var bits: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k++) {
            let exclusive = running;
            running = scan_op(running, items[k]);
            bits[k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
        }
        blk::store_transpose<u32, BLOCK, ITEMS, output>(offset, end - offset, &bits);
        return;
    }
    let first = offset + t * ITEMS;
    for (var k = 0u; k < ITEMS; k++) {
        let exclusive = running;
        running = scan_op(running, items[k]);
        if first + k < end {
            output[first + k] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
        }
    }
}
