//! 64-bit keys (u64, i64, f64) for the reduce-then-scan sort: the edits
//! that turn `shaders/radix_sort.wgsl`, written for 32-bit keys, into a pass
//! over keys of two u32 words (low word first, as a little-endian 8-byte
//! key is laid out), with the key functions of `shaders/radix_key64.wgsl`.
//!
//! Why words and not WGSL's 64-bit integers: WGSL has no portable u64
//! (naga's `u64` needs `SHADER_INT64`, which many devices and every
//! browser lack), and an LSD sort never needs 64-bit arithmetic: a pass
//! extracts a digit of at most 8 bits, which a funnel shift of the two
//! words gives, and the ordered-bits flips are XORs per word. So 64-bit
//! keys sort wherever 32-bit keys do, and the rank, scan and scatter code
//! is the 32-bit sort's, unchanged.
//!
//! The 32-bit sort composes `radix_sort.wgsl` as it is; only a sort of
//! 64-bit keys goes through [`widen`], so the 32-bit path's composed WGSL
//! (and the code the H100 benchmarks and SASS budgets measure) does not
//! depend on this module.

use crate::device::shaders;
use crate::error::Error;

/// Text edits of `radix_sort.wgsl` for 64-bit keys, each applied to every
/// occurrence (each must occur): the key bindings and arrays become
/// `vec2<u32>`, and the digit comes from `key_digit` (the rank ranks the
/// digit itself, from bit 0).
const EDITS: [(&str, &str); 6] = [
    ("keys_in: array<u32>;", "keys_in: array<vec2<u32>>;"),
    ("keys_out: array<u32>;", "keys_out: array<vec2<u32>>;"),
    (
        "var keys: array<u32, ITEMS>;",
        "var keys: array<vec2<u32>, ITEMS>;",
    ),
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

/// `source` (radix_sort.wgsl) made a pass over 64-bit keys: [`EDITS`], then
/// every function of `radix_key64.wgsl` in place of the function of the
/// same name, or appended when `source` has none. Fails, naming the text,
/// when an edit's text is not in `source` (the shader changed under it).
pub(crate) fn widen(source: &str) -> Result<String, Error> {
    let mut text = source.to_string();
    for (from, to) in EDITS {
        if !text.contains(from) {
            return Err(missing(from));
        }
        text = text.replace(from, to);
    }
    let mut added = String::new();
    for (name, function) in functions(shaders::RADIX_KEY64) {
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

fn missing(from: &str) -> Error {
    Error::Usage(format!(
        "radix_sort.wgsl: the text `{from}` that 64-bit keys edit is not there"
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
    fn widen_replaces_the_key_functions_and_adds_key_digit() {
        let wide = widen(shaders::RADIX_SORT).expect("widens");
        assert!(wide.contains("fn key_digit(key: vec2<u32>) -> u32"));
        assert!(wide.contains("fn encode_key(k: vec2<u32>) -> vec2<u32>"));
        assert!(!wide.contains("fn encode_key(k: u32)"));
        assert!(!wide.contains("SHIFT, DIGIT_BITS>(key)"));
        assert_eq!(functions(shaders::RADIX_KEY64).len(), 5);
    }

    #[test]
    fn a_missing_edit_is_an_error() {
        let e = widen("fn main() {}\n").expect_err("nothing to edit");
        assert!(e.to_string().contains("keys_in: array<u32>;"), "{e}");
    }
}
