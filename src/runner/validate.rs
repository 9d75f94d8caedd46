//! Host-side checks before a dispatch, the same on every back end: the
//! buffers bound against the bindings the shader declares, in any bind
//! group (present, not extra, bound once, big enough, read back only where
//! the shader writes, a uniform exactly where and as big as the shader
//! declares one) and the
//! workgroup counts and buffer sizes against the device's limits. Each
//! error names the number and the limit, where wgpu would bury the same
//! fact in a validation message and CUDA or HIP would read out of bounds.

use super::layout::BufferBinding;
use crate::error::Error;

/// The limits a dispatch is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Most workgroups per dispatch in x, y and z.
    pub max_workgroups: [u32; 3],
    /// Largest buffer the device allocates, in bytes.
    pub max_buffer_size: u64,
    /// Largest storage buffer one binding may cover, in bytes.
    pub max_storage_binding: u64,
}

impl DeviceLimits {
    /// CUDA's and HIP's grid limits (2^31 - 1 × 65535 × 65535 blocks); no
    /// buffer limit beyond the device's memory, which the allocation
    /// reports itself.
    pub const NATIVE: DeviceLimits = DeviceLimits {
        max_workgroups: [i32::MAX as u32, 65535, 65535],
        max_buffer_size: u64::MAX,
        max_storage_binding: u64::MAX,
    };

    /// The limits wgpu reports for a device.
    pub fn of_wgpu(limits: &wgpu::Limits) -> DeviceLimits {
        let per_dimension = limits.max_compute_workgroups_per_dimension;
        DeviceLimits {
            max_workgroups: [per_dimension; 3],
            max_buffer_size: limits.max_buffer_size,
            max_storage_binding: limits.max_storage_buffer_binding_size,
        }
    }

    /// Refuses a buffer of `bytes` the device cannot allocate.
    pub fn check_buffer(&self, bytes: u64) -> Result<(), Error> {
        if bytes > self.max_buffer_size {
            return Err(Error::Usage(format!(
                "a buffer of {bytes} bytes: the device's largest buffer (max_buffer_size) is {} bytes",
                self.max_buffer_size
            )));
        }
        Ok(())
    }
}

/// A buffer bound for a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// `@group` number.
    pub group: u32,
    /// `@binding` number.
    pub binding: u32,
    /// Size in bytes.
    pub bytes: u64,
    /// How it is filled and whether it is read back.
    pub kind: BoundKind,
}

/// What a bound buffer is, as [`super::Binding`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// A storage buffer, not read back.
    Input,
    /// A zero-filled storage buffer, read back.
    Output,
    /// A storage buffer initialised from data and read back.
    ReadWrite,
    /// A uniform buffer.
    Uniform,
}

/// How errors name a slot: `@binding(b)` in group 0 (as they always
/// have), `@group(g) @binding(b)` in the others.
fn slot(group: u32, binding: u32) -> String {
    if group == 0 {
        format!("@binding({binding})")
    } else {
        format!("@group({group}) @binding({binding})")
    }
}

/// Checks one dispatch of entry point `entry`, whose module declares
/// `declared`, with `bound` buffers over `workgroups`.
pub fn check_dispatch(
    entry: &str,
    declared: &[BufferBinding],
    bound: &[Bound],
    workgroups: [u32; 3],
    limits: &DeviceLimits,
) -> Result<(), Error> {
    let fail = |message: String| {
        Err(Error::Dispatch {
            entry: entry.to_string(),
            message,
        })
    };
    for (axis, (count, max)) in ["x", "y", "z"]
        .iter()
        .zip(workgroups.iter().zip(limits.max_workgroups))
    {
        if *count > max {
            return fail(format!(
                "{count} workgroups in {axis}: the device dispatches at most {max} per dimension"
            ));
        }
    }
    for (i, b) in bound.iter().enumerate() {
        let at = slot(b.group, b.binding);
        if !declared
            .iter()
            .any(|d| d.group == b.group && d.binding == b.binding)
        {
            let all_in_0 = declared.iter().all(|d| d.group == 0);
            let known: Vec<String> = declared
                .iter()
                .map(|d| {
                    if all_in_0 {
                        d.binding.to_string()
                    } else {
                        slot(d.group, d.binding)
                    }
                })
                .collect();
            return fail(format!(
                "a buffer is bound at {at}, which the shader does not declare (it declares {})",
                if known.is_empty() {
                    "no buffers".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
        if bound[..i]
            .iter()
            .any(|o| o.group == b.group && o.binding == b.binding)
        {
            return fail(format!(
                "two buffers are bound at {at}: bind each slot once"
            ));
        }
    }
    for d in declared {
        let at = slot(d.group, d.binding);
        let Some(b) = bound
            .iter()
            .find(|b| b.group == d.group && b.binding == d.binding)
        else {
            return fail(format!(
                "{at} (`{}`) has no buffer: every declared binding needs one",
                d.name
            ));
        };
        match (d.uniform, b.kind) {
            (true, BoundKind::Uniform) => {
                if b.bytes != u64::from(d.fixed_bytes) {
                    return fail(format!(
                        "{at} (`{}`) is a uniform of {} bytes (its type's size), the buffer has {}",
                        d.name, d.fixed_bytes, b.bytes
                    ));
                }
                continue;
            }
            (true, _) => {
                return fail(format!(
                    "{at} (`{}`) is a `var<uniform>`: it takes a uniform buffer, not a storage one",
                    d.name
                ));
            }
            (false, BoundKind::Uniform) => {
                return fail(format!(
                    "{at} (`{}`) is a storage buffer: it takes a storage buffer, not a uniform",
                    d.name
                ));
            }
            (false, BoundKind::Output) if !d.writable => {
                return fail(format!(
                    "{at} (`{}`) is read-only in the shader: an output there would stay zero",
                    d.name
                ));
            }
            (false, BoundKind::ReadWrite) if !d.writable => {
                return fail(format!(
                    "{at} (`{}`) is read-only in the shader: reading it back would return its \
                     input unchanged",
                    d.name
                ));
            }
            (false, _) => {}
        }
        let needed = u64::from(d.fixed_bytes) + u64::from(d.runtime_stride.unwrap_or(0));
        if b.bytes < needed {
            let what = match d.runtime_stride {
                Some(stride) => format!(
                    "{} bytes plus at least one {stride}-byte element",
                    d.fixed_bytes
                ),
                None => format!("{} bytes", d.fixed_bytes),
            };
            return fail(format!(
                "{at} (`{}`) has a buffer of {} bytes, the shader needs {what}",
                d.name, b.bytes
            ));
        }
        if b.bytes > limits.max_storage_binding {
            return fail(format!(
                "{at} (`{}`) has a buffer of {} bytes: the device binds at most {} bytes \
                 (max_storage_buffer_binding_size)",
                d.name, b.bytes, limits.max_storage_binding
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
