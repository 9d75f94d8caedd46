//! Finding what the composer rewrites in a user's WGSL: `#import` lines,
//! `alias::op<args>` call sites and direct uses of mangled names. Comments
//! are skipped; nothing else of the user's text is interpreted.

use std::ops::Range;

use crate::catalog::Namespace;

/// A problem at a span of the user's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanError {
    /// Where.
    pub span: Range<usize>,
    /// What is wrong (the headline).
    pub message: String,
    /// The short note under the caret.
    pub label: String,
}

impl SpanError {
    fn new(span: Range<usize>, message: impl Into<String>, label: impl Into<String>) -> Self {
        SpanError {
            span,
            message: message.into(),
            label: label.into(),
        }
    }
}

/// `#import wavekit::subgroup as sg`.
#[derive(Clone, Debug)]
pub struct Import {
    /// The name calls use (`sg`).
    pub alias: String,
    /// The module imported.
    pub namespace: Namespace,
    /// The whole directive line, without its newline.
    pub span: Range<usize>,
}

/// `sg::reduce_add_tiled<f32, 3>` followed by `(`.
#[derive(Clone, Debug)]
pub struct CallSite {
    /// From the alias to the closing `>` (or the end of the op name).
    pub span: Range<usize>,
    /// The module the alias imports.
    pub namespace: Namespace,
    /// The op name.
    pub op: String,
    /// The op name's span.
    pub op_span: Range<usize>,
    /// The template arguments' text, if any, with their spans.
    pub args: Vec<(String, Range<usize>)>,
}

/// Which bytes are code (not inside a comment).
fn code_mask(source: &str) -> Vec<bool> {
    let bytes = source.as_bytes();
    let mut mask = vec![true; bytes.len()];
    let mut i = 0;
    let mut depth = 0usize;
    while i < bytes.len() {
        if depth == 0 && bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                mask[i] = false;
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            depth += 1;
            mask[i] = false;
            mask[i + 1] = false;
            i += 2;
        } else if depth > 0 && bytes[i..].starts_with(b"*/") {
            depth -= 1;
            mask[i] = false;
            mask[i + 1] = false;
            i += 2;
        } else {
            mask[i] = depth == 0;
            i += 1;
        }
    }
    mask
}

/// The `#import` directives.
pub fn imports(source: &str) -> Result<Vec<Import>, SpanError> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let text = line.trim_end_matches(['\n', '\r']);
        let indent = text.len() - text.trim_start().len();
        if let Some(rest) = text.trim_start().strip_prefix("#import") {
            let start = offset + indent;
            let span = start..offset + text.len();
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (path, alias) = match words.as_slice() {
                [path] => (*path, None),
                [path, "as", alias] => (*path, Some(*alias)),
                _ => {
                    return Err(SpanError::new(
                        span,
                        "malformed import: expected `#import wavekit::subgroup [as NAME]`",
                        "this import",
                    ));
                }
            };
            let Some(namespace) = Namespace::ALL.into_iter().find(|n| n.import_path() == path)
            else {
                return Err(SpanError::new(
                    span,
                    format!(
                        "unknown module `{path}`: wavekit has `wavekit::subgroup`, `wavekit::block` and `wavekit::grid`"
                    ),
                    "imported here",
                ));
            };
            let alias = alias.unwrap_or(path.rsplit("::").next().unwrap_or(path));
            if !is_identifier(alias) {
                return Err(SpanError::new(
                    span,
                    format!("`{alias}` is not a valid alias"),
                    "this import",
                ));
            }
            found.push(Import {
                alias: alias.to_string(),
                namespace,
                span,
            });
        }
        offset += line.len();
    }
    Ok(found)
}

fn is_identifier(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every `alias::op<...>(` in code (outside comments and import lines).
pub fn call_sites(source: &str, imports: &[Import]) -> Result<Vec<CallSite>, SpanError> {
    let bytes = source.as_bytes();
    let mask = code_mask(source);
    let in_import = |i: usize| imports.iter().any(|im| im.span.contains(&i));
    let mut sites = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if !(bytes[i] == b':' && bytes[i + 1] == b':' && mask[i] && !in_import(i)) {
            i += 1;
            continue;
        }
        let mut start = i;
        while start > 0 && is_ident_byte(bytes[start - 1]) {
            start -= 1;
        }
        let alias = &source[start..i];
        let mut end = i + 2;
        while end < bytes.len() && is_ident_byte(bytes[end]) {
            end += 1;
        }
        let op_span = i + 2..end;
        let op = source[op_span.clone()].to_string();
        let Some(import) = imports.iter().find(|im| im.alias == alias) else {
            return Err(SpanError::new(
                start..end,
                format!(
                    "`{alias}::` names no import: add `#import wavekit::subgroup as {alias}` (or `wavekit::block`)"
                ),
                "not imported",
            ));
        };
        if op.is_empty() {
            return Err(SpanError::new(
                start..end,
                "expected an op name after `::`",
                "here",
            ));
        }
        let mut args = Vec::new();
        let mut j = end;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < bytes.len() && bytes[j] == b'<' {
            let close = source[j..].find('>').map(|k| j + k).ok_or_else(|| {
                SpanError::new(
                    start..j + 1,
                    "unclosed template argument list",
                    "`<` without `>`",
                )
            })?;
            let mut arg_start = j + 1;
            for piece in source[j + 1..close].split(',') {
                let lead = piece.len() - piece.trim_start().len();
                let text = piece.trim();
                let span = arg_start + lead..arg_start + lead + text.len();
                args.push((text.to_string(), span));
                arg_start += piece.len() + 1;
            }
            if args.len() == 1 && args[0].0.is_empty() {
                args.clear();
            }
            end = close + 1;
            j = end;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
        }
        if j >= bytes.len() || bytes[j] != b'(' {
            return Err(SpanError::new(
                start..end,
                format!("`{alias}::{op}` must be called: expected `(` after it"),
                "not a call",
            ));
        }
        sites.push(CallSite {
            span: start..end,
            namespace: import.namespace,
            op,
            op_span,
            args,
        });
        i = end;
    }
    Ok(sites)
}

/// Identifiers in code that are mangled library names (`wk_sg_...`,
/// `wk_blk_...`), with their spans.
pub fn mangled_uses(source: &str) -> Vec<(String, Range<usize>)> {
    let bytes = source.as_bytes();
    let mask = code_mask(source);
    let mut uses = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !is_ident_byte(bytes[i - 1]);
        if boundary
            && mask[i]
            // Bytes, not `str`: `i` may be inside a multi-byte character.
            && (bytes[i..].starts_with(b"wk_sg_") || bytes[i..].starts_with(b"wk_blk_"))
        {
            let mut end = i;
            while end < bytes.len() && is_ident_byte(bytes[end]) {
                end += 1;
            }
            uses.push((source[i..end].to_string(), i..end));
            i = end;
        } else {
            i += 1;
        }
    }
    uses
}
