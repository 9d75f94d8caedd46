//! The bind group layouts of the runner's wgpu pipelines: one per group
//! from 0 to the highest the module declares (empty ones in the gaps, so
//! every group index has a layout and a bind group), each with every
//! storage and uniform buffer of its group, used or not, so callers can
//! bind buffers by slot whatever the entry point touches.

use super::layout::BufferBinding;
use crate::error::Error;

/// The layout entries of each bind group, indexed by group: at least one
/// (group 0, empty for a module without buffers).
pub(super) fn group_entries(declared: &[BufferBinding]) -> Vec<Vec<wgpu::BindGroupLayoutEntry>> {
    let groups = declared.iter().map(|d| d.group + 1).max().unwrap_or(1);
    (0..groups)
        .map(|group| {
            declared
                .iter()
                .filter(|d| d.group == group)
                .map(|d| wgpu::BindGroupLayoutEntry {
                    binding: d.binding,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: if d.uniform {
                            wgpu::BufferBindingType::Uniform
                        } else {
                            wgpu::BufferBindingType::Storage {
                                read_only: !d.writable,
                            }
                        },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                })
                .collect()
        })
        .collect()
}

/// Refuses a module whose highest group is beyond the device's
/// `max_bind_groups`, naming the variable, before wgpu fails the pipeline.
pub(super) fn check_groups(
    entry: &str,
    declared: &[BufferBinding],
    max_bind_groups: u32,
) -> Result<(), Error> {
    match declared.iter().max_by_key(|d| d.group) {
        Some(d) if d.group >= max_bind_groups => Err(Error::Gpu(format!(
            "pipeline `{entry}`: `{}` is in @group({}), the device binds groups 0 to {} \
             (max_bind_groups {max_bind_groups})",
            d.name,
            d.group,
            max_bind_groups.saturating_sub(1)
        ))),
        _ => Ok(()),
    }
}
