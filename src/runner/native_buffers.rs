//! Buffers of a native (CUDA, HIP) launch: the bindings, numbered by
//! `@binding`, matched to the kernel ABI's buffer order and size-checked.

use wavekit_native::abi::KernelAbi;

use super::Binding;
use crate::error::Error;

/// Host copies of a launch's buffers in ABI order, and where its outputs are.
pub(super) struct NativeBuffers {
    /// Inputs copied, outputs zeroed; the launch copies results back here.
    pub(super) buffers: Vec<Vec<u8>>,
    /// Index and byte size of each output, in binding order.
    outputs: Vec<(usize, usize)>,
}

impl NativeBuffers {
    /// Matches bindings (group 0) to `abi`, checking each buffer's size
    /// against its binding.
    pub(super) fn bind(abi: &KernelAbi, numbered: &[(u32, Binding<'_>)]) -> Result<Self, Error> {
        let mut buffers = Vec::new();
        let mut outputs = Vec::new();
        for param in &abi.buffers {
            let found = numbered
                .iter()
                .find(|(binding, _)| param.group == 0 && *binding == param.binding);
            let bytes = match found {
                Some((_, Binding::Input(data))) => data.to_vec(),
                Some((_, Binding::Output { size })) => {
                    outputs.push((buffers.len(), *size as usize));
                    vec![0; *size as usize]
                }
                None => {
                    return Err(Error::Gpu(format!(
                        "no buffer for @group({}) @binding({})",
                        param.group, param.binding
                    )));
                }
            };
            param.check(bytes.len()).map_err(Error::Gpu)?;
            buffers.push(bytes);
        }
        Ok(NativeBuffers { buffers, outputs })
    }

    /// The outputs' contents, in binding order.
    pub(super) fn outputs(self) -> Vec<Vec<u8>> {
        self.outputs
            .into_iter()
            .map(|(index, size)| self.buffers[index][..size].to_vec())
            .collect()
    }
}
