//! Queuing on a caller's CUDA stream, with device addresses the caller
//! owns: what `wavekit::device`'s CUDA path needs, where the driver layer
//! ([`crate::driver`]) queues on its own stream and owns its buffers.
//!
//! A call here queues work and returns; nothing waits. The caller keeps
//! every address it passes allocated until the stream has run the work,
//! as with CUB's `d_temp_storage` and raw pointers.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, result};

use super::{Cuda, CudaKernel, cuda_error};
use crate::abi::KernelArgs;
use crate::error::NativeError;

impl Cuda {
    /// The CUDA device of a caller's context: kernels load into `ctx`,
    /// and the driver layer's own work (if any) runs on its default stream.
    pub fn on_context(ctx: Arc<CudaContext>) -> Cuda {
        let stream = ctx.default_stream();
        Cuda { ctx, stream }
    }

    /// The context.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The stream the driver layer queues on: the context's default
    /// (legacy) stream.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Fails unless `stream` belongs to this device's context.
    fn check_stream(&self, stream: &CudaStream) -> Result<(), NativeError> {
        if stream.context().cu_ctx() != self.ctx.cu_ctx() {
            return Err(NativeError::Cuda(
                "the stream belongs to another CUDA context than the one the kernels were \
                 loaded in"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Queues on `stream` a launch of `kernel` over `grid` blocks of
    /// `block` threads, its buffers given in the kernel ABI's order as
    /// (device address, byte length) pairs ([`crate::abi`]).
    ///
    /// # Safety
    ///
    /// Each address must point at a device allocation of this context with
    /// at least its length in bytes from there, allocated until the launch
    /// has run; `buffers` must match the kernel's ABI (one pair per buffer
    /// parameter, in order). Kernels lowered with
    /// [`crate::BoundsChecks::Unchecked`] also need every index they
    /// compute to stay inside those lengths.
    pub unsafe fn launch_on(
        &self,
        stream: &CudaStream,
        kernel: &CudaKernel,
        grid: [u32; 3],
        block: [u32; 3],
        buffers: &[(u64, u32)],
    ) -> Result<(), NativeError> {
        self.check_stream(stream)?;
        let name = kernel.name();
        if grid.contains(&0) || block.contains(&0) {
            return Err(NativeError::Cuda(format!(
                "launching kernel `{name}` with grid {grid:?} and block {block:?}: every \
                 dimension must be at least 1"
            )));
        }
        let mut args = KernelArgs {
            addresses: buffers.iter().map(|b| b.0).collect(),
            lengths: buffers.iter().map(|b| b.1).collect(),
        };
        let mut params = args.pointers();
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))?;
        // SAFETY: the function belongs to a module loaded in this context
        // (the stream's, checked); `params` points into `args`, which lives
        // until the call returns; the caller vouches for the addresses.
        unsafe {
            result::launch_kernel(
                kernel.module().function(),
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                0,
                stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| cuda_error(format_args!("launching kernel `{name}`"), e))
    }

    /// Queues on `stream` setting `bytes` bytes from device address
    /// `address` to zero.
    ///
    /// # Safety
    ///
    /// The bytes must lie in a device allocation of this context, allocated
    /// until the stream has run the clear.
    pub unsafe fn zero_on(
        &self,
        stream: &CudaStream,
        address: u64,
        bytes: usize,
    ) -> Result<(), NativeError> {
        self.check_stream(stream)?;
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))?;
        // SAFETY: the caller vouches for the range.
        unsafe { result::memset_d8_async(address, 0, bytes, stream.cu_stream()) }
            .map_err(|e| cuda_error(format_args!("clearing {bytes} bytes"), e))
    }
}
