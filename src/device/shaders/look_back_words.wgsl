// A look-back publication of a 32-bit value in two words: what
// look_back.wgsl's `lb_publish`, `lb_read` and `lb_install` are built from
// (`store_publication`, `lb_read`, `install_publication`) for scan.wgsl
// (with look_back_words_scan.wgsl's `lb_publish` and `lb_install`) and by_key.wgsl (with its own, for the head rule), which
// append this file after look_back.wgsl and bind `tile_state`, 2 atomic
// words per tile, zeroed before the pass.
//
// WGSL has no 64-bit atomics, so a 32-bit value and its 2-bit state do not
// fit one word: each publication is two words, `state << 30 | 16 bits`,
// low half then high half. A reader that sees the two words in different
// states (a publication half-way) reads them again. Words are read with
// read-modify-writes, not atomicLoad: polling with the slower RMW was
// faster on the H100 (docs/research: 374 against 293 G/s), and a slower
// round spends lavapipe's loop budget (65535 iterations an invocation)
// more slowly. The fallback installs an aggregate with atomicMax on each
// word: PREFIX (2) outranks AGGREGATE (1), and two AGGREGATEs of a tile
// hold the same bits (its owner and the fallback compute them with the
// same function).

const STATE_AGGREGATE = 0x40000000u;
const STATE_PREFIX = 0x80000000u;
const STATE_MASK = 0xc0000000u;

/// Publishes `value` in `state` (an LB_ state) for `tile`.
fn store_publication(tile: u32, state: u32, value: u32) {
    atomicStore(&tile_state[2u * tile], (state << 30u) | (value & 0xffffu));
    atomicStore(&tile_state[2u * tile + 1u], (state << 30u) | (value >> 16u));
}

/// A publication from its two words: LB_PENDING unless both carry the same
/// state.
fn joined(low: u32, high: u32) -> Publication {
    let state = low & STATE_MASK;
    if state != (high & STATE_MASK) {
        return Publication(LB_PENDING, 0u);
    }
    return Publication(state >> 30u, (low & 0xffffu) | ((high & 0xffffu) << 16u));
}

fn lb_read(p: u32) -> Publication {
    let low = atomicOr(&tile_state[2u * p], 0u);
    let high = atomicOr(&tile_state[2u * p + 1u], 0u);
    return joined(low, high);
}

/// Installs `aggregate` for tile p in `state` (STATE_AGGREGATE or
/// STATE_PREFIX) unless a prefix is there: the publication it holds then.
fn install_publication(p: u32, state: u32, aggregate: u32) -> Publication {
    let low = atomicMax(&tile_state[2u * p], state | (aggregate & 0xffffu));
    let high = atomicMax(&tile_state[2u * p + 1u], state | (aggregate >> 16u));
    let was = joined(low, high);
    if was.state == LB_PREFIX {
        return was;
    }
    return Publication(state >> 30u, aggregate);
}
