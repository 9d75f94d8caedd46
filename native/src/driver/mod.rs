//! The seam between wavekit's native dispatch and a GPU runtime.
//!
//! [`Driver`] is the few primitive operations a runtime offers: device
//! memory, copies and clears, loading a module image, launching one of its
//! kernels, timing events, synchronisation, and what the device and runtime
//! are called. [`crate::cuda::Cuda`] (cudarc's driver API) and
//! [`crate::hip::Hip`] (ROCm's HIP runtime, loaded at run time) implement
//! it, and everything above it is written once, for every driver:
//!
//! - [`Launch`]: one launch on host buffers (copied in, launched, copied
//!   back), and its timing with a warm-up and a pair of events per run;
//! - [`Programs`]: device-resident [`Buffer`]s and programs of several
//!   [`Step`]s over them, run or timed.
//!
//! Both pass buffers to kernels through the kernel ABI's argument block
//! ([`crate::abi`]). Every operation runs in order on one queue of the
//! device (CUDA's context default stream, HIP's null stream), so no step
//! needs events or fences to see the previous one's writes.

#[cfg(test)]
pub(crate) mod add_one;
mod buffer;
mod launch;
mod program;
mod steps;
mod streams;

use std::ffi::c_void;
use std::fmt::{self, Display};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::error::NativeError;

pub use buffer::Buffer;
pub use launch::Launch;
pub use program::{Programs, Step};
pub use steps::Call;
pub use streams::Streams;
pub(crate) use streams::check_launch;

/// The primitive operations of a GPU runtime, on one device.
///
/// Each operation makes the device current on the calling thread first
/// where the runtime needs it, so any thread may use a driver. Work that is
/// queued ([`Driver::zero`], [`Driver::copy_on_device`],
/// [`Driver::launch_kernel`], [`Driver::record`]) runs in the order it was
/// queued, and [`Driver::synchronize`] waits for all of it.
pub trait Driver: Sized + fmt::Debug {
    /// A runtime call's failure, as the runtime reports it; turned into a
    /// [`NativeError`] by [`Driver::fail`].
    type Error;
    /// An allocation of device memory, freed when dropped.
    type Memory: fmt::Debug + Send + Sync;
    /// A timing event, destroyed when dropped.
    type Event;
    /// What [`Driver::load_module`] takes: PTX text for CUDA, a code object
    /// for HIP.
    type Image: ?Sized;
    /// A loaded module and the function of the kernel it was loaded for;
    /// [`Kernel`] unloads it with [`Driver::unload_module`].
    type Module: fmt::Debug + Send + Sync;

    /// The error for `what` having failed with `error`: `what`, then the
    /// runtime's name and message for the error.
    fn fail(&self, what: impl Display, error: Self::Error) -> NativeError;

    /// The error for a request refused before it reached the runtime
    /// (`message` says why).
    fn refuse(&self, message: String) -> NativeError;

    /// The device's name, e.g. `NVIDIA H100 80GB HBM3`.
    fn name(&self) -> Result<String, NativeError>;

    /// The runtime's version in its own encoding: CUDA's
    /// `1000 * major + 10 * minor` (13000 for CUDA 13.0), HIP's
    /// `10_000_000 * major + 100_000 * minor + patch` (60_443_483 for HIP
    /// 6.4.43483).
    fn version(&self) -> Result<u32, NativeError>;

    /// Allocates `bytes` bytes of device memory, all zero.
    fn alloc_zeroed(&self, bytes: usize) -> Result<Self::Memory, Self::Error>;

    /// The device address of `memory`, as kernels take it.
    fn address(&self, memory: &Self::Memory) -> u64;

    /// Copies `data` to the start of `memory` (at least as long), and
    /// returns once `data` may be reused.
    fn copy_to_device(&self, memory: &mut Self::Memory, data: &[u8]) -> Result<(), Self::Error>;

    /// Copies the first `host.len()` bytes of `memory` into `host`, after
    /// everything queued before.
    fn copy_to_host(&self, memory: &Self::Memory, host: &mut [u8]) -> Result<(), Self::Error>;

    /// Queues setting the first `bytes` bytes of `memory` to zero.
    fn zero(&self, memory: &Self::Memory, bytes: usize) -> Result<(), Self::Error>;

    /// Queues copying the first `bytes` bytes of `src` into `dst`.
    fn copy_on_device(
        &self,
        src: &Self::Memory,
        dst: &Self::Memory,
        bytes: usize,
    ) -> Result<(), Self::Error>;

    /// Loads `image` on this device and finds its kernel `entry`. The error
    /// says what the image holds instead when the kernel is not there.
    fn load_module(&self, image: &Self::Image, entry: &str) -> Result<Self::Module, NativeError>;

    /// Unloads a module [`Driver::load_module`] returned; `Err` says why
    /// that failed (it is logged, not returned, by [`Kernel`]'s `Drop`).
    fn unload_module(module: &Self::Module) -> Result<(), String>;

    /// Where `module` was loaded when it was not on this device (completing
    /// "kernel `k` was loaded on ..."), or `None` when it is this device's.
    fn loaded_elsewhere(&self, module: &Self::Module) -> Option<String>;

    /// Why the runtime cannot launch a grid of `grid` blocks of `block`
    /// threads (every dimension already at least 1), completing "launching
    /// kernel `k` with grid [..] and block [..]: ...". By default any.
    fn check_dimensions(&self, grid: [u32; 3], block: [u32; 3]) -> Result<(), String> {
        let _ = (grid, block);
        Ok(())
    }

    /// Lets `module`'s kernel, named `kernel`, use `shared_bytes` bytes of
    /// dynamic shared memory where the runtime wants that asked for. By
    /// default nothing needs asking.
    fn allow_shared(
        &self,
        module: &Self::Module,
        kernel: &str,
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        let _ = (module, kernel, shared_bytes);
        Ok(())
    }

    /// Queues a launch of `module`'s kernel: `grid` blocks of `block`
    /// threads with `shared_bytes` bytes of dynamic shared memory, and
    /// `params` as its `kernelParams` (one pointer to each parameter's
    /// value).
    ///
    /// # Safety
    ///
    /// `params` must point at one value for each of the kernel's parameters,
    /// of its type and in its order; the runtime reads them before this
    /// returns. Every device address among them must stay allocated until
    /// the launch has finished (a later [`Driver::synchronize`]).
    unsafe fn launch_kernel(
        &self,
        module: &Self::Module,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        params: &mut [*mut c_void],
    ) -> Result<(), Self::Error>;

    /// Creates a timing event.
    fn event(&self) -> Result<Self::Event, Self::Error>;

    /// Queues recording `event`.
    fn record(&self, event: &Self::Event) -> Result<(), Self::Error>;

    /// Milliseconds between two recorded events, once both have completed.
    fn elapsed_ms(&self, start: &Self::Event, end: &Self::Event) -> Result<f32, Self::Error>;

    /// Waits for everything queued; a kernel that failed reports here.
    fn synchronize(&self) -> Result<(), Self::Error>;

    /// Whether everything queued has finished, without waiting (`None`:
    /// the runtime cannot tell without waiting); a kernel that failed
    /// reports here.
    fn finished(&self) -> Result<Option<bool>, Self::Error>;

    /// How long the driver layer's waits may take ([`WaitLimit`]).
    fn wait_limit(&self) -> &WaitLimit;

    /// Queues a kernel that keeps the device busy for `duration` of the
    /// device's own clock, so that what is queued after it waits, already
    /// queued, instead of starting as each launch arrives. Timing events
    /// queued behind it then bracket the device's work alone, not the host's
    /// launch calls between them: CUB's benchmarks time their calls behind
    /// such a kernel. Returns whether it queued one; the provided method
    /// queues nothing (a runtime without one times as it queues).
    fn hold(&self, duration: Duration) -> Result<bool, NativeError> {
        let _ = duration;
        Ok(false)
    }

    /// The device's multiprocessors (SMs; compute units), where the runtime
    /// says so stably: host code sizes a grid of exactly the workgroups
    /// that run at once from it. The provided method says nothing (HIP's
    /// attribute numbers are not stable across ROCm releases).
    fn multiprocessors(&self) -> Option<u32> {
        None
    }
}

/// How long a wait for the device may take before it fails with
/// [`NativeError::Timeout`]: none (for ever) unless set. The device keeps
/// running what it was waiting for: no runtime can stop a kernel (the
/// process's exit does), so a timed-out device stays busy.
#[derive(Debug, Default)]
pub struct WaitLimit {
    /// Microseconds, 0 for none.
    micros: AtomicU64,
    /// Whether a wait has run past the limit; shared with the kernels the
    /// driver loads ([`Kernel`] does not unload its module then: CUDA's
    /// unload waits for the kernel).
    timed_out: Arc<AtomicBool>,
}

impl Clone for WaitLimit {
    /// A limit of its own, starting at this one's value.
    fn clone(&self) -> Self {
        let clone = WaitLimit::default();
        clone.set(self.get());
        clone
    }
}

impl WaitLimit {
    /// Sets the limit (`None`: wait for ever).
    pub fn set(&self, limit: Option<Duration>) {
        let micros = limit.map_or(0, |d| {
            u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1)
        });
        self.micros.store(micros, Ordering::Relaxed);
    }

    /// Whether a wait has run past the limit: the device may still be
    /// running what it waited for, and its owner should not wait for it
    /// again (not even when dropping it).
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Relaxed)
    }

    /// Records that a wait ran past the limit.
    pub(crate) fn time_out(&self) {
        self.timed_out.store(true, Ordering::Relaxed);
    }

    /// The flag a kernel holds to know whether its device timed out.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.timed_out)
    }

    /// The limit, if one is set.
    pub fn get(&self) -> Option<Duration> {
        match self.micros.load(Ordering::Relaxed) {
            0 => None,
            micros => Some(Duration::from_micros(micros)),
        }
    }
}

/// A loaded kernel: a module and the entry point it was loaded for.
///
/// It unloads its module when dropped; the module keeps what it needs of
/// its device (CUDA's context, the HIP runtime) alive until then.
pub struct Kernel<D: Driver> {
    module: D::Module,
    name: String,
    /// Set when a wait of the driver that loaded it timed out
    /// ([`WaitLimit`]).
    device_timed_out: Arc<AtomicBool>,
    /// Dynamic shared memory its code takes (bytes), given to every launch
    /// on top of the launch's own
    /// ([`KernelAbi::dynamic_workgroup_bytes`](crate::KernelAbi)).
    workgroup_bytes: u32,
}

impl<D: Driver> Kernel<D> {
    /// The entry point's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Dynamic shared memory the kernel's own code takes (bytes): what
    /// [`Launch::load_with_workgroup`](launch::Launch::load_with_workgroup)
    /// was given, else 0.
    pub fn workgroup_bytes(&self) -> u32 {
        self.workgroup_bytes
    }

    /// The driver's module.
    pub(crate) fn module(&self) -> &D::Module {
        &self.module
    }
}

impl<D: Driver> fmt::Debug for Kernel<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("module", &self.module)
            .finish()
    }
}

impl<D: Driver> Drop for Kernel<D> {
    /// Unloads the module, unless its device timed out: it may still be
    /// running this kernel, and CUDA's unload would wait for it for ever.
    fn drop(&mut self) {
        if self.device_timed_out.load(Ordering::Relaxed) {
            return;
        }
        if let Err(why) = D::unload_module(&self.module) {
            log::warn!("unloading the module of kernel `{}`: {why}", self.name);
        }
    }
}
