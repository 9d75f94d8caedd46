//! Parsing and validating WGSL with naga under a target's capabilities.

use naga::valid::{ModuleInfo, ValidationFlags, Validator};

use crate::error::Error;
use crate::target::Target;

/// A naga module that passed validation, with its analysis.
#[derive(Debug)]
pub struct ValidModule {
    /// The IR.
    pub module: naga::Module,
    /// naga's analysis (uniformity, expression types).
    pub info: ModuleInfo,
    /// The WGSL it was parsed from.
    pub source: String,
    /// The target it was expanded and validated for: its subgroup size is
    /// the one the library code in it assumes, so a device must run it
    /// (`Gpu::kernel` refuses a module whose size the device does not run).
    pub target: Target,
}

/// Parses and validates a composed shader: `composed` is the user's code
/// (its first `user_len` bytes, at the same offsets as in `original`) then
/// the library. `rewrite` edits the parsed module before validation.
/// Diagnostics whose spans all fall in the user's code are rendered
/// against `original`, so they show the user's own lines.
pub fn validate_composed(
    composed: &str,
    original: &str,
    user_len: usize,
    file_name: &str,
    target: &Target,
    rewrite: &dyn Fn(&mut naga::Module),
) -> Result<ValidModule, Error> {
    let text_for = |ends: Vec<usize>| {
        if ends.iter().all(|&end| end <= user_len) {
            original
        } else {
            composed
        }
    };
    let mut module = naga::front::wgsl::parse_str(composed).map_err(|e| {
        let text = text_for(
            e.labels()
                .map(|(span, _)| span.to_range().map_or(0, |r| r.end))
                .collect(),
        );
        Error::Wgsl {
            rendered: e.emit_to_string_with_path(text, file_name),
        }
    })?;
    super::rewrite::memory_fences(&mut module);
    rewrite(&mut module);
    let info = validator(target).validate(&module).map_err(|e| {
        let text = text_for(
            e.spans()
                .map(|(span, _)| span.to_range().map_or(0, |r| r.end))
                .collect(),
        );
        Error::Wgsl {
            rendered: e.emit_to_string_with_path(text, file_name),
        }
    })?;
    Ok(ValidModule {
        module,
        info,
        source: composed.to_string(),
        target: target.clone(),
    })
}

fn validator(target: &Target) -> Validator {
    let mut validator = Validator::new(ValidationFlags::all(), target.naga_capabilities());
    validator.subgroup_stages(naga::valid::ShaderStages::COMPUTE);
    validator.subgroup_operations(naga::valid::SubgroupOperationSet::all());
    validator
}

/// Parses `source` and validates it with the capabilities of `target`.
/// Errors are naga's diagnostics rendered against `file_name`.
pub fn validate_wgsl(source: &str, file_name: &str, target: &Target) -> Result<ValidModule, Error> {
    validate_composed(source, source, source.len(), file_name, target, &|_| {})
}

impl ValidModule {
    /// The module after `edit`, validated again for its target. `edit` must
    /// keep a valid module valid: an error here is wavekit's bug, rendered
    /// against the module's source for the report.
    pub(crate) fn rewritten(
        mut self,
        file_name: &str,
        edit: impl FnOnce(&mut naga::Module),
    ) -> Result<ValidModule, Error> {
        edit(&mut self.module);
        self.info = validator(&self.target)
            .validate(&self.module)
            .map_err(|e| Error::Wgsl {
                rendered: e.emit_to_string_with_path(&self.source, file_name),
            })?;
        Ok(self)
    }

    /// Bytes of workgroup memory the module declares (`var<workgroup>`),
    /// laid out as naga lays them out.
    pub fn workgroup_memory_bytes(&self) -> u32 {
        self.workgroup_memory_of(|_| true)
    }

    /// Bytes of workgroup memory entry point `entry` takes: the workgroup
    /// variables it (or a function it calls) uses, as a device allocates
    /// them per workgroup; `None` without such an entry.
    pub fn entry_workgroup_memory_bytes(&self, entry: &str) -> Option<u32> {
        let index = self
            .module
            .entry_points
            .iter()
            .position(|e| e.name == entry)?;
        let uses = self.info.get_entry_point(index);
        Some(self.workgroup_memory_of(|var| !uses[var].is_empty()))
    }

    /// Bytes of the workgroup variables `counted` takes, laid out as naga
    /// lays them out.
    fn workgroup_memory_of(
        &self,
        counted: impl Fn(naga::Handle<naga::GlobalVariable>) -> bool,
    ) -> u32 {
        let mut layouter = naga::proc::Layouter::default();
        if layouter.update(self.module.to_ctx()).is_err() {
            return 0;
        }
        self.module
            .global_variables
            .iter()
            .filter(|(handle, var)| var.space == naga::AddressSpace::WorkGroup && counted(*handle))
            .map(|(_, var)| layouter[var.ty].size)
            .sum()
    }
}
