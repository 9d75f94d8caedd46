//! Loading a kernel, and launching it once on host buffers — copied to the
//! device, launched, copied back — or timing it: for every [`Driver`].

use super::steps::{Prepared, check_launch, elapsed, queue_timed, wait};
use super::{Buffer, Driver, Kernel};
use crate::error::NativeError;

/// Loading and launching kernels on host buffers, written once for every
/// [`Driver`] (implemented for all of them, by these provided methods).
///
/// The kernel ABI ([`crate::abi`]): for each buffer in order, two
/// parameters — its device address (`u64`) and its length in bytes (`u32`).
pub trait Launch: Driver {
    /// Loads `image` (PTX text for CUDA, a code object for HIP) and finds
    /// the kernel `entry`.
    fn load(&self, image: &Self::Image, entry: &str) -> Result<Kernel<Self>, NativeError> {
        Ok(Kernel {
            module: self.load_module(image, entry)?,
            name: entry.to_string(),
            device_timed_out: self.wait_limit().flag(),
            workgroup_bytes: 0,
        })
    }

    /// [`Launch::load`] for a kernel whose code takes `workgroup_bytes` of
    /// dynamic shared memory
    /// ([`KernelAbi::dynamic_workgroup_bytes`](crate::KernelAbi)): allowed
    /// here once (above CUDA's default 48 KiB the kernel must opt in), and
    /// given to each of its launches.
    fn load_with_workgroup(
        &self,
        image: &Self::Image,
        entry: &str,
        workgroup_bytes: u32,
    ) -> Result<Kernel<Self>, NativeError> {
        let mut kernel = self.load(image, entry)?;
        self.allow_shared(kernel.module(), entry, workgroup_bytes)?;
        kernel.workgroup_bytes = workgroup_bytes;
        Ok(kernel)
    }

    /// Runs `kernel` once on `buffers` and copies them back.
    ///
    /// Copies every buffer to the device (allocating at least 4 bytes,
    /// zeroed, even for an empty one), launches `grid` blocks (workgroups)
    /// of `block` threads with `shared_bytes` of dynamic shared memory,
    /// waits for it, and copies every buffer back into its `Vec`.
    fn launch(
        &self,
        kernel: &Kernel<Self>,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        let device = checked_upload(self, kernel, buffers, grid, block, shared_bytes)?;
        let mut step = Prepared::launch(self, kernel, &device, grid, block, shared_bytes);
        step.enqueue(self)?;
        wait(self, format_args!("running kernel `{}`", kernel.name()))?;
        download(self, &device, buffers)
    }

    /// Like [`Launch::launch`], but the buffers stay on the device between
    /// runs: `warmup` untimed launches, then `runs` launches each timed with
    /// a pair of events around it. Returns each run's GPU time in
    /// milliseconds (CUDA's event resolution is about half a microsecond).
    /// The buffers are copied back after the last run, so they hold the
    /// result of `warmup + runs` launches in a row.
    #[allow(clippy::too_many_arguments)]
    fn time(
        &self,
        kernel: &Kernel<Self>,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f32>, NativeError> {
        let device = checked_upload(self, kernel, buffers, grid, block, shared_bytes)?;
        let mut steps = [Prepared::launch(
            self,
            kernel,
            &device,
            grid,
            block,
            shared_bytes,
        )];
        let pairs = queue_timed(self, &mut steps, 0, warmup, runs)?;
        // One wait for all of it: a failing kernel surfaces here, with its
        // name, rather than as an odd event error.
        wait(self, format_args!("running kernel `{}`", kernel.name()))?;
        let times = elapsed(self, &pairs)?;
        download(self, &device, buffers)?;
        Ok(times)
    }
}

/// Every driver launches the same way: the provided methods are the only
/// implementation.
impl<D: Driver> Launch for D {}

/// Checks the launch of `kernel` on `buffers` ([`check_launch`]), then
/// copies every buffer to a fresh device allocation (freed when the result
/// is dropped, on every path out of a launch).
fn checked_upload<D: Driver>(
    driver: &D,
    kernel: &Kernel<D>,
    buffers: &[Vec<u8>],
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
) -> Result<Vec<Buffer<D>>, NativeError> {
    let lengths = buffers.iter().map(Vec::len);
    check_launch(driver, kernel, lengths, grid, block, shared_bytes)?;
    buffers
        .iter()
        .enumerate()
        .map(|(i, data)| Buffer::filled(driver, data, &format_args!("buffer {i}")))
        .collect()
}

/// Copies every device buffer back into its `Vec` and waits for the copies
/// (a copy into pageable memory normally completes before the call returns,
/// but the runtimes do not promise it for every path).
fn download<D: Driver>(
    driver: &D,
    device: &[Buffer<D>],
    buffers: &mut [Vec<u8>],
) -> Result<(), NativeError> {
    for (i, (buffer, host)) in device.iter().zip(buffers.iter_mut()).enumerate() {
        buffer.copy_out(driver, host, &format_args!("buffer {i}"))?;
    }
    wait(driver, "waiting for the copies back")
}
