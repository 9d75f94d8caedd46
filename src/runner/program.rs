//! Device-resident buffers and programs of several dispatches over them,
//! through the one host API: what multi-pass algorithms need (a device-wide
//! scan, a radix sort), where [`Gpu::run`] uploads and reads back around a
//! single dispatch.
//!
//! ```no_run
//! # use wavekit::runner::{AdapterChoice, Gpu, Step};
//! # fn demo(module: &wavekit::ValidModule) -> Result<(), wavekit::Error> {
//! let gpu = Gpu::open(&AdapterChoice::default())?;
//! let kernel = gpu.kernel(module, "main")?;
//! let data = gpu.upload(&[0u8; 1024])?;
//! let counter = gpu.buffer(4)?;
//! let steps = [Step::Zero(&counter), Step::dispatch(&kernel, &[&data, &counter], [4, 1, 1])];
//! gpu.execute(&steps)?;
//! let times_ms = gpu.time_program(&steps, 3, 20)?;
//! let result = gpu.read(&counter)?;
//! # Ok(()) }
//! ```

#[cfg(feature = "native")]
use wavekit_native::cuda::CudaBuffer;
#[cfg(feature = "native")]
use wavekit_native::hip::HipBuffer;

use super::validate::{Bound, BoundKind, check_dispatch};
use super::{Device, Gpu, Kernel, KernelInner};
use crate::backend::Queue;
use crate::device::Slice;
use crate::error::Error;

/// A buffer in device memory, usable by any number of dispatches.
pub struct Buffer {
    pub(super) inner: BufferInner,
    size: u64,
}

pub(super) enum BufferInner {
    Wgpu(wgpu::Buffer),
    #[cfg(feature = "native")]
    Cuda(CudaBuffer),
    #[cfg(feature = "native")]
    Hip(HipBuffer),
}

impl Buffer {
    /// Size in bytes, as the kernels see it (`arrayLength` counts from this).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The whole buffer as a [`crate::device`] algorithm's slice: the wgpu
    /// buffer, or the CUDA or HIP allocation.
    pub fn slice(&self) -> Slice<'_> {
        self.slice_at(0)
    }

    /// The buffer from byte `offset` on as a [`crate::device`] algorithm's
    /// slice (the call checks the offset's alignment and the bytes it
    /// needs).
    pub fn slice_at(&self, offset: u64) -> Slice<'_> {
        match &self.inner {
            BufferInner::Wgpu(b) => Slice::new(b, offset),
            #[cfg(feature = "native")]
            BufferInner::Cuda(b) => Slice::cuda(b.memory(), offset),
            #[cfg(feature = "native")]
            BufferInner::Hip(b) => Slice::hip(b.memory(), offset),
        }
    }

    /// The wgpu buffer, on a wgpu device (`STORAGE | COPY_SRC | COPY_DST`,
    /// at least [`Buffer::size`] bytes); `None` on a native device.
    pub fn wgpu(&self) -> Option<&wgpu::Buffer> {
        match &self.inner {
            BufferInner::Wgpu(b) => Some(b),
            #[cfg(feature = "native")]
            _ => None,
        }
    }
}

/// One step of a program.
pub enum Step<'a> {
    /// Dispatches `kernel` over `workgroups`, with `buffers[i]` bound at
    /// `@group(0) @binding(i)`.
    Dispatch {
        /// The kernel, built by the same [`Gpu`].
        kernel: &'a Kernel,
        /// Buffers by binding number.
        buffers: Vec<&'a Buffer>,
        /// Workgroups in x, y and z.
        workgroups: [u32; 3],
    },
    /// Sets every byte of the buffer to zero.
    Zero(&'a Buffer),
    /// Copies `src` into `dst` (as many bytes as the smaller holds).
    Copy {
        /// Source.
        src: &'a Buffer,
        /// Destination.
        dst: &'a Buffer,
    },
    /// Records into the program's queue — the command encoder on wgpu,
    /// the stream of the driver's own work on CUDA and HIP — e.g. a
    /// [`crate::device`] algorithm on the program's buffers
    /// ([`Buffer::slice`]). Timed like any step.
    Record(&'a Recorder<'a>),
}

/// What a [`Step::Record`] runs: it records commands into the queue.
pub type Recorder<'a> = dyn Fn(Queue<'_>) -> Result<(), Error> + 'a;

impl<'a> Step<'a> {
    /// A dispatch with `buffers[i]` at binding `i`.
    pub fn dispatch(kernel: &'a Kernel, buffers: &[&'a Buffer], workgroups: [u32; 3]) -> Self {
        Step::Dispatch {
            kernel,
            buffers: buffers.to_vec(),
            workgroups,
        }
    }
}

/// How many steps of a program are leading [`Step::Zero`]s: set-up that
/// [`Gpu::time_program`] leaves out of the timed span on every back end.
pub(super) fn leading_zeros(steps: &[Step<'_>]) -> usize {
    steps
        .iter()
        .take_while(|s| matches!(s, Step::Zero(_)))
        .count()
}

impl Gpu {
    /// A zero-filled buffer of `size` bytes.
    pub fn buffer(&self, size: u64) -> Result<Buffer, Error> {
        self.limits.check_buffer(size)?;
        let inner = match &self.device {
            Device::Wgpu(d) => BufferInner::Wgpu(d.buffer(size, None)?),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.buffer(size)?,
            #[cfg(feature = "native")]
            Device::Hip(d) => d.buffer(size)?,
        };
        Ok(Buffer { inner, size })
    }

    /// A buffer holding `data`.
    pub fn upload(&self, data: &[u8]) -> Result<Buffer, Error> {
        let size = data.len() as u64;
        self.limits.check_buffer(size)?;
        let inner = match &self.device {
            Device::Wgpu(d) => BufferInner::Wgpu(d.buffer(size, Some(data))?),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.upload(data)?,
            #[cfg(feature = "native")]
            Device::Hip(d) => d.upload(data)?,
        };
        Ok(Buffer { inner, size })
    }

    /// Waits for all queued work and returns the buffer's contents.
    pub fn read(&self, buffer: &Buffer) -> Result<Vec<u8>, Error> {
        match (&self.device, &buffer.inner) {
            (Device::Wgpu(d), BufferInner::Wgpu(b)) => d.read(b, buffer.size),
            #[cfg(feature = "native")]
            (Device::Cuda(d), _) => d.read(buffer),
            #[cfg(feature = "native")]
            (Device::Hip(d), _) => d.read(buffer),
            #[cfg(feature = "native")]
            _ => Err(foreign("a buffer read")),
        }
    }

    /// Runs the steps in order and waits for them. Each dispatch sees every
    /// write of the steps before it.
    pub fn execute(&self, steps: &[Step<'_>]) -> Result<(), Error> {
        self.check_steps(steps)?;
        match &self.device {
            Device::Wgpu(d) => d.execute(steps),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.execute(steps),
            #[cfg(feature = "native")]
            Device::Hip(d) => d.execute(steps),
        }
    }

    /// Runs the program `warmup` times untimed, then `runs` times, each
    /// timed on the GPU's clock (timestamp queries on wgpu, events on CUDA
    /// and HIP) from its first step after the leading [`Step::Zero`]s to its
    /// last; returns milliseconds per run. Buffers keep the last run's
    /// results. On wgpu the timestamps are written by the first and last
    /// dispatches' passes; a [`Step::Record`] that is the whole timed span
    /// gets them in its queue ([`Queue::WgpuTimed`]),
    /// so a `wavekit::device` call is timed by its own pass; other
    /// recorded, clear and copy steps at either end by the encoder. A run
    /// whose timestamps were not written (a lone recorded step that
    /// recorded nothing) is an [`Error::Usage`].
    pub fn time_program(
        &self,
        steps: &[Step<'_>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        self.check_steps(steps)?;
        match &self.device {
            Device::Wgpu(d) => d.time_program(steps, warmup, runs),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.time_program(steps, warmup, runs),
            #[cfg(feature = "native")]
            Device::Hip(d) => d.time_program(steps, warmup, runs),
        }
    }

    /// The host-side checks of every dispatch of a program.
    fn check_steps(&self, steps: &[Step<'_>]) -> Result<(), Error> {
        for step in steps {
            if let Step::Dispatch {
                kernel,
                buffers,
                workgroups,
            } = step
            {
                let bound: Vec<Bound> = buffers
                    .iter()
                    .enumerate()
                    .map(|(i, b)| Bound {
                        group: 0,
                        binding: i as u32,
                        bytes: b.size,
                        kind: BoundKind::Input,
                    })
                    .collect();
                check_dispatch(
                    &kernel.entry,
                    &kernel.bindings,
                    &bound,
                    *workgroups,
                    &self.limits,
                )?;
            }
        }
        Ok(())
    }
}

impl Kernel {
    pub(super) fn wgpu(&self) -> Option<&super::WgpuKernel> {
        match &self.inner {
            KernelInner::Wgpu(k) => Some(k),
            #[cfg(feature = "native")]
            _ => None,
        }
    }
}

/// A kernel or buffer used with another device than the one that made it.
pub(super) fn foreign(what: &str) -> Error {
    Error::Gpu(format!(
        "{what} used a kernel or buffer of another device than the one it ran on"
    ))
}
