//! Requests for instances, as text (`reduce_add_tiled<f32, 3>`) or values.

use std::fmt;
use std::str::FromStr;

use crate::dtype::Dtype;
use crate::error::Error;

/// One template argument at a call site.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TemplateArg {
    /// A dtype (`f32`).
    Dtype(Dtype),
    /// An integer (`3`).
    Int(i64),
    /// The name of a user WGSL function (`my_max`), for generic operators.
    Name(String),
}

impl fmt::Display for TemplateArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateArg::Dtype(d) => write!(f, "{d}"),
            TemplateArg::Int(n) => write!(f, "{n}"),
            TemplateArg::Name(name) => f.write_str(name),
        }
    }
}

impl From<Dtype> for TemplateArg {
    fn from(d: Dtype) -> Self {
        TemplateArg::Dtype(d)
    }
}

impl From<u32> for TemplateArg {
    fn from(n: u32) -> Self {
        TemplateArg::Int(i64::from(n))
    }
}

/// An op name with its template arguments, not yet checked against the catalog.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceSpec {
    /// Catalog name.
    pub op: String,
    /// Template arguments in call order.
    pub args: Vec<TemplateArg>,
}

impl InstanceSpec {
    /// A request for `op` with `args`.
    pub fn new(op: impl Into<String>, args: impl IntoIterator<Item = TemplateArg>) -> Self {
        InstanceSpec {
            op: op.into(),
            args: args.into_iter().collect(),
        }
    }
}

impl fmt::Display for InstanceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.op)?;
        if !self.args.is_empty() {
            let args: Vec<String> = self.args.iter().map(ToString::to_string).collect();
            write!(f, "<{}>", args.join(", "))?;
        }
        Ok(())
    }
}

/// Parses one template argument: a dtype name, a decimal integer (a WGSL
/// `u` / `i` suffix is accepted), or a function name: an identifier without
/// `__`, which mangled names use as their separator.
pub fn parse_template_arg(text: &str) -> Option<TemplateArg> {
    let text = text.trim();
    if let Ok(d) = text.parse::<Dtype>() {
        return Some(TemplateArg::Dtype(d));
    }
    let digits = text.strip_suffix(['u', 'i']).unwrap_or(text);
    if let Ok(n) = digits.parse::<i64>() {
        return Some(TemplateArg::Int(n));
    }
    let is_identifier = text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !text.contains("__");
    is_identifier.then(|| TemplateArg::Name(text.to_string()))
}

impl FromStr for InstanceSpec {
    type Err = Error;

    /// `name` or `name<arg, ...>`.
    fn from_str(text: &str) -> Result<Self, Error> {
        let bad = |reason: &str| Error::BadSpec {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let text_trimmed = text.trim();
        let (op, args) = match text_trimmed.find('<') {
            None => (text_trimmed, ""),
            Some(open) => {
                let inner = text_trimmed[open + 1..]
                    .strip_suffix('>')
                    .ok_or_else(|| bad("missing closing `>`"))?;
                (&text_trimmed[..open], inner)
            }
        };
        let op = op.trim();
        let (_, bare) = crate::catalog::split_namespace(op);
        if bare.is_empty() || !bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad(
                "the op name must be an identifier, optionally `subgroup::`, `block::` or `grid::` qualified",
            ));
        }
        let args = if args.trim().is_empty() {
            Vec::new()
        } else {
            args.split(',')
                .map(|a| {
                    parse_template_arg(a).ok_or_else(|| {
                        bad(&format!("`{}` is neither a dtype nor an integer", a.trim()))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        Ok(InstanceSpec::new(op, args))
    }
}
