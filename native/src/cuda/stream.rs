//! CUDA's [`Streams`]: queuing on a caller's `CudaStream` of the device's
//! context, and the context a caller's `CudaContext` gives.

use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaContext, CudaStream, result};

use super::{Cuda, CudaKernel, cuda_error};
use crate::abi::KernelArgs;
use crate::driver::{Streams, WaitLimit, check_launch};
use crate::error::NativeError;

impl Cuda {
    /// The CUDA device of a caller's context: kernels load into `ctx`,
    /// and the driver layer's own work (if any) runs on its default stream.
    pub fn on_context(ctx: Arc<CudaContext>) -> Cuda {
        let stream = ctx.default_stream();
        Cuda {
            ctx,
            stream,
            wait_limit: WaitLimit::default(),
            hold: Mutex::new(None),
        }
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
}

impl Streams for Cuda {
    type Stream = CudaStream;

    unsafe fn launch_on(
        &self,
        stream: &CudaStream,
        kernel: &CudaKernel,
        grid: [u32; 3],
        block: [u32; 3],
        buffers: &[(u64, u32)],
    ) -> Result<(), NativeError> {
        self.check_stream(stream)?;
        let name = kernel.name();
        check_launch(name, grid, block, buffers).map_err(NativeError::Cuda)?;
        let mut args = KernelArgs::of(buffers);
        let mut params = args.pointers();
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))?;
        // SAFETY: the function belongs to a module loaded in this context
        // (the stream's, checked), allowed its dynamic shared memory when
        // loaded (`Launch::load_with_workgroup`); `params` points into
        // `args`, which lives until the call returns; the caller vouches
        // for the addresses.
        unsafe {
            result::launch_kernel(
                kernel.module().function(),
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                kernel.workgroup_bytes(),
                stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| cuda_error(format_args!("launching kernel `{name}`"), e))
    }

    unsafe fn zero_on(
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
