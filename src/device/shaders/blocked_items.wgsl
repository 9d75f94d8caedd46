// A tile of BLOCK threads, each owning ITEMS consecutive elements
// (blocked), under `scan_op` with `scan_identity`: the loads, folds,
// tile combinations and scanned stores that scan_op.wgsl and
// segmented.wgsl share (appended to them). They bind `input` and `output`
// (array<T>), declare `var<workgroup> tile_total: T`, `const INCLUSIVE`,
// BLOCK and ITEMS, and import the block layer as `blk`.

/// Thread `t`'s ITEMS elements from `first` (the identity at `end` and
/// past it).
fn load_items_from(first: u32, end: u32) -> array<T, ITEMS> {
    var items: array<T, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        items[k] = scan_identity();
        if first + k < end {
            items[k] = input[first + k];
        }
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
