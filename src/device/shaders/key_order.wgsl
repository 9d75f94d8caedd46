// The ordered bits of 32-bit keys, shared by the sorts (radix_sort.wgsl,
// radix_onesweep.wgsl, segmented_sort.wgsl, contact_sort.wgsl:
// `wavekit::device::shaders` appends this file to each, as web/build.sh
// does for the browser page).
//
// The shader declares KEY_ORDER: 0 u32 keys, as they are; 1 i32, the sign
// bit flipped; 2 f32, IEEE order: negative keys all bits flipped, the
// others the sign bit. encode_key maps a key's bits to unsigned bits of the
// same order, decode_key back. (64-bit keys: radix_key64.wgsl replaces
// both.)

fn encode_key(k: u32) -> u32 {
    if KEY_ORDER == 1u {
        return k ^ 0x80000000u;
    }
    if KEY_ORDER == 2u {
        return k ^ select(0x80000000u, 0xffffffffu, (k >> 31u) == 1u);
    }
    return k;
}

fn decode_key(b: u32) -> u32 {
    if KEY_ORDER == 1u {
        return b ^ 0x80000000u;
    }
    if KEY_ORDER == 2u {
        return b ^ select(0xffffffffu, 0x80000000u, (b >> 31u) == 1u);
    }
    return b;
}
