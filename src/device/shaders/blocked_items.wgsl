// A tile of BLOCK threads, each owning ITEMS consecutive elements
// (blocked), under `scan_op` with `scan_identity`: the loads, folds,
// tile combinations and scanned stores of scan_op.wgsl's scans (appended
// to it). It binds `input` (T's bits, array<u32>) and `output`
// (array<T>), declares `var<workgroup> tile_total: T`, `const INCLUSIVE`,
// BLOCK and ITEMS, and imports the block layer as `blk`.
//
// The load is the block layer's `block::load_direct_blocked` on the bits,
// over the identity's. Bits, because naga gives `alias T` a type of its
// own: an `array<T, ITEMS>` is not the `array<u32, ITEMS>` (or f32, i32)
// that a row instantiated through T takes by pointer, whatever T is set
// to; `array<u32, ITEMS>` is, and a bitcast only renames a register. The store
// stays a loop of its own: with `block::store_direct_blocked` after the
// scan, ptxas spills 16 bytes in scan_op.wgsl's scan_lookback (sm_90),
// where the loop stores each item as it is scanned.

/// Thread t's ITEMS elements of the tile that starts at input[offset]
/// (offset + t * ITEMS + k), the identity at `end` and past it
/// (`offset < end`).
fn load_tile(offset: u32, end: u32) -> array<T, ITEMS> {
    var bits: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        bits[k] = bitcast<u32>(scan_identity());
    }
    blk::load_direct_blocked<u32, BLOCK, ITEMS, input>(offset, end - offset, &bits);
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

/// The tile's combination of thread `t`'s `items`, in every thread: the
/// one function that scan_op.wgsl's owner and fallback use, so both get
/// its bits.
fn tile_aggregate(items: array<T, ITEMS>, t: u32) -> T {
    let total = blk::inclusive_scan<T, BLOCK, scan_op>(fold(items));
    if t == BLOCK - 1u {
        tile_total = total;
    }
    return workgroupUniformLoad(&tile_total);
}

/// Writes `items` at output[first..end) scanned from `running` (the
/// combination of everything before them): inclusive or exclusive by
/// INCLUSIVE.
fn store_scanned(first: u32, end: u32, items: array<T, ITEMS>, start: T) {
    var running = start;
    for (var k = 0u; k < ITEMS; k++) {
        let exclusive = running;
        running = scan_op(running, items[k]);
        if first + k < end {
            output[first + k] = select(exclusive, running, INCLUSIVE);
        }
    }
}
