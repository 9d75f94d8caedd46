//! Forwarding functions: a short name for an instance whose mangled name is
//! longer than a call site it must replace. Each such instance gets one
//! forwarder, `wk` and a base-36 number counting the forwarders before it,
//! so names stay unique at any number of calls; the forwarder calls the
//! mangled name with the same arguments and returns its result.

use std::collections::HashMap;

use crate::catalog::Ret;
use crate::expand::Instance;

/// The forwarders of one composition, in the order they were first named.
#[derive(Debug, Default)]
pub(super) struct Forwarders {
    /// Their WGSL, one function after another.
    wgsl: String,
    /// The forwarder's name by the instance's mangled name.
    names: HashMap<String, String>,
}

impl Forwarders {
    /// The name of `instance`'s forwarder, declared on its first call:
    /// `wk0`, `wk1`, ... in order of first request, the same name for every
    /// later request of the same instance.
    pub(super) fn name(&mut self, instance: &Instance) -> String {
        let count = self.names.len();
        let wgsl = &mut self.wgsl;
        self.names
            .entry(instance.mangled_name())
            .or_insert_with(|| {
                let name = format!("wk{}", base36(count));
                wgsl.push_str(&forwarder(&name, instance));
                name
            })
            .clone()
    }

    /// The WGSL of every forwarder named so far (empty if none), each
    /// function ending in a newline.
    pub(super) fn wgsl(&self) -> &str {
        &self.wgsl
    }
}

/// `n` in base 36, digits `0-9a-z`, most significant first, no leading
/// zeros (`0` for zero).
fn base36(mut n: usize) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// `fn name(args) -> R { return mangled(args); }` for `instance`.
fn forwarder(name: &str, instance: &Instance) -> String {
    let t = instance.dtype.map_or("", |d| d.wgsl());
    let v = instance.value_dtype.map_or("", |d| d.wgsl());
    let params: Vec<(&str, String)> = instance
        .primitive
        .args
        .iter()
        .map(|a| {
            let (name, ty) = a.name_and_type();
            // Named constants stand for themselves in array types
            // (`array<T, items>`).
            let ty = instance
                .constants
                .iter()
                .fold(ty.replace('T', t).replace('V', v), |ty, (c, value)| {
                    ty.replace(c, &value.to_string())
                });
            (name, ty)
        })
        .collect();
    let declared: Vec<String> = params.iter().map(|(n, ty)| format!("{n}: {ty}")).collect();
    let passed: Vec<&str> = params.iter().map(|(n, _)| *n).collect();
    let call = format!("{}({})", instance.mangled_name(), passed.join(", "));
    match instance.primitive.ret {
        Ret::Nothing => format!("fn {name}({}) {{\n    {call};\n}}\n", declared.join(", ")),
        ret => {
            let ty = match ret {
                Ret::KeyValue => format!("wk_sg_kv__{t}__{v}"),
                other => other.wgsl().replace('T', t),
            };
            format!(
                "fn {name}({}) -> {ty} {{\n    return {call};\n}}\n",
                declared.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base36_counts_without_leading_zeros() {
        let names: Vec<String> = [0, 9, 10, 35, 36, 1295, 1296].map(base36).to_vec();
        assert_eq!(names, ["0", "9", "a", "z", "10", "zz", "100"]);
    }
}
