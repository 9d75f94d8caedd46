//! CUDA dispatch through cudarc's driver API: [`Cuda`], a [`Driver`].
//!
//! `libcuda.so` is loaded at run time (cudarc's `dynamic-loading`), so this
//! builds and links on machines without CUDA; [`Cuda::open`] is where a
//! missing driver shows up, as [`NativeError::NoCudaDriver`].
//!
//! Launches, timing, resident buffers and programs are the driver layer's
//! ([`crate::driver::Launch`], [`crate::driver::Programs`]); this is the
//! CUDA side of them. Contexts, streams, memory and events use cudarc's
//! safe API. Modules and launches go through the raw driver calls instead,
//! because cudarc's `CudaContext::load_module` needs its
//! `nvrtc` feature and drops the JIT's error log.

mod hold;
mod module;
mod stream;

use std::ffi::c_void;
use std::fmt::Display;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, DriverError, result, sys,
};

use crate::driver::{Buffer, Driver, Kernel, Step, WaitLimit};
use crate::error::NativeError;

pub use module::CudaModule;

/// A kernel loaded by [`Cuda`].
pub type CudaKernel = Kernel<Cuda>;
/// A device-resident buffer of [`Cuda`].
pub type CudaBuffer = Buffer<Cuda>;
/// A step of a program run by [`Cuda`].
pub type CudaStep<'a> = Step<'a, Cuda>;

/// Bytes of dynamic shared memory a kernel may use without opting in with
/// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` (48 KiB on every
/// architecture since Volta).
const DEFAULT_DYNAMIC_SHARED_LIMIT: u32 = 48 * 1024;

/// A CUDA device with a context.
///
/// Everything runs on the context's default (legacy) stream, in order:
/// that keeps cudarc's per-buffer event tracking (only active once a context
/// has several streams) out of the way, and every copy and launch is ordered
/// without it.
#[derive(Debug)]
pub struct Cuda {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    wait_limit: WaitLimit,
    /// The hold kernel ([`Driver::hold`]), loaded on first use.
    hold: Mutex<Option<CudaKernel>>,
}

/// The driver's name and message for an error: `CUDA_ERROR_INVALID_PTX: a
/// PTX JIT compilation failed`.
fn describe(e: DriverError) -> String {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{:?}", e.0));
    match e.error_string() {
        Ok(message) => format!("{name}: {}", message.to_string_lossy()),
        Err(_) => name,
    }
}

/// A driver error while doing `what`.
fn cuda_error(what: impl Display, e: DriverError) -> NativeError {
    NativeError::Cuda(format!("{what}: {}", describe(e)))
}

/// Why the driver could not be used, always naming `libcuda.so` so that the
/// user knows what to look for.
fn no_driver(why: impl Display) -> NativeError {
    NativeError::NoCudaDriver(format!(
        "{why} (CUDA needs the NVIDIA driver's libcuda.so and an NVIDIA GPU)"
    ))
}

impl Cuda {
    /// Opens device `ordinal`.
    ///
    /// Fails with [`NativeError::NoCudaDriver`] — with a message naming
    /// `libcuda.so` — when the driver library cannot be loaded, the driver
    /// does not initialise, or there is no device `ordinal`.
    pub fn open(ordinal: usize) -> Result<Cuda, NativeError> {
        // cudarc loads libcuda lazily on the first driver call and *panics*
        // (`panic_no_lib_found`) when it is missing, and again ("Missing
        // symbol") when the driver lacks a function its bindings name. Ask
        // first, so the common case is a plain error and no panic message...
        // SAFETY: `is_culib_present` only dlopens (and closes) the library;
        // it is `unsafe` because loading runs the library's initialisers,
        // which for the NVIDIA driver is what any CUDA program does.
        if !unsafe { sys::is_culib_present() } {
            return Err(no_driver(
                "libcuda.so (libcuda.so.1) could not be loaded: no NVIDIA driver is installed, \
                 or it is not on the library path (LD_LIBRARY_PATH)",
            ));
        }
        // ...and still catch a panic from a driver too old for the bindings.
        match std::panic::catch_unwind(|| Self::open_present(ordinal)) {
            Ok(opened) => opened,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic in cudarc");
                Err(no_driver(format!("loading libcuda.so failed: {message}")))
            }
        }
    }

    /// [`Cuda::open`] once libcuda is known to load.
    fn open_present(ordinal: usize) -> Result<Cuda, NativeError> {
        result::init().map_err(|e| {
            no_driver(format!(
                "libcuda.so loaded but cuInit failed: {}",
                describe(e)
            ))
        })?;
        let count = result::device::get_count().map_err(|e| {
            no_driver(format!(
                "libcuda.so could not count devices: {}",
                describe(e)
            ))
        })?;
        let count = usize::try_from(count).unwrap_or(0);
        if count == 0 {
            return Err(no_driver("libcuda.so loaded but reports no CUDA device"));
        }
        if ordinal >= count {
            return Err(no_driver(format!(
                "there is no CUDA device {ordinal}: libcuda.so reports {count} device(s)"
            )));
        }
        let ctx = CudaContext::new(ordinal)
            .map_err(|e| cuda_error(format_args!("creating a context on device {ordinal}"), e))?;
        Ok(Cuda::on_context(ctx))
    }

    /// The compute capability as (major, minor), e.g. (9, 0) on H100.
    pub fn compute_capability(&self) -> Result<(u32, u32), NativeError> {
        let (major, minor) = self
            .ctx
            .compute_capability()
            .map_err(|e| cuda_error("reading the compute capability", e))?;
        Ok((major as u32, minor as u32))
    }

    /// The PTX target for the device, as compute capability × 10: sm_90,
    /// sm_80 or sm_70, the newest of them the device runs. Older devices
    /// are refused.
    pub fn ptx_sm(&self) -> Result<u32, NativeError> {
        let (major, minor) = self.compute_capability()?;
        match major * 10 + minor {
            cc if cc >= 90 => Ok(90),
            cc if cc >= 80 => Ok(80),
            cc if cc >= 70 => Ok(70),
            cc => Err(NativeError::Cuda(format!(
                "the CUDA device is sm_{cc}; wavekit's PTX needs sm_70 or newer"
            ))),
        }
    }

    /// Makes the context current on the calling thread, for the raw driver
    /// calls (cudarc's safe API does it itself).
    fn bind(&self) -> Result<(), NativeError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))
    }

    /// `memory`'s device address.
    fn device_address(&self, memory: &CudaSlice<u8>) -> u64 {
        // The guard cudarc returns records a "read" event for cross-stream
        // ordering; with a single stream, stream order already covers every
        // later launch and copy, so it is dropped at once.
        let (address, _guard) = memory.device_ptr(&self.stream);
        address
    }
}

impl Driver for Cuda {
    type Error = DriverError;
    type Memory = CudaSlice<u8>;
    type Event = CudaEvent;
    type Image = str;
    type Module = CudaModule;

    fn fail(&self, what: impl Display, error: DriverError) -> NativeError {
        cuda_error(what, error)
    }

    fn refuse(&self, message: String) -> NativeError {
        NativeError::Cuda(message)
    }

    fn name(&self) -> Result<String, NativeError> {
        self.ctx
            .name()
            .map_err(|e| cuda_error("reading the device name", e))
    }

    /// The CUDA version the driver supports, as `1000 * major + 10 * minor`:
    /// e.g. 13000 for CUDA 13.0.
    fn version(&self) -> Result<u32, NativeError> {
        let mut version = 0;
        // SAFETY: writes one int through a valid pointer; needs no context.
        unsafe { sys::cuDriverGetVersion(&mut version) }
            .result()
            .map_err(|e| cuda_error("reading the driver version", e))?;
        Ok(version as u32)
    }

    /// `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT`.
    fn multiprocessors(&self) -> Option<u32> {
        self.ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .ok()
            .and_then(|count| u32::try_from(count).ok())
            .filter(|count| *count > 0)
    }

    fn alloc_zeroed(&self, bytes: usize) -> Result<CudaSlice<u8>, DriverError> {
        self.stream.alloc_zeros::<u8>(bytes)
    }

    fn address(&self, memory: &CudaSlice<u8>) -> u64 {
        self.device_address(memory)
    }

    fn copy_to_device(&self, memory: &mut CudaSlice<u8>, data: &[u8]) -> Result<(), DriverError> {
        self.stream.memcpy_htod(data, memory)
    }

    fn copy_to_host(&self, memory: &CudaSlice<u8>, host: &mut [u8]) -> Result<(), DriverError> {
        self.stream.memcpy_dtoh(&memory.slice(..host.len()), host)
    }

    fn zero(&self, memory: &CudaSlice<u8>, bytes: usize) -> Result<(), DriverError> {
        // SAFETY: the allocation is live (borrowed) and at least `bytes`
        // long; zero bytes are valid for `u8`; it was allocated on this
        // stream.
        unsafe {
            result::memset_d8_async(
                self.device_address(memory),
                0,
                bytes,
                self.stream.cu_stream(),
            )
        }
    }

    fn copy_on_device(
        &self,
        src: &CudaSlice<u8>,
        dst: &CudaSlice<u8>,
        bytes: usize,
    ) -> Result<(), DriverError> {
        // SAFETY: both allocations are live and at least `bytes` long, both
        // `u8`, on this stream.
        unsafe {
            result::memcpy_dtod_async(
                self.device_address(dst),
                self.device_address(src),
                bytes,
                self.stream.cu_stream(),
            )
        }
    }

    fn load_module(&self, ptx: &str, entry: &str) -> Result<CudaModule, NativeError> {
        CudaModule::load(&self.ctx, ptx, entry)
    }

    fn unload_module(module: &CudaModule) -> Result<(), String> {
        module.unload()
    }

    fn loaded_elsewhere(&self, module: &CudaModule) -> Option<String> {
        (!module.belongs_to(&self.ctx)).then(|| "another device".to_string())
    }

    /// Above 48 KiB of dynamic shared memory a kernel must opt in, per
    /// function.
    fn allow_shared(
        &self,
        module: &CudaModule,
        kernel: &str,
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        if shared_bytes <= DEFAULT_DYNAMIC_SHARED_LIMIT {
            return Ok(());
        }
        self.bind()?;
        // SAFETY: the function belongs to a loaded module.
        unsafe {
            result::function::set_function_attribute(
                module.function(),
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared_bytes as i32,
            )
        }
        .map_err(|e| {
            let limit = self
                .ctx
                .attribute(
                    sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                )
                .map(|n| format!("{n} bytes"))
                .unwrap_or_else(|_| "unknown".into());
            cuda_error(
                format_args!(
                    "allowing kernel `{kernel}` {shared_bytes} bytes of dynamic shared memory \
                     (the device's limit is {limit}, less the kernel's static shared memory)"
                ),
                e,
            )
        })
    }

    unsafe fn launch_kernel(
        &self,
        module: &CudaModule,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        params: &mut [*mut c_void],
    ) -> Result<(), DriverError> {
        self.ctx.bind_to_thread()?;
        // SAFETY: the function belongs to a module loaded in this context
        // (`loaded_elsewhere` was asked); the caller vouches for `params`.
        unsafe {
            result::launch_kernel(
                module.function(),
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                shared_bytes,
                self.stream.cu_stream(),
                params,
            )
        }
    }

    fn event(&self) -> Result<CudaEvent, DriverError> {
        self.ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
    }

    fn record(&self, event: &CudaEvent) -> Result<(), DriverError> {
        event.record(&self.stream)
    }

    fn elapsed_ms(&self, start: &CudaEvent, end: &CudaEvent) -> Result<f32, DriverError> {
        start.elapsed_ms(end)
    }

    fn synchronize(&self) -> Result<(), DriverError> {
        self.stream.synchronize()
    }

    fn finished(&self) -> Result<Option<bool>, DriverError> {
        self.ctx.bind_to_thread()?;
        // SAFETY: the stream is live (held by `self`).
        match unsafe { sys::cuStreamQuery(self.stream.cu_stream()) } {
            sys::CUresult::CUDA_SUCCESS => Ok(Some(true)),
            sys::CUresult::CUDA_ERROR_NOT_READY => Ok(Some(false)),
            error => Err(DriverError(error)),
        }
    }

    fn wait_limit(&self) -> &WaitLimit {
        &self.wait_limit
    }

    fn hold(&self, duration: Duration) -> Result<bool, NativeError> {
        self.queue_hold(duration).map(|()| true)
    }
}

#[cfg(test)]
mod tests;
