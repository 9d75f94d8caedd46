//! Module-scope `alias` and `const` declarations of the user's shader that
//! template arguments may name: with `alias T = f32;` and
//! `const BLOCK = 256u;`, `blk::reduce_add<T, BLOCK>(x)` is
//! `blk::reduce_add<f32, 256>(x)`. A shader can so be written once for a
//! dtype and a block size and retargeted by editing one declaration.

use std::collections::HashMap;

use crate::expand::{TemplateArg, parse_template_arg};

/// The aliases of dtypes and the integer constants declared at module scope
/// (lines starting with `alias` or `const`, outside comments), by name.
pub(super) fn declarations(source: &str) -> HashMap<String, TemplateArg> {
    let mut found = HashMap::new();
    for line in source.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        let (keyword, rest) = match line.split_once(char::is_whitespace) {
            Some((k @ ("alias" | "const"), rest)) => (k, rest),
            _ => continue,
        };
        let Some((name, value)) = rest.split_once('=') else {
            continue;
        };
        // `const BLOCK: u32 = 256u;` carries a type after the name.
        let name = name.split(':').next().unwrap_or("").trim();
        let value = value.trim().trim_end_matches(';').trim();
        let arg = match (keyword, parse_template_arg(value)) {
            ("alias", Some(arg @ TemplateArg::Dtype(_))) => arg,
            ("const", Some(arg @ TemplateArg::Int(_))) => arg,
            _ => continue,
        };
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            found.insert(name.to_string(), arg);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dtype;

    #[test]
    fn finds_dtype_aliases_and_integer_constants() {
        let found = declarations(
            "alias T = u32;\nconst BLOCK: u32 = 256u;\nconst ITEMS = 4;\n\
             // alias C = f32;\nalias V = vec4<f32>;\nconst F = 1.5;\nfn f() { let x = 1; }\n",
        );
        assert_eq!(found.get("T"), Some(&TemplateArg::Dtype(Dtype::U32)));
        assert_eq!(found.get("BLOCK"), Some(&TemplateArg::Int(256)));
        assert_eq!(found.get("ITEMS"), Some(&TemplateArg::Int(4)));
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
