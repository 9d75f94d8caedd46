//! Buffers that stay on the device, and programs of several launches over
//! them: what multi-pass algorithms (a device-wide scan, a radix sort) need,
//! where [`Cuda::launch`] copies every buffer in and out around one launch.

use cudarc::driver::{CudaSlice, DevicePtr, result};

use super::{Cuda, CudaKernel, cuda_error, elapsed_ms};
use crate::abi::KernelArgs;
use crate::error::NativeError;

/// A buffer in device memory that outlives launches.
///
/// The allocation is at least 4 bytes (a zero-byte allocation is an error or
/// a null pointer depending on the allocator); [`CudaBuffer::len`] is the
/// length kernels see.
#[derive(Debug)]
pub struct CudaBuffer {
    memory: CudaSlice<u8>,
    len: usize,
}

impl CudaBuffer {
    /// Length in bytes, as passed to kernels.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One step of a program run by [`Cuda::execute`] and [`Cuda::time_program`].
#[derive(Debug)]
pub enum CudaStep<'a> {
    /// Launches `kernel` on `grid` blocks of `block` threads, with `buffers`
    /// as its parameters in ABI order.
    Launch {
        /// The kernel.
        kernel: &'a CudaKernel,
        /// Its buffers, in the kernel ABI's order.
        buffers: Vec<&'a CudaBuffer>,
        /// Blocks.
        grid: [u32; 3],
        /// Threads per block.
        block: [u32; 3],
    },
    /// Sets every byte of the buffer to zero.
    Zero(&'a CudaBuffer),
    /// Copies `src` into `dst` (the shorter length).
    Copy {
        /// Source.
        src: &'a CudaBuffer,
        /// Destination.
        dst: &'a CudaBuffer,
    },
}

impl Cuda {
    /// Allocates a zeroed buffer of `len` bytes.
    pub fn alloc(&self, len: usize) -> Result<CudaBuffer, NativeError> {
        if u32::try_from(len).is_err() {
            return Err(NativeError::Binding(format!(
                "a buffer of {len} bytes: the kernel ABI passes lengths as u32, so at most {} bytes",
                u32::MAX
            )));
        }
        let memory = self
            .stream
            .alloc_zeros::<u8>(len.max(4))
            .map_err(|e| cuda_error(format_args!("allocating {len} bytes"), e))?;
        Ok(CudaBuffer { memory, len })
    }

    /// Allocates a buffer holding `data`.
    pub fn alloc_from(&self, data: &[u8]) -> Result<CudaBuffer, NativeError> {
        let mut buffer = self.alloc(data.len())?;
        if !data.is_empty() {
            self.stream
                .memcpy_htod(data, &mut buffer.memory)
                .map_err(|e| cuda_error("copying a buffer to the device", e))?;
        }
        Ok(buffer)
    }

    /// Waits for every queued step and copies `buffer` back.
    pub fn read(&self, buffer: &CudaBuffer) -> Result<Vec<u8>, NativeError> {
        let mut host = vec![0u8; buffer.len];
        if buffer.len > 0 {
            self.stream
                .memcpy_dtoh(&buffer.memory.slice(..buffer.len), host.as_mut_slice())
                .map_err(|e| cuda_error("copying a buffer back", e))?;
        }
        self.stream
            .synchronize()
            .map_err(|e| cuda_error("waiting for a copy back", e))?;
        Ok(host)
    }

    /// Runs `steps` in order and waits for them.
    pub fn execute(&self, steps: &[CudaStep<'_>]) -> Result<(), NativeError> {
        let mut prepared = self.prepare(steps)?;
        for step in &mut prepared {
            self.enqueue_step(step)?;
        }
        self.wait(steps)
    }

    /// Runs `steps` `warmup` times untimed, then `runs` times, each run timed
    /// with CUDA events from its first step that is not a leading
    /// [`CudaStep::Zero`] to its end: leading clears are set-up (counters a
    /// program needs zeroed) and are excluded, as on the wgpu back end, whose
    /// timestamps bracket compute passes. Returns milliseconds per run.
    pub fn time_program(
        &self,
        steps: &[CudaStep<'_>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f32>, NativeError> {
        let mut prepared = self.prepare(steps)?;
        let leading = steps
            .iter()
            .take_while(|s| matches!(s, CudaStep::Zero(_)))
            .count();
        let pairs = self.event_pairs(runs)?;
        for run in 0..warmup + runs {
            let pair = run.checked_sub(warmup).map(|i| &pairs[i]);
            for (i, step) in prepared.iter_mut().enumerate() {
                if i == leading
                    && let Some((start, _)) = pair
                {
                    self.record(start)?;
                }
                self.enqueue_step(step)?;
            }
            if let Some((start, end)) = pair {
                if leading == prepared.len() {
                    self.record(start)?;
                }
                self.record(end)?;
            }
        }
        self.wait(steps)?;
        elapsed_ms(&pairs)
    }

    /// Checks every launch and builds its parameter block once.
    fn prepare<'s>(&self, steps: &'s [CudaStep<'s>]) -> Result<Vec<Prepared<'s>>, NativeError> {
        steps
            .iter()
            .map(|step| {
                Ok(match step {
                    CudaStep::Launch {
                        kernel,
                        buffers,
                        grid,
                        block,
                    } => {
                        // Buffer lengths were checked when they were allocated.
                        self.check_launch(kernel, &[], *grid, *block, 0)?;
                        let args = KernelArgs {
                            addresses: buffers.iter().map(|b| self.address(b)).collect(),
                            lengths: buffers.iter().map(|b| b.len as u32).collect(),
                        };
                        Prepared::Launch {
                            kernel,
                            args,
                            grid: *grid,
                            block: *block,
                        }
                    }
                    CudaStep::Zero(buffer) => Prepared::Zero(buffer),
                    CudaStep::Copy { src, dst } => Prepared::Copy { src, dst },
                })
            })
            .collect()
    }

    fn address(&self, buffer: &CudaBuffer) -> u64 {
        // With one stream, stream order covers every later step, so the
        // read-event guard cudarc returns is dropped at once.
        let (address, _guard) = buffer.memory.device_ptr(&self.stream);
        address
    }

    fn enqueue_step(&self, step: &mut Prepared<'_>) -> Result<(), NativeError> {
        match step {
            Prepared::Launch {
                kernel,
                args,
                grid,
                block,
            } => self.enqueue(kernel, args, *grid, *block, 0),
            Prepared::Zero(buffer) => {
                // SAFETY: the allocation is live (borrowed) and at least
                // `len` bytes; zero bytes are valid for `u8`; it was
                // allocated on this stream.
                unsafe {
                    result::memset_d8_async(
                        self.address(buffer),
                        0,
                        buffer.len,
                        self.stream.cu_stream(),
                    )
                }
                .map_err(|e| cuda_error("clearing a buffer", e))
            }
            Prepared::Copy { src, dst } => {
                let bytes = src.len.min(dst.len);
                // SAFETY: both allocations are live and at least `bytes`
                // long, both `u8`, on this stream.
                unsafe {
                    result::memcpy_dtod_async(
                        self.address(dst),
                        self.address(src),
                        bytes,
                        self.stream.cu_stream(),
                    )
                }
                .map_err(|e| cuda_error("copying between buffers", e))
            }
        }
    }

    /// Waits for the queue; a faulting kernel is reported by the name of the
    /// program's first kernel (the driver does not say which one faulted).
    fn wait(&self, steps: &[CudaStep<'_>]) -> Result<(), NativeError> {
        let names: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                CudaStep::Launch { kernel, .. } => Some(kernel.name()),
                _ => None,
            })
            .collect();
        self.stream
            .synchronize()
            .map_err(|e| cuda_error(format_args!("running the program of kernels {names:?}"), e))
    }
}

/// A step with its launch parameters built.
enum Prepared<'a> {
    Launch {
        kernel: &'a CudaKernel,
        args: KernelArgs,
        grid: [u32; 3],
        block: [u32; 3],
    },
    Zero(&'a CudaBuffer),
    Copy {
        src: &'a CudaBuffer,
        dst: &'a CudaBuffer,
    },
}
