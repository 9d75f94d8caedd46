// look_back.wgsl's `lb_publish` and `lb_install` for scan.wgsl, on
// look_back_words.wgsl's two-word publications (appended
// after it): a tile publishes what the look-back asks, and the fallback
// installs an aggregate, tile 0's as a prefix.

fn lb_publish(tile: u32, state: u32, value: u32) {
    store_publication(tile, state, value);
}

fn lb_install(p: u32, aggregate: u32) -> Publication {
    return install_publication(p, select(STATE_AGGREGATE, STATE_PREFIX, p == 0u), aggregate);
}
