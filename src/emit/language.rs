//! Emitting one validated module in every shading language naga writes:
//! SPIR-V, MSL, HLSL, GLSL compute, and WGSL in naga's dialect or the
//! browser's (which needs `enable subgroups;`, a directive naga's front end
//! rejects).

use std::fmt;
use std::str::FromStr;

use naga::back;

use crate::error::Error;
use crate::expand::ValidModule;

/// An output language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// SPIR-V 1.3 binary (subgroup operations need 1.3).
    SpirV,
    /// Metal Shading Language 2.4.
    Msl,
    /// HLSL shader model 6.2 (wave intrinsics, 16-bit types).
    Hlsl,
    /// GLSL 4.60 compute, with the subgroup extensions.
    Glsl,
    /// WGSL as naga reads it.
    Wgsl,
    /// WGSL for browsers: `enable subgroups;` (and `f16`) and
    /// `diagnostic(off, subgroup_uniformity);` on top.
    WgslBrowser,
}

impl Language {
    /// Every language.
    pub const ALL: [Language; 6] = [
        Language::SpirV,
        Language::Msl,
        Language::Hlsl,
        Language::Glsl,
        Language::Wgsl,
        Language::WgslBrowser,
    ];

    /// The name the CLI uses.
    pub fn name(self) -> &'static str {
        match self {
            Language::SpirV => "spv",
            Language::Msl => "msl",
            Language::Hlsl => "hlsl",
            Language::Glsl => "glsl",
            Language::Wgsl => "wgsl",
            Language::WgslBrowser => "wgsl-browser",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Language {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Language::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "unknown language `{s}` (expected spv, msl, hlsl, glsl, wgsl or wgsl-browser)"
                ))
            })
    }
}

/// What an emitter produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Emitted {
    /// SPIR-V words.
    Binary(Vec<u32>),
    /// Source text.
    Text(String),
}

impl Emitted {
    /// The bytes to write to a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Emitted::Binary(words) => words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Emitted::Text(text) => text.clone().into_bytes(),
        }
    }
}

/// Writes `module` in `language`. GLSL has one entry point per file: the
/// first compute entry point unless `entry` names one.
pub fn emit(
    module: &ValidModule,
    language: Language,
    entry: Option<&str>,
) -> Result<Emitted, Error> {
    let failed = |e: &dyn fmt::Display| Error::Emit {
        language: language.name(),
        message: e.to_string(),
    };
    let (ir, info) = (&module.module, &module.info);
    match language {
        Language::SpirV => {
            let options = back::spv::Options {
                lang_version: (1, 3),
                ..Default::default()
            };
            back::spv::write_vec(ir, info, &options, None)
                .map(Emitted::Binary)
                .map_err(|e| failed(&e))
        }
        Language::Msl => {
            let options = back::msl::Options {
                lang_version: (2, 4),
                ..Default::default()
            };
            back::msl::write_string(ir, info, &options, &back::msl::PipelineOptions::default())
                .map(|(text, _)| Emitted::Text(text))
                .map_err(|e| failed(&e))
        }
        Language::Hlsl => {
            let options = back::hlsl::Options {
                shader_model: back::hlsl::ShaderModel::V6_2,
                ..Default::default()
            };
            let pipeline = back::hlsl::PipelineOptions::default();
            let mut text = String::new();
            back::hlsl::Writer::new(&mut text, &options, &pipeline)
                .write(ir, info, None)
                .map_err(|e| failed(&e))?;
            Ok(Emitted::Text(text))
        }
        Language::Glsl => {
            let entry_point = ir
                .entry_points
                .iter()
                .find(|e| entry.is_none_or(|name| e.name == name))
                .ok_or_else(|| failed(&"no such entry point"))?;
            let options = back::glsl::Options {
                version: back::glsl::Version::Desktop(460),
                ..Default::default()
            };
            let pipeline = back::glsl::PipelineOptions {
                shader_stage: entry_point.stage,
                entry_point: entry_point.name.clone(),
                multiview: None,
            };
            let mut text = String::new();
            back::glsl::Writer::new(
                &mut text,
                ir,
                info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .and_then(|mut w| w.write())
            .map_err(|e| failed(&e))?;
            Ok(Emitted::Text(text))
        }
        Language::Wgsl | Language::WgslBrowser => {
            let text = back::wgsl::write_string(ir, info, back::wgsl::WriterFlags::empty())
                .map_err(|e| failed(&e))?;
            if language == Language::Wgsl {
                return Ok(Emitted::Text(text));
            }
            let text = exact_f32_max(&text);
            // Off: the strict subgroup uniformity analysis of browsers
            // rejects every subgroup operation after a loop that ends on a
            // subgroup vote (a look-back's spin), though the lanes are
            // converged there. wavekit's contract is a converged subgroup at
            // each subgroup operation, on every target; naga does not run
            // this analysis for the others either.
            // A module without subgroup operations (emulated subgroups)
            // must not ask for the feature: it runs where it is missing.
            let mut directives = if uses_subgroups(&text) {
                String::from("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n")
            } else {
                String::new()
            };
            if uses_f16(ir) && !text.contains("enable f16;") {
                directives.push_str("enable f16;\n");
            }
            Ok(Emitted::Text(directives + &text))
        }
    }
}

/// naga writes an f32 literal in the shortest digits that read back as it,
/// which for the largest finite f32 (a device reduction's identity, CUB's
/// `numeric_limits<float>::max()`) are `340282350000000000000000000000000000000f`:
/// a value above it, which WGSL does not round down, so browsers refuse it
/// ("value cannot be represented as 'f32'"). `text` with that literal
/// written exactly instead (all of f32::MAX's digits, an integer); its
/// negation follows, as the sign is a token of its own.
fn exact_f32_max(text: &str) -> String {
    const SHORTEST: &str = "340282350000000000000000000000000000000f";
    const EXACT: &str = "340282346638528859811704183484516925440f";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(SHORTEST) {
        // Only a whole literal: not the tail of a longer number or a name.
        let whole = !rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        out.push_str(&rest[..at]);
        out.push_str(if whole { EXACT } else { SHORTEST });
        rest = &rest[at + SHORTEST.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether WGSL `text` calls a subgroup builtin (`subgroupAdd`,
/// `subgroupBarrier`, ...: `subgroup` and then a capital letter; or a quad
/// operation) or takes a subgroup builtin value (`@builtin(subgroup_size)`,
/// ...). Identifiers the writer or the user chose (`subgroup`,
/// `subgroup_id`, `wk_em_subgroup`) do not count: emulated subgroups name
/// their state so, and such a module must not ask for the feature.
fn uses_subgroups(text: &str) -> bool {
    let builtin_value = [
        "subgroup_invocation_id",
        "subgroup_size",
        "subgroup_id",
        "num_subgroups",
    ]
    .iter()
    .any(|value| text.contains(&format!("@builtin({value})")));
    builtin_value
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| {
                word.strip_prefix("subgroup")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                    || matches!(
                        word,
                        "quadBroadcast" | "quadSwapX" | "quadSwapY" | "quadSwapDiagonal"
                    )
            })
}

fn uses_f16(module: &naga::Module) -> bool {
    module.types.iter().any(|(_, ty)| {
        matches!(
            ty.inner,
            naga::TypeInner::Scalar(s) | naga::TypeInner::Vector { scalar: s, .. }
                if s == naga::Scalar::F16
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_f32_is_written_exactly_for_browsers() {
        // What naga's writer prints (`{value}f`), and what replaces it.
        assert_eq!(
            format!("{}f", f32::MAX),
            "340282350000000000000000000000000000000f"
        );
        assert_eq!(f32::MAX as u128, 340282346638528859811704183484516925440);
        let text = "const HIGHEST: f32 = 340282350000000000000000000000000000000f;\n\
                    const LOWEST: f32 = -340282350000000000000000000000000000000f;\n\
                    const OTHER: f32 = 1340282350000000000000000000000000000000f;\n";
        assert_eq!(
            exact_f32_max(text),
            "const HIGHEST: f32 = 340282346638528859811704183484516925440f;\n\
             const LOWEST: f32 = -340282346638528859811704183484516925440f;\n\
             const OTHER: f32 = 1340282350000000000000000000000000000000f;\n"
        );
    }
}
