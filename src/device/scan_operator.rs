//! [`ScanOperator`]: the operator of a [`Scan`](super::Scan) — sums, min,
//! max, a user WGSL function — as the declarations `shaders/scan.wgsl` and
//! `shaders/scan_tail.wgsl` take.

use crate::dtype::Dtype;
use crate::error::Error;

/// The associative operator of a scan, as CUB's `scan_op` functor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanOperator {
    /// `a + b` (wrapping for u32 and i32; IEEE for f32), identity 0.
    Add,
    /// `min(a, b)`, identity the dtype's largest value (f32: +inf).
    Min,
    /// `max(a, b)`, identity the dtype's smallest value (f32: -inf).
    Max,
    /// Your WGSL function `fn NAME(a: T, b: T) -> T` (T the scan's dtype:
    /// `u32`, `i32` or `f32`, spelled out or as the shader's `alias T`),
    /// the same contract as the block layer's user-operator scans
    /// (`block::exclusive_scan<T, 256, NAME>`). It must be associative, need not be commutative (operands are always combined
    /// earlier first), and may call helper functions defined in the same
    /// text (the first `fn` is the operator). `identity` is a WGSL
    /// expression of type T with `F(identity, x) = F(x, identity) = x`,
    /// e.g. `"0u"`; it is what an exclusive scan's first output is.
    Custom {
        /// The function's text (with any helpers it calls).
        wgsl: String,
        /// The identity, a WGSL expression of type T.
        identity: String,
    },
}

impl ScanOperator {
    /// A user operator: `wgsl` holds `fn NAME(a: T, b: T) -> T`,
    /// `identity` its identity as a WGSL expression.
    pub fn custom(wgsl: impl Into<String>, identity: impl Into<String>) -> Self {
        ScanOperator::Custom {
            wgsl: wgsl.into(),
            identity: identity.into(),
        }
    }

    /// The shader's `scan_op` and `scan_identity` declarations for `dtype`.
    pub(crate) fn declarations(&self, dtype: Dtype) -> Result<(String, String), Error> {
        let t = match dtype {
            Dtype::U32 => "u32",
            Dtype::I32 => "i32",
            _ => "f32",
        };
        let (body, identity) = match self {
            ScanOperator::Add => ("a + b", format!("{t}()")),
            ScanOperator::Min => (
                "min(a, b)",
                match dtype {
                    Dtype::U32 => "0xffffffffu".to_string(),
                    Dtype::I32 => "i32(0x7fffffff)".to_string(),
                    _ => "bitcast<f32>(0x7f800000u)".to_string(),
                },
            ),
            ScanOperator::Max => (
                "max(a, b)",
                match dtype {
                    Dtype::U32 => "0u".to_string(),
                    Dtype::I32 => "bitcast<i32>(0x80000000u)".to_string(),
                    _ => "bitcast<f32>(0xff800000u)".to_string(),
                },
            ),
            ScanOperator::Custom { wgsl, identity } => {
                let name = function_name(wgsl)?;
                return Ok((
                    format!(
                        "// The user's operator.\n{wgsl}\n\
                         fn scan_op(a: T, b: T) -> T {{ return {name}(a, b); }}"
                    ),
                    format!("fn scan_identity() -> T {{ return {identity}; }}"),
                ));
            }
        };
        Ok((
            format!("fn scan_op(a: T, b: T) -> T {{ return {body}; }}"),
            format!("fn scan_identity() -> T {{ return {identity}; }}"),
        ))
    }
}

/// The name of the first function `wgsl` declares.
fn function_name(wgsl: &str) -> Result<&str, Error> {
    let missing = || {
        Error::Usage(format!(
            "wavekit::device::ScanOperator::Custom: no `fn NAME(a: T, b: T) -> T` in {wgsl:?}"
        ))
    };
    let at = wgsl
        .match_indices("fn")
        .map(|(i, _)| i)
        .find(|&i| {
            let before = wgsl[..i].chars().next_back();
            let after = wgsl[i + 2..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && after.is_some_and(char::is_whitespace)
        })
        .ok_or_else(missing)?;
    let rest = wgsl[at + 2..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if end == 0 {
        return Err(missing());
    }
    Ok(&rest[..end])
}
