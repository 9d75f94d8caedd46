//! Module-scope `alias` and `const` declarations of the user's shader that
//! template arguments may name: with `alias T = f32;` and
//! `const BLOCK = 256u;`, `blk::reduce_add<T, BLOCK>(x)` is
//! `blk::reduce_add<f32, 256>(x)`. A shader can so be written once for a
//! dtype and a block size and retargeted by editing one declaration.

use std::collections::HashMap;

use crate::expand::{TemplateArg, parse_template_arg};

/// The aliases of dtypes and the integer constants declared at module scope
/// (lines starting with `alias` or `const`, outside comments), by name. An
/// alias of an alias (`alias U = T;`) is the dtype the chain ends in.
pub(super) fn declarations(source: &str) -> HashMap<String, TemplateArg> {
    let mut found = HashMap::new();
    // `alias U = T;`: U and T, resolved once every line is read.
    let mut chained: Vec<(String, String)> = Vec::new();
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
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let arg = match (keyword, parse_template_arg(value)) {
            ("alias", Some(arg @ TemplateArg::Dtype(_))) => arg,
            ("const", Some(arg @ TemplateArg::Int(_))) => arg,
            ("alias", _) => {
                chained.push((name.to_string(), value.to_string()));
                continue;
            }
            _ => continue,
        };
        found.insert(name.to_string(), arg);
    }
    // Each round resolves the aliases whose target is known: a chain of k
    // aliases takes k rounds, a cycle none.
    for _ in 0..chained.len() {
        let known: Vec<(String, TemplateArg)> = chained
            .iter()
            .filter_map(|(name, target)| {
                let arg = found
                    .get(target)
                    .filter(|a| matches!(a, TemplateArg::Dtype(_)))?;
                Some((name.clone(), arg.clone()))
            })
            .collect();
        found.extend(known);
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
        // Aliases of aliases, in any order; a cycle and a vector name none.
        let found = declarations(
            "alias V = U;\nalias U = T;\nalias T = i32;\nalias A = B;\nalias B = A;\n\
             alias W = vec4<T>;\n",
        );
        assert_eq!(found.get("U"), Some(&TemplateArg::Dtype(Dtype::I32)));
        assert_eq!(found.get("V"), Some(&TemplateArg::Dtype(Dtype::I32)));
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
