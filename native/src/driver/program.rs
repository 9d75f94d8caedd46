//! Buffers that stay on the device, and programs of several launches over
//! them: what multi-pass algorithms (a device-wide scan, a radix sort) need,
//! where [`super::Launch::launch`] copies every buffer in and out around one
//! launch. Written once for every [`Driver`].

use super::steps::{Call, Prepared, check_launch, elapsed, queue_timed, wait};
use super::{Buffer, Driver, Kernel};
use crate::error::NativeError;

/// One step of a program run by [`Programs::execute`] and
/// [`Programs::time_program`].
#[derive(Debug)]
pub enum Step<'a, D: Driver> {
    /// Launches `kernel` on `grid` blocks of `block` threads, with `buffers`
    /// as its parameters in ABI order.
    Launch {
        /// The kernel.
        kernel: &'a Kernel<D>,
        /// Its buffers, in the kernel ABI's order.
        buffers: Vec<&'a Buffer<D>>,
        /// Blocks.
        grid: [u32; 3],
        /// Threads per block.
        block: [u32; 3],
    },
    /// Sets every byte of the buffer to zero.
    Zero(&'a Buffer<D>),
    /// Copies `src` into `dst` (the shorter length).
    Copy {
        /// Source.
        src: &'a Buffer<D>,
        /// Destination.
        dst: &'a Buffer<D>,
    },
    /// Queues the caller's own work on the driver's queue (for CUDA, its
    /// stream, [`crate::cuda::Cuda::stream`]): e.g. a `wavekit::device`
    /// algorithm's call. Timed like any step.
    Call(Call<'a>),
}

/// Device-resident buffers and programs over them, written once for every
/// [`Driver`] (implemented for all of them, by these provided methods).
pub trait Programs: Driver {
    /// Allocates a zeroed buffer of `len` bytes. Any length the device
    /// holds: a launch refuses a buffer longer than the kernel ABI's u32
    /// lengths, but the `wavekit::device` algorithms bind regions of one
    /// (a segmented sort of 2^28 pairs takes more than 4 GiB of temp, in
    /// regions of 2 GiB).
    fn alloc(&self, len: usize) -> Result<Buffer<Self>, NativeError> {
        Buffer::zeroed(self, len, &"a buffer")
    }

    /// Allocates a buffer holding `data` (any length, as [`Programs::alloc`]).
    fn alloc_from(&self, data: &[u8]) -> Result<Buffer<Self>, NativeError> {
        Buffer::filled(self, data, &"a buffer")
    }

    /// Waits for every queued step and copies `buffer` back.
    fn read(&self, buffer: &Buffer<Self>) -> Result<Vec<u8>, NativeError> {
        let mut host = vec![0u8; buffer.len];
        buffer.copy_out(self, &mut host, &"a buffer")?;
        wait(self, "waiting for a copy back")?;
        Ok(host)
    }

    /// Runs `steps` in order and waits for them.
    fn execute(&self, steps: &[Step<'_, Self>]) -> Result<(), NativeError> {
        let mut prepared = prepare(self, steps)?;
        for step in &mut prepared {
            step.enqueue(self)?;
        }
        wait(self, running(steps))
    }

    /// Runs `steps` `warmup` times untimed, then `runs` times, each run
    /// timed with events from its first step that is not a leading
    /// [`Step::Zero`] to its end: leading clears are set-up (counters a
    /// program needs zeroed) and are excluded, as on the wgpu back end,
    /// whose timestamps bracket compute passes. Returns milliseconds per
    /// run.
    fn time_program(
        &self,
        steps: &[Step<'_, Self>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f32>, NativeError> {
        let mut prepared = prepare(self, steps)?;
        let leading = steps
            .iter()
            .take_while(|s| matches!(s, Step::Zero(_)))
            .count();
        let pairs = queue_timed(self, &mut prepared, leading, warmup, runs)?;
        wait(self, running(steps))?;
        elapsed(self, &pairs)
    }
}

/// Every driver runs programs the same way: the provided methods are the
/// only implementation.
impl<D: Driver> Programs for D {}

/// Checks every launch and builds its argument block once.
fn prepare<'s, D: Driver>(
    driver: &D,
    steps: &'s [Step<'s, D>],
) -> Result<Vec<Prepared<'s, D>>, NativeError> {
    steps
        .iter()
        .map(|step| {
            Ok(match step {
                Step::Launch {
                    kernel,
                    buffers,
                    grid,
                    block,
                } => {
                    let lengths = buffers.iter().map(|b| b.len);
                    check_launch(driver, kernel, lengths, *grid, *block, 0)?;
                    Prepared::launch(driver, kernel, buffers.iter().copied(), *grid, *block, 0)
                }
                Step::Zero(buffer) => Prepared::Zero(buffer),
                Step::Copy { src, dst } => Prepared::Copy { src, dst },
                Step::Call(call) => Prepared::Call(call),
            })
        })
        .collect()
}

/// What a failing wait for `steps` reports: the driver does not say which
/// kernel faulted, so every kernel of the program is named.
fn running(steps: &[Step<'_, impl Driver>]) -> String {
    let names: Vec<&str> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch { kernel, .. } => Some(kernel.name()),
            _ => None,
        })
        .collect();
    format!("running the program of kernels {names:?}")
}
