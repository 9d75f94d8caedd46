//! A caller's WGSL function in a device algorithm (a [`SelectIf`]
//! predicate, a [`Histogram`] bin function, a [`TransformReduce`] map, an
//! [`AdjacentDifference`] operator): composed on its own first, so
//! that a malformed one is an error whose line and column are the caller's
//! own text, and checked to declare the function the shader calls.
//!
//! [`SelectIf`]: super::SelectIf
//! [`Histogram`]: super::Histogram
//! [`TransformReduce`]: super::TransformReduce
//! [`AdjacentDifference`]: super::AdjacentDifference

use super::context::Context;
use crate::error::Error;

/// What the algorithm calls: `fn NAME(x: T) -> RETURNS` (or with more
/// parameters, each a T).
pub(crate) struct Signature {
    /// The algorithm, for messages (`wavekit::device::SelectIf`).
    pub algorithm: &'static str,
    /// The function's name (`keep`).
    pub name: &'static str,
    /// Its parameters' names, each of type T (`["x"]`, `["a", "b"]`).
    pub parameters: &'static [&'static str],
    /// Its result's WGSL type (`bool`), `T` (the element type) or `U` (the
    /// algorithm's output type, given to [`check`]).
    pub returns: &'static str,
}

/// Composes `text` (the caller's function and any helpers) alone, after
/// declaring `alias T = element;` (and `alias U = output;` where given)
/// below it, so that the composer's spans are lines of `text` itself,
/// under the file name `<algorithm> <name>`; then checks that it declares
/// the signature's function.
pub(crate) fn check(
    ctx: &Context,
    signature: &Signature,
    text: &str,
    element: &str,
    output: Option<&str>,
) -> Result<(), Error> {
    let Signature {
        algorithm,
        name,
        parameters,
        returns,
    } = signature;
    if text.contains("#import") {
        return Err(Error::Usage(format!(
            "{algorithm}: the `{name}` function imports nothing (it is a pure function of one element)"
        )));
    }
    let mut source = format!("{text}\nalias T = {element};\n");
    let mut types = format!("T = {element}");
    if let Some(output) = output {
        source.push_str(&format!("alias U = {output};\n"));
        types.push_str(&format!(", U = {output}"));
    }
    let returns_type = match *returns {
        "T" => element,
        "U" => output.unwrap_or("U"),
        scalar => scalar,
    };
    let file_name = format!("{algorithm} `{name}`");
    let module = ctx.compose_text(&source, &file_name)?.module;
    let wrong = || {
        let parameters: Vec<String> = parameters.iter().map(|p| format!("{p}: T")).collect();
        Err(Error::Usage(format!(
            "{algorithm}: the text must declare `fn {name}({}) -> {returns}` ({types})",
            parameters.join(", ")
        )))
    };
    let Some((_, function)) = module
        .functions
        .iter()
        .find(|(_, f)| f.name.as_deref() == Some(name))
    else {
        return wrong();
    };
    let scalar = |ty: naga::Handle<naga::Type>| match module.types[ty].inner {
        naga::TypeInner::Scalar(s) => Some(s),
        _ => None,
    };
    let argument_ok = function.arguments.len() == parameters.len()
        && function
            .arguments
            .iter()
            .all(|a| scalar(a.ty).is_some_and(|s| scalar_name(s) == Some(element)));
    let result_ok = function
        .result
        .as_ref()
        .and_then(|r| scalar(r.ty))
        .is_some_and(|s| scalar_name(s) == Some(returns_type));
    if argument_ok && result_ok {
        Ok(())
    } else {
        wrong()
    }
}

/// The WGSL name of a 32-bit scalar or `bool`.
fn scalar_name(scalar: naga::Scalar) -> Option<&'static str> {
    match scalar {
        naga::Scalar::U32 => Some("u32"),
        naga::Scalar::I32 => Some("i32"),
        naga::Scalar::F32 => Some("f32"),
        naga::Scalar::BOOL => Some("bool"),
        _ => None,
    }
}

/// The WGSL name of a dtype the algorithms take (u32, i32, f32), or an
/// error naming `algorithm` and what it takes.
pub(crate) fn element(
    algorithm: &str,
    dtype: crate::Dtype,
    allowed: &[crate::Dtype],
) -> Result<&'static str, Error> {
    use crate::Dtype;
    if !allowed.contains(&dtype) {
        let names: Vec<String> = allowed.iter().map(|d| d.to_string()).collect();
        return Err(Error::Usage(format!(
            "{algorithm} takes {} elements, not {dtype}",
            names.join(", ")
        )));
    }
    Ok(match dtype {
        Dtype::U32 => "u32",
        Dtype::I32 => "i32",
        _ => "f32",
    })
}
