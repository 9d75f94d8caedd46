//! Buffers of a native (CUDA, HIP) launch: the bindings, at their slots in
//! any bind group, matched to the kernel ABI's buffer order (every storage
//! and uniform buffer, by group then binding) and size-checked.

use wavekit_native::abi::KernelAbi;

use super::{Binding, Slot};
use crate::error::Error;

/// Host copies of a launch's buffers in ABI order, and where the buffers
/// read back are.
pub(super) struct NativeBuffers {
    /// Inputs, read-write buffers and uniforms copied, outputs zeroed; the
    /// launch copies results back here.
    pub(super) buffers: Vec<Vec<u8>>,
    /// Index in the caller's list, index in `buffers` and byte size of
    /// each buffer read back.
    read_back: Vec<(usize, usize, usize)>,
}

impl NativeBuffers {
    /// Matches `bound` to `abi`'s parameters by slot, checking each
    /// buffer's size against its binding. The runner's host-side checks
    /// ran first; what is refused here is an error, never a panic.
    pub(super) fn bind(abi: &KernelAbi, bound: &[(Slot, Binding<'_>)]) -> Result<Self, Error> {
        let mut buffers = Vec::new();
        let mut read_back = Vec::new();
        for param in &abi.buffers {
            let at = Slot::new(param.group, param.binding);
            let Some((listed, (_, binding))) =
                bound.iter().enumerate().find(|(_, (slot, _))| *slot == at)
            else {
                return Err(Error::Gpu(format!(
                    "no buffer for @group({}) @binding({})",
                    param.group, param.binding
                )));
            };
            if param.uniform != matches!(binding, Binding::Uniform(_)) {
                return Err(Error::Gpu(format!(
                    "@group({}) @binding({}) is {} in the kernel, the buffer bound there is not",
                    param.group,
                    param.binding,
                    if param.uniform {
                        "a uniform"
                    } else {
                        "a storage buffer"
                    }
                )));
            }
            let bytes = match binding {
                Binding::Input(data) | Binding::Uniform(data) => data.to_vec(),
                Binding::ReadWrite(data) => {
                    read_back.push((listed, buffers.len(), data.len()));
                    data.to_vec()
                }
                Binding::Output { size } => {
                    let size = usize::try_from(*size).map_err(|_| {
                        Error::Gpu(format!("an output of {size} bytes does not fit in memory"))
                    })?;
                    read_back.push((listed, buffers.len(), size));
                    vec![0; size]
                }
            };
            param.check(bytes.len()).map_err(Error::Gpu)?;
            buffers.push(bytes);
        }
        read_back.sort_by_key(|(listed, _, _)| *listed);
        Ok(NativeBuffers { buffers, read_back })
    }

    /// The contents of the buffers read back, in the caller's list order.
    pub(super) fn outputs(self) -> Vec<Vec<u8>> {
        self.read_back
            .into_iter()
            .map(|(_, index, size)| self.buffers[index][..size].to_vec())
            .collect()
    }
}

#[cfg(test)]
mod tests;
