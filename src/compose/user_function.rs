//! The user functions that calls name as `F` (the operator of
//! `blk::reduce<T, B, F>`, the flag test of `blk::flag_heads_by`, a merge
//! sort's comparator): each must be a function of the shader with the
//! signature the library calls it by. Checked on the rewritten text before
//! validation, so that a missing or mis-typed `F` is an error at the call
//! naming both signatures, not naga's at a line of the library.

use std::ops::Range;

use naga::{Module, Scalar, ScalarKind, TypeInner};

use super::scan::SpanError;
use crate::expand::Instance;

/// Checks the `F` of every call of `named` (each call's span and its
/// instance) against the functions of `wgsl`, the user's rewritten code
/// (its first `user_len` bytes) followed by the library. Where naga does
/// not parse the text, only that the user's code declares each `F` is
/// checked; validation reports the rest at its own line.
pub(super) fn check(
    wgsl: &str,
    user_len: usize,
    named: &[(Range<usize>, Instance)],
) -> Result<(), SpanError> {
    if named.is_empty() {
        return Ok(());
    }
    let parsed = naga::front::wgsl::parse_str(wgsl).ok();
    for (span, instance) in named {
        let (Some(name), Some(signature), Some(dtype)) = (
            instance.function.as_deref(),
            instance.primitive.function_signature(),
            instance.dtype,
        ) else {
            continue;
        };
        let t = dtype.wgsl();
        let wanted = signature
            .replace('T', t)
            .replacen("fn", &format!("fn {name}"), 1);
        let error = |found: String| SpanError {
            span: span.clone(),
            message: format!(
                "`{}` calls `{name}` as `{wanted}` (T = {t}), {found}",
                instance.primitive.qualified_name()
            ),
            label: "in this call".into(),
        };
        let Some(module) = &parsed else {
            if declares(&wgsl[..user_len], name) {
                continue;
            }
            return Err(error("but the shader declares no such function".into()));
        };
        let Some(function) = module
            .functions
            .iter()
            .map(|(_, f)| f)
            .find(|f| f.name.as_deref() == Some(name))
        else {
            return Err(error("but the shader declares no such function".into()));
        };
        let types: Vec<String> = function
            .arguments
            .iter()
            .map(|a| type_name(module, a.ty))
            .collect();
        let arguments: Vec<String> = function
            .arguments
            .iter()
            .zip(&types)
            .map(|(a, ty)| format!("{}: {ty}", a.name.as_deref().unwrap_or("_")))
            .collect();
        let result = function
            .result
            .as_ref()
            .map(|r| format!(" -> {}", type_name(module, r.ty)))
            .unwrap_or_default();
        let found = format!("fn {name}({}){result}", arguments.join(", "));
        let returns = if signature.ends_with("bool") {
            "bool"
        } else {
            t
        };
        if types != [t, t] || result != format!(" -> {returns}") {
            return Err(error(format!("but the shader declares `{found}`")));
        }
    }
    Ok(())
}

/// Whether `code` has a `fn name(` declaration.
fn declares(code: &str, name: &str) -> bool {
    code.match_indices("fn").any(|(at, _)| {
        let before_ok = code[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = code[at + 2..].trim_start();
        before_ok
            && rest.len() < code.len() - at - 2
            && rest
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('('))
    })
}

/// WGSL's name of a scalar type, `a <kind>` for any other.
fn type_name(module: &Module, ty: naga::Handle<naga::Type>) -> String {
    match module.types[ty].inner {
        TypeInner::Scalar(Scalar { kind, width }) => match kind {
            ScalarKind::Bool => "bool".into(),
            ScalarKind::Sint => format!("i{}", 8 * width),
            ScalarKind::Uint => format!("u{}", 8 * width),
            ScalarKind::Float => format!("f{}", 8 * width),
            ScalarKind::AbstractInt | ScalarKind::AbstractFloat => "an abstract number".into(),
        },
        TypeInner::Vector { .. } => "a vector".into(),
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => "a pointer".into(),
        TypeInner::Array { .. } => "an array".into(),
        TypeInner::Struct { .. } => "a struct".into(),
        _ => "a non-scalar type".into(),
    }
}
