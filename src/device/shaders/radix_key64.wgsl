// 64-bit keys (u64, i64, f64) for the radix sort pass shaders
// (radix_sort.wgsl and radix_onesweep.wgsl): not a shader on its own, but
// the functions the host puts into a pass shader's text for a sort of
// 64-bit keys (wavekit::device::RadixSort, src/device/radix_sort/wide.rs):
//   - keys_in / keys_out are declared array<vec2<u32>> and the passes' key
//     arrays array<vec2<u32>, ITEMS>: a key is two u32 words, low word
//     first, which is how a little-endian u64 / i64 / f64 buffer is laid
//     out, so the caller's 8-byte keys are read and written as they are;
//   - each function below replaces the pass shader's function of the same
//     name, or is added, and the shader's digit extractions
//     (`extractBits(key, SHIFT, DIGIT_BITS)` and the like) become calls of
//     key_digit / digit_at; radix_sort.wgsl's radix rank ranks the digit
//     itself (bit_start 0); radix_onesweep.wgsl stages a tile's keys for
//     the scatter one word at a time, so its workgroup memory stays that of
//     32-bit keys, and counts 8 passes' digits in its histogram.
// Every operation stays on 32-bit words (no SHADER_INT64), so 64-bit keys
// sort on every device the 32-bit sort runs on. KEY_ORDER, keys_in and the
// pass's functions pass_shift (0..63), pass_bits, pass_first and pass_last
// are the pass shader's.

// The caller's key as unsigned 64-bit bits in the same order (KEY_ORDER 0:
// u64, as it is; 1: i64, the sign bit (bit 31 of the high word) flipped;
// 2: f64, IEEE order: negative keys all 64 bits flipped, the others the
// sign bit), and back.
fn encode_key(k: vec2<u32>) -> vec2<u32> {
    if KEY_ORDER == 1u {
        return k ^ vec2<u32>(0u, 0x80000000u);
    }
    if KEY_ORDER == 2u {
        let negative = (k.y >> 31u) == 1u;
        return k ^ select(vec2<u32>(0u, 0x80000000u), vec2<u32>(0xffffffffu), negative);
    }
    return k;
}

fn decode_key(b: vec2<u32>) -> vec2<u32> {
    if KEY_ORDER == 1u {
        return b ^ vec2<u32>(0u, 0x80000000u);
    }
    if KEY_ORDER == 2u {
        let non_negative = (b.y >> 31u) == 1u;
        return b ^ select(vec2<u32>(0xffffffffu), vec2<u32>(0u, 0x80000000u), non_negative);
    }
    return b;
}

// Key `i` of keys_in, encoded when this pass reads the caller's keys.
fn load_key(i: u32) -> vec2<u32> {
    let k = keys_in[i];
    if pass_first() {
        return encode_key(k);
    }
    return k;
}

// `key` as keys_out holds it: decoded when this pass writes the result.
fn store_key(key: vec2<u32>) -> vec2<u32> {
    if pass_last() {
        return decode_key(key);
    }
    return key;
}

// Bits shift .. shift + bits (bits <= 8) of an (encoded) key, which
// straddle the two words when the caller's begin bit is not a multiple of
// 8: a funnel shift of the words (the high word is shifted twice so that a
// shift of 0 shifts it out rather than by 32).
fn digit_at(key: vec2<u32>, shift: u32, bits: u32) -> u32 {
    let s = shift & 31u;
    let funnel = (key.x >> s) | ((key.y << (31u - s)) << 1u);
    return extractBits(select(funnel, key.y >> s, shift >= 32u), 0u, bits);
}

// This pass's digit of an (encoded) key.
fn key_digit(key: vec2<u32>) -> u32 {
    return digit_at(key, pass_shift(), pass_bits());
}
