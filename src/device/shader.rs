//! [`Shader`]: one of the device shaders with its parameters set by name —
//! how every algorithm configures what it composes.
//!
//! A parameter is a module-scope declaration of the shader's own file,
//! which states its default once: a `const` or an `alias` on one line
//! (`const INCLUSIVE = false;`, `alias T = u32;`), whose value
//! [`Shader::set`] replaces, or a one-line default function
//! (`fn keep(x: T) -> bool { ... }`), which [`Shader::function`] replaces
//! with the caller's declaration. A parameter that is not declared exactly
//! once is an error naming the file and the parameter. (WGSL's `override`
//! cannot carry the choices these shaders make: types (`alias T`), the
//! sizes of private arrays, whole functions.)

use std::fmt::Display;

use super::shaders;
use crate::error::Error;

/// A device shader (a file of `shaders/` with the files its header
/// appends) and the values given to its parameters.
#[derive(Clone, Debug)]
pub(crate) struct Shader {
    name: &'static str,
    text: String,
    params: Vec<Param>,
    /// [`debug::with_shader_params`](super::debug::with_shader_params)'s
    /// values when the shader was made: set last, where declared.
    overrides: Vec<(&'static str, String)>,
}

/// One parameter given a value.
#[derive(Clone, Debug)]
enum Param {
    /// A `const` or `alias` and its new value (the text after `=`).
    Value(&'static str, String),
    /// A one-line function and the declaration that replaces it.
    Function(&'static str, String),
}

impl Shader {
    /// Shader file `name` of `shaders/`, with what its header appends.
    pub fn new(name: &'static str) -> Result<Self, Error> {
        Ok(Shader {
            name,
            text: shaders::source(name)?,
            params: Vec::new(),
            overrides: super::debug::shader_params(),
        })
    }

    /// The shader's text changed as a whole by `change` (every read-only
    /// binding made writable, 64-bit keys): before any parameter is set.
    pub fn map(
        mut self,
        change: impl FnOnce(&str) -> Result<String, Error>,
    ) -> Result<Self, Error> {
        self.text = change(&self.text)?;
        Ok(self)
    }

    /// `const NAME` (or `alias NAME`) given `value`, as WGSL writes it
    /// (`8u`, `true`, `f32`).
    pub fn set(mut self, name: &'static str, value: impl Display) -> Self {
        self.params.push(Param::Value(name, value.to_string()));
        self
    }

    /// Each of `params`, as [`Shader::set`].
    pub fn set_all(self, params: impl IntoIterator<Item = (&'static str, String)>) -> Self {
        params
            .into_iter()
            .fold(self, |shader, (name, value)| shader.set(name, value))
    }

    /// Function `name`'s one-line default replaced by `declaration` (the
    /// caller's `fn name(...) ... { ... }`, any number of lines).
    pub fn function(mut self, name: &'static str, declaration: impl Into<String>) -> Self {
        self.params.push(Param::Function(name, declaration.into()));
        self
    }

    /// The value `const NAME` gets as a u32 (`4u`, `4`): the last of
    /// [`Shader::set`]'s and the debug overrides' values, else the file's
    /// default. For hosts whose dispatch follows a constant that
    /// [`debug::with_shader_params`](super::debug::with_shader_params) may
    /// change. An error names the file and the parameter when it is not
    /// declared once or its value is not a u32.
    pub fn u32_value(&self, name: &'static str) -> Result<u32, Error> {
        let text = self.text()?;
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let line = &lines[self.find(&lines, name, declares_value)?];
        let range = value_range(line).ok_or_else(|| self.malformed(name))?;
        let value = line[range].trim();
        value.trim_end_matches('u').parse().map_err(|_| {
            Error::Usage(format!(
                "{}: the parameter `{name}` is `{value}`, not a u32",
                self.name
            ))
        })
    }

    /// The values of `params` (each a `const` name, the range the host
    /// accepts and the unit its value counts, as `"elements per thread"`),
    /// as [`Shader::u32_value`] reads them. One out of its range is an
    /// [`Error::Usage`] from `algorithm` naming every parameter's value and
    /// range: `"{algorithm}: ITEMS = 0 elements per thread: it takes 1 to
    /// 32"` (with several, `"... and MAX_PARTIALS = 1056 workgroups: they
    /// take 1 to 32 and 1 to 8192"`).
    pub fn u32_values_in<const N: usize>(
        &self,
        algorithm: &str,
        params: [(&'static str, std::ops::RangeInclusive<u32>, &str); N],
    ) -> Result<[u32; N], Error> {
        let mut values = [0; N];
        for (value, (name, _, _)) in values.iter_mut().zip(&params) {
            *value = self.u32_value(name)?;
        }
        if values
            .iter()
            .zip(&params)
            .all(|(value, (_, range, _))| range.contains(value))
        {
            return Ok(values);
        }
        let shown: Vec<String> = values
            .iter()
            .zip(&params)
            .map(|(value, (name, _, unit))| format!("{name} = {value} {unit}"))
            .collect();
        let ranges: Vec<String> = params
            .iter()
            .map(|(_, range, _)| format!("{} to {}", range.start(), range.end()))
            .collect();
        let verb = if N == 1 { "it takes" } else { "they take" };
        Err(Error::Usage(format!(
            "{algorithm}: {}: {verb} {}",
            shown.join(" and "),
            ranges.join(" and ")
        )))
    }

    /// The file's name, for error locations.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The text with every parameter set.
    pub fn text(&self) -> Result<String, Error> {
        let mut lines: Vec<String> = self.text.lines().map(str::to_string).collect();
        let overrides = self
            .overrides
            .iter()
            .filter(|(name, _)| lines.iter().any(|line| declares_value(line, name)))
            .map(|(name, value)| Param::Value(name, value.clone()));
        let params: Vec<Param> = self.params.iter().cloned().chain(overrides).collect();
        for param in &params {
            let (name, found) = match param {
                Param::Value(name, _) => (*name, self.find(&lines, name, declares_value)?),
                Param::Function(name, _) => (*name, self.find(&lines, name, declares_function)?),
            };
            lines[found] = match param {
                Param::Value(_, value) => {
                    let line = &lines[found];
                    let range = value_range(line).ok_or_else(|| self.malformed(name))?;
                    format!("{} {value}{}", &line[..range.start], &line[range.end..])
                }
                Param::Function(_, declaration) => declaration.clone(),
            };
        }
        let mut text = lines.join("\n");
        text.push('\n');
        Ok(text)
    }

    /// The one line of `lines` that `declares` parameter `name`.
    fn find(
        &self,
        lines: &[String],
        name: &str,
        declares: fn(&str, &str) -> bool,
    ) -> Result<usize, Error> {
        let found: Vec<usize> = (0..lines.len())
            .filter(|&i| declares(&lines[i], name))
            .collect();
        match found[..] {
            [line] => Ok(line),
            _ => Err(Error::Usage(format!(
                "{}: the parameter `{name}` is declared {} times at module scope, not once",
                self.name,
                found.len()
            ))),
        }
    }

    /// The error for a declaration of `name` this cannot set.
    fn malformed(&self, name: &str) -> Error {
        Error::Usage(format!(
            "{}: the parameter `{name}` is not declared on one line (`const {name} = ...;`)",
            self.name
        ))
    }
}

/// Where a one-line `const` or `alias` declaration's value lies: after
/// its `=`, up to its `;`.
fn value_range(line: &str) -> Option<std::ops::Range<usize>> {
    let (Some(eq), Some(end)) = (line.find('='), line.rfind(';')) else {
        return None;
    };
    Some(eq + 1..end)
}

/// Whether `line` declares `const NAME` or `alias NAME` at module scope
/// (from the line's first column).
fn declares_value(line: &str, name: &str) -> bool {
    ["const ", "alias "].iter().any(|keyword| {
        line.strip_prefix(keyword)
            .and_then(|rest| rest.strip_prefix(name))
            .is_some_and(|rest| rest.starts_with([' ', ':', '=']))
    })
}

/// Whether `line` is a one-line module-scope function `name`.
fn declares_function(line: &str, name: &str) -> bool {
    line.strip_prefix("fn ")
        .and_then(|rest| rest.strip_prefix(name))
        .is_some_and(|rest| rest.starts_with('(') && line.trim_end().ends_with('}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_parameters_by_name() {
        let shader = Shader::new("compact.wgsl")
            .unwrap()
            .set("T", "i32")
            .set("RUN_STARTS", true)
            .function("keep", "fn keep(x: T) -> bool {\n    return x > 0;\n}");
        let text = shader.text().unwrap();
        assert!(text.contains("\nalias T = i32;"));
        assert!(text.contains("\nconst RUN_STARTS = true;"));
        assert!(text.contains("\nfn keep(x: T) -> bool {\n    return x > 0;\n}\n"));
        assert!(!text.contains("0x80000000u; }"));
        // The look-back's own parameters are in the appended file.
        let walk = Shader::new("compact.wgsl").unwrap().set("SPINS", "8u");
        assert!(walk.text().unwrap().contains("\nconst SPINS = 8u;"));
    }

    #[test]
    fn u32_values_follow_the_last_setting() {
        let shader = Shader::new("contact_sort.wgsl").unwrap();
        assert_eq!(shader.u32_value("ITEMS").unwrap(), 1, "the file's default");
        let shader = shader.set("ITEMS", "2u").set("ITEMS", 4);
        assert_eq!(shader.u32_value("ITEMS").unwrap(), 4, "the last set");
        let debug = super::super::debug::with_shader_params(vec![("ITEMS", "8u".into())], || {
            Shader::new("contact_sort.wgsl").unwrap().set("ITEMS", "2u")
        });
        assert_eq!(debug.u32_value("ITEMS").unwrap(), 8, "the override");
        assert!(debug.text().unwrap().contains("\nconst ITEMS = 8u;"));
        let error = shader
            .set("ITEMS", "true")
            .u32_value("ITEMS")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("contact_sort.wgsl: the parameter `ITEMS` is `true`, not a u32"),
            "{error}"
        );
        let error = Shader::new("contact_sort.wgsl")
            .unwrap()
            .u32_value("NOT_THERE")
            .unwrap_err()
            .to_string();
        assert!(error.contains("`NOT_THERE` is declared 0 times"), "{error}");
    }

    #[test]
    fn a_parameter_not_declared_once_is_an_error() {
        let error = Shader::new("scan.wgsl")
            .unwrap()
            .set("NOT_THERE", 1)
            .text()
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("scan.wgsl: the parameter `NOT_THERE` is declared 0 times"),
            "{error}"
        );
        // Prefixes are not names: `LOG2_TILE` is no `LOG2`.
        let error = Shader::new("contact_sort.wgsl")
            .unwrap()
            .set("LOG2", "1u")
            .text()
            .unwrap_err()
            .to_string();
        assert!(error.contains("`LOG2` is declared 0 times"), "{error}");
    }
}
