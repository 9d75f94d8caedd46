//! Host-side checks before a dispatch, the same on every back end: the
//! buffers bound against the bindings the shader declares (present, not
//! extra, big enough, an output only where the shader writes) and the
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
    /// `@binding` number (group 0).
    pub binding: u32,
    /// Size in bytes.
    pub bytes: u64,
    /// Whether the caller reads it back as an output.
    pub output: bool,
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
    if let Some(other) = declared.iter().find(|d| d.group != 0) {
        return fail(format!(
            "`{}` is in @group({}): the runner binds group 0 only",
            other.name, other.group
        ));
    }
    for b in bound {
        if !declared.iter().any(|d| d.binding == b.binding) {
            let known: Vec<String> = declared.iter().map(|d| d.binding.to_string()).collect();
            return fail(format!(
                "a buffer is bound at @binding({}), which the shader does not declare (it declares {})",
                b.binding,
                if known.is_empty() {
                    "no buffers".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
    }
    for d in declared {
        let Some(b) = bound.iter().find(|b| b.binding == d.binding) else {
            return fail(format!(
                "@binding({}) (`{}`) has no buffer: every declared binding needs one",
                d.binding, d.name
            ));
        };
        if b.output && !d.writable {
            return fail(format!(
                "@binding({}) (`{}`) is read-only in the shader: an output there would stay zero",
                d.binding, d.name
            ));
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
                "@binding({}) (`{}`) has a buffer of {} bytes, the shader needs {what}",
                d.binding, d.name, b.bytes
            ));
        }
        if b.bytes > limits.max_storage_binding {
            return fail(format!(
                "@binding({}) (`{}`) has a buffer of {} bytes: the device binds at most {} bytes \
                 (max_storage_buffer_binding_size)",
                d.binding, d.name, b.bytes, limits.max_storage_binding
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
