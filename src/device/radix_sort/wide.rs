//! 64-bit keys (u64, i64, f64): the edits that turn the pass shaders
//! `shaders/radix_sort.wgsl` (reduce-then-scan) and
//! `shaders/radix_onesweep.wgsl` (OneSweep), written for 32-bit keys, into
//! passes over keys of two u32 words (low word first, as a little-endian
//! 8-byte key is laid out), with the key functions of
//! `shaders/radix_key64.wgsl`.
//!
//! Why words and not WGSL's 64-bit integers: WGSL has no portable u64
//! (naga's `u64` needs `SHADER_INT64`, which many devices and every
//! browser lack), and an LSD sort never needs 64-bit arithmetic: a pass
//! extracts a digit of at most 8 bits, which a funnel shift of the two
//! words gives, and the ordered-bits flips are XORs per word. So 64-bit
//! keys sort wherever 32-bit keys do, and the rank, scan, look-back and
//! scatter code is the 32-bit sort's.
//!
//! The 32-bit sort composes the shaders as they are; only a sort of 64-bit
//! keys goes through [`widen`], so the 32-bit path's composed WGSL (and the
//! code the H100 benchmarks and SASS budgets measure) does not depend on
//! this module.

use crate::device::shaders;
use crate::error::Error;

/// Which pass shader [`widen`] edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PassShader {
    /// `radix_sort.wgsl`.
    ReduceThenScan,
    /// `radix_onesweep.wgsl`.
    OneSweep,
}

/// Both shaders: the key bindings and arrays become `vec2<u32>`.
const KEY_WORDS: [(&str, &str); 3] = [
    ("keys_in: array<u32>;", "keys_in: array<vec2<u32>>;"),
    ("keys_out: array<u32>;", "keys_out: array<vec2<u32>>;"),
    (
        "var keys: array<u32, ITEMS>;",
        "var keys: array<vec2<u32>, ITEMS>;",
    ),
];

/// `radix_sort.wgsl`: the digit comes from `key_digit`, and the rank ranks
/// the digit itself (from bit 0).
const REDUCE_THEN_SCAN: [(&str, &str); 3] = [
    (
        "extractBits(keys[s], SHIFT, DIGIT_BITS)",
        "key_digit(keys[s])",
    ),
    (
        "radix_rank_match_atomic_or<RADIX, 8, SHIFT, DIGIT_BITS>(key)",
        "radix_rank_match_atomic_or<RADIX, 8, 0, DIGIT_BITS>(key_digit(key))",
    ),
    ("extractBits(key, SHIFT, DIGIT_BITS)", "key_digit(key)"),
];

/// `radix_onesweep.wgsl`: the digit functions take two words; the
/// histogram counts up to 8 passes' digits (the passes past the fourth
/// only where the bit range has them) and zeroes 8 tile counters; keys
/// past the end are all ones in both words; the scatter stages the low
/// words, then the high words, through the same workgroup array (so the
/// kernel's workgroup memory, and the shape the host picks, stay those of
/// 32-bit keys).
const ONESWEEP: [(&str, &str); 18] = [
    (
        "fn digit_of(key: u32) -> u32",
        "fn digit_of(key: vec2<u32>) -> u32",
    ),
    (
        "(key >> pass_shift()) & ((1u << pass_bits()) - 1u)",
        "key_digit(key)",
    ),
    (
        "fn pass_digit(key: u32, p: u32) -> u32",
        "fn pass_digit(key: vec2<u32>, p: u32) -> u32",
    ),
    (
        "extractBits(key, shift, min(8u, END_BIT - shift))",
        "digit_at(key, shift, min(8u, END_BIT - shift))",
    ),
    (
        "var<workgroup> bins: array<atomic<u32>, 1024>;",
        "var<workgroup> bins: array<atomic<u32>, 2048>;",
    ),
    ("4u * RADIX", "8u * RADIX"),
    ("if wid.x == 0u && t < 4u {", "if wid.x == 0u && t < 8u {"),
    (
        "for (var p = 0u; p < 4u; p++) {",
        "for (var p = 0u; p < 8u; p++) {",
    ),
    (
        "atomicAdd(&bins[3u * RADIX + pass_digit(key, 3u)], 1u);",
        "atomicAdd(&bins[3u * RADIX + pass_digit(key, 3u)], 1u);
                // Passes 4..7 only where the bit range has them (constant).
                if BEGIN_BIT + 32u < END_BIT {
                    atomicAdd(&bins[4u * RADIX + pass_digit(key, 4u)], 1u);
                }
                if BEGIN_BIT + 40u < END_BIT {
                    atomicAdd(&bins[5u * RADIX + pass_digit(key, 5u)], 1u);
                }
                if BEGIN_BIT + 48u < END_BIT {
                    atomicAdd(&bins[6u * RADIX + pass_digit(key, 6u)], 1u);
                }
                if BEGIN_BIT + 56u < END_BIT {
                    atomicAdd(&bins[7u * RADIX + pass_digit(key, 7u)], 1u);
                }",
    ),
    (
        "(*keys)[s] = 0xffffffffu;",
        "(*keys)[s] = vec2<u32>(0xffffffffu);",
    ),
    ("stage(ranks[s], keys[s]);", "stage(ranks[s], keys[s].x);"),
    (
        "stage(ranks[s] - low, keys[s]);",
        "stage(ranks[s] - low, keys[s].x);",
    ),
    (
        "keys: ptr<function, array<u32, ITEMS>>,",
        "keys: ptr<function, array<vec2<u32>, ITEMS>>,",
    ),
    (
        "    let tile_keys = min(TILE, n - tile * TILE);\n",
        "    let tile_keys = min(TILE, n - tile * TILE);
    // 64-bit keys: the low words were staged; the high words follow (the
    // whole tile at once).
    const_assert STAGE_PARTS == 1u;
    var low_words: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
        let j = k * BLOCK + t;
        if j < tile_keys {
            low_words[k] = staged_at(j);
        }
    }
    workgroupBarrier();
    for (var s = 0u; s < ITEMS; s++) {
        if first_key + s * size < n {
            stage(ranks[s], keys[s].y);
        }
    }
    workgroupBarrier();
",
    ),
    (
        "write_keys(true, t, part, TILE, &destinations);",
        "write_keys(true, t, part, TILE, &low_words, &destinations);",
    ),
    (
        "write_keys(false, t, part, tile_keys, &destinations);",
        "write_keys(false, t, part, tile_keys, &low_words, &destinations);",
    ),
    (
        "fn write_keys(full: bool, t: u32, part: u32, tile_keys: u32,",
        "fn write_keys(full: bool, t: u32, part: u32, tile_keys: u32,
              low_words: ptr<function, array<u32, ITEMS>>,",
    ),
    (
        "let key = staged_at(j - low);",
        "let key = vec2<u32>((*low_words)[k], staged_at(j - low));",
    ),
];

/// `source` (the text of `shader`) made a pass over 64-bit keys: the
/// edits of [`KEY_WORDS`] and the shader's, each applied to every
/// occurrence in order, then every function of `radix_key64.wgsl` in place
/// of the function of the same name, or appended when `source` has none.
/// Fails, naming the text, when an edit's text is not in `source` (the
/// shader changed under it).
pub(crate) fn widen(source: &str, shader: PassShader) -> Result<String, Error> {
    let own: &[(&str, &str)] = match shader {
        PassShader::ReduceThenScan => &REDUCE_THEN_SCAN,
        PassShader::OneSweep => &ONESWEEP,
    };
    let mut text = source.to_string();
    for &(from, to) in KEY_WORDS.iter().chain(own) {
        if !text.contains(from) {
            return Err(missing(shader, from));
        }
        text = text.replace(from, to);
    }
    let mut added = String::new();
    for (name, function) in functions(key64()) {
        match function_span(&text, name) {
            Some(span) => text.replace_range(span, function),
            None => {
                added.push('\n');
                added.push_str(function);
                added.push('\n');
            }
        }
    }
    text.push_str(&added);
    Ok(text)
}

/// `shaders/radix_key64.wgsl`: the key functions of 64-bit keys.
fn key64() -> &'static str {
    shaders::file("radix_key64.wgsl").unwrap_or_else(|| unreachable!("a file of shaders::FILES"))
}

fn missing(shader: PassShader, from: &str) -> Error {
    let file = match shader {
        PassShader::ReduceThenScan => "radix_sort.wgsl",
        PassShader::OneSweep => "radix_onesweep.wgsl",
    };
    Error::Usage(format!(
        "{file}: the text `{from}` that 64-bit keys edit is not there"
    ))
}

/// The byte range of the top-level function `name` in `text`: from `fn`
/// at the start of a line to its closing brace at the start of a line.
fn function_span(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let head = format!("fn {name}(");
    let start = if text.starts_with(&head) {
        0
    } else {
        text.find(&format!("\n{head}"))? + 1
    };
    let end = start + text[start..].find("\n}")? + 2;
    Some(start..end)
}

/// The top-level functions of `text`, by name, in order.
fn functions(text: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    for (at, line) in line_starts(text) {
        let Some(rest) = line.strip_prefix("fn ") else {
            continue;
        };
        let Some(name) = rest.split('(').next() else {
            continue;
        };
        if let Some(span) = function_span(&text[at..], name) {
            found.push((name, &text[at..at + span.end]));
        }
    }
    found
}

/// Each line of `text` with its byte offset.
fn line_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |at, line| {
        let start = *at;
        *at += line.len();
        Some((start, line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widen_replaces_the_key_functions() {
        for (source, shader) in [
            ("radix_sort.wgsl", PassShader::ReduceThenScan),
            ("radix_onesweep.wgsl", PassShader::OneSweep),
        ] {
            let wide = widen(&shaders::source(source).unwrap(), shader).expect("widens");
            assert!(wide.contains("fn key_digit(key: vec2<u32>) -> u32"));
            assert!(wide.contains("fn encode_key(k: vec2<u32>) -> vec2<u32>"));
            assert!(!wide.contains("fn encode_key(k: u32)"));
            for narrow in [
                "extractBits(key, SHIFT, DIGIT_BITS)",
                "(key >> pass_shift()) & ((1u << pass_bits()) - 1u)",
                "extractBits(keys[s], SHIFT, DIGIT_BITS)",
                "8, SHIFT, DIGIT_BITS>",
            ] {
                assert!(!wide.contains(narrow), "{shader:?}: {narrow}");
            }
            assert!(wide.contains("keys_out: array<vec2<u32>>;"), "{shader:?}");
        }
        assert_eq!(functions(key64()).len(), 6);
    }

    #[test]
    fn a_missing_edit_is_an_error() {
        let e = widen("fn main() {}\n", PassShader::OneSweep).expect_err("nothing to edit");
        assert!(e.to_string().contains("keys_in: array<u32>;"), "{e}");
    }
}
