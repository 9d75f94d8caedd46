//! HIP dispatch on AMD GPUs, through ROCm's HIP runtime loaded at run time:
//! [`Hip`], a [`Driver`].
//!
//! `libamdhip64.so` is opened with `dlopen` (libloading) the first time a
//! device is opened — looked for under `$ROCM_PATH`, `$HIP_PATH` and
//! `/opt/rocm`, then through the dynamic loader's own search — so this
//! builds and links on machines without ROCm; [`Hip::open`] is where a missing
//! runtime shows up, as a [`NativeError::Tool`] whose tool is
//! [`RUNTIME_TOOL`] (test for it with [`is_no_runtime`]).
//!
//! Launches, timing, resident buffers and programs are the driver layer's
//! ([`crate::driver::Launch`], [`crate::driver::Programs`]), through the
//! kernel ABI of [`crate::abi`]; this is the HIP side of them. Kernels come
//! as AMDGPU code objects (`.hsaco`: an ELF shared object from `ld.lld
//! -shared`, or an uncompressed clang offload bundle), checked by
//! [`crate::amdgpu::code_object`] and loaded with `hipModuleLoadData`; a
//! failing HIP call becomes a [`NativeError::Tool`] whose tool is `HIP`,
//! with the runtime's message.
//!
//! Only calls whose C signatures have been stable since ROCm 5 are used.
//! `hipGetDeviceProperties` is not: from ROCm 6 it is a macro for
//! `hipGetDevicePropertiesR0600`, and `hipDeviceProp_t`'s layout changes
//! between releases. Nor is `hipDeviceGetAttribute` asked for anything by
//! number here, because the values of `hipDeviceAttribute_t` are not promised
//! stable either ([`Hip::attribute`] passes the caller's number through). So
//! the two facts a code generator needs come from the caller:
//!
//! - the GPU architecture (`gfx942`, `gfx1100`), from the environment
//!   variable [`ARCH_ENV`] ([`arch_from_env`]) — `rocminfo` or
//!   `amdgpu-arch` print it on a ROCm machine;
//! - the wave size, which follows from the architecture and the code object
//!   ([`default_wave_size`]): HIP launches a kernel at the wave size it was
//!   compiled for, so dispatch does not need it.
//!
//! A kernel that faults on an AMD GPU usually does not come back as an
//! error: the ROCm runtime prints `Memory access fault by GPU node-N` and
//! aborts the process.

mod api;
mod arch;
mod handles;
mod module;
mod stream;

use std::ffi::{c_int, c_void};
use std::fmt::Display;
use std::path::Path;
use std::sync::Arc;

use self::api::{Api, HIP_SUCCESS, NOT_READY, no_runtime, runtime, status};
use crate::driver::{Buffer, Driver, Kernel, Step, WaitLimit};
use crate::error::NativeError;

pub use self::api::{HIP_TOOL, HipError, RUNTIME_TOOL, is_no_runtime};
pub use self::arch::{ARCH_ENV, arch_from_env, default_wave_size, parse_arch};
pub use self::handles::{HipEvent, HipMemory};
pub use self::module::HipModule;
pub use self::stream::HipStream;

/// A kernel loaded by [`Hip`].
pub type HipKernel = Kernel<Hip>;
/// A device-resident buffer of [`Hip`].
pub type HipBuffer = Buffer<Hip>;
/// A step of a program run by [`Hip`].
pub type HipStep<'a> = Step<'a, Hip>;

/// Size of the buffer `hipDeviceGetName` writes into.
const NAME_BYTES: usize = 256;

/// A HIP device.
///
/// Everything runs on the device's null stream, in order, which HIP
/// synchronises with every copy and launch, so no stream bookkeeping is
/// needed. Any thread may use a `Hip`: each call makes its device current on
/// the calling thread first.
#[derive(Clone, Debug)]
pub struct Hip {
    api: Arc<Api>,
    device: c_int,
    wait_limit: WaitLimit,
}

impl Hip {
    /// Opens HIP device `ordinal`: loads the runtime (once per process),
    /// calls `hipInit(0)`, checks that the device exists and makes it
    /// current.
    ///
    /// Fails with a [`NativeError::Tool`] whose tool is [`RUNTIME_TOOL`] —
    /// with a message naming `libamdhip64.so` — when the library cannot be
    /// loaded or lacks a function, `hipInit` fails, or there is no device
    /// `ordinal`.
    pub fn open(ordinal: usize) -> Result<Hip, NativeError> {
        Self::open_with(runtime()?, ordinal)
    }

    /// [`Hip::open`] on a given runtime (the tests pass a stub one).
    fn open_with(api: Arc<Api>, ordinal: usize) -> Result<Hip, NativeError> {
        let library = api.path.display();
        // SAFETY: `hipInit` takes flags, which must be 0.
        let code = unsafe { (api.init)(0) };
        if code != HIP_SUCCESS {
            return Err(no_runtime(format!(
                "{library} loaded but hipInit failed: {}",
                api.describe(code)
            )));
        }
        let mut count: c_int = 0;
        // SAFETY: writes one int through a valid pointer.
        let code = unsafe { (api.get_device_count)(&mut count) };
        // hipGetDeviceCount reports "no device" as an error (hipErrorNoDevice)
        // rather than as a count of 0.
        if code != HIP_SUCCESS || count <= 0 {
            let why = if code == HIP_SUCCESS {
                "reports no HIP device".to_string()
            } else {
                format!("found no usable device: {}", api.describe(code))
            };
            return Err(no_runtime(format!(
                "{library} loaded but {why} (HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES \
                 may hide devices; /dev/kfd must be accessible)"
            )));
        }
        let device = match c_int::try_from(ordinal) {
            Ok(device) if device < count => device,
            _ => {
                return Err(no_runtime(format!(
                    "there is no HIP device {ordinal}: {library} reports {count} device(s)"
                )));
            }
        };
        api.make_current(device)?;
        Ok(Hip {
            api,
            device,
            wait_limit: WaitLimit::default(),
        })
    }

    /// Where the HIP runtime was loaded from.
    pub fn library(&self) -> &Path {
        &self.api.path
    }

    /// One device attribute through `hipDeviceGetAttribute`, by the numeric
    /// value of `hipDeviceAttribute_t`.
    ///
    /// Those values differ between ROCm releases, so take `attribute` from
    /// the installed ROCm's `hip_runtime_api.h`; wavekit itself asks for
    /// none. A value the runtime does not know is an error, not a crash.
    pub fn attribute(&self, attribute: i32) -> Result<i32, NativeError> {
        let mut value: c_int = 0;
        // SAFETY: writes one int through a valid pointer.
        let code = unsafe { (self.api.device_get_attribute)(&mut value, attribute, self.device) };
        self.api
            .check(code, format_args!("reading device attribute {attribute}"))?;
        Ok(value)
    }

    /// `hipModuleLaunchKernel` of `module`'s function on `stream`, with
    /// `params` as its `kernelParams` (and no `extra`).
    ///
    /// # Safety
    ///
    /// The device is current; `module` was loaded on it; `stream` is a live
    /// stream of it (or null); `params` is as [`Driver::launch_kernel`]
    /// requires.
    pub(super) unsafe fn launch_raw(
        &self,
        module: &HipModule,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: *mut c_void,
        params: &mut [*mut c_void],
    ) -> Result<(), HipError> {
        // SAFETY: as the caller vouches; `extra` is null, so `kernelParams`
        // is what is used.
        status(unsafe {
            (self.api.module_launch_kernel)(
                module.function(),
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared_bytes,
                stream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
    }

    /// Makes this device current on the calling thread.
    fn current(&self) -> Result<(), HipError> {
        self.api.use_device(self.device)
    }
}

impl Driver for Hip {
    type Error = HipError;
    type Memory = HipMemory;
    type Event = HipEvent;
    type Image = [u8];
    type Module = HipModule;

    fn fail(&self, what: impl Display, error: HipError) -> NativeError {
        self.api.error(what, error)
    }

    fn refuse(&self, message: String) -> NativeError {
        NativeError::Tool {
            tool: HIP_TOOL.into(),
            message,
        }
    }

    /// The device's marketing name, e.g. `AMD Instinct MI300X`. Not the
    /// architecture: see [`arch_from_env`].
    fn name(&self) -> Result<String, NativeError> {
        let mut name = vec![0u8; NAME_BYTES];
        // SAFETY: the runtime writes at most `len` bytes, NUL included.
        let code = unsafe {
            (self.api.device_get_name)(name.as_mut_ptr().cast(), NAME_BYTES as c_int, self.device)
        };
        self.api.check(code, "reading the device name")?;
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        Ok(String::from_utf8_lossy(&name[..end]).trim().to_string())
    }

    /// The HIP runtime's version, `HIP_VERSION`'s encoding: `10_000_000 *
    /// major + 100_000 * minor + patch`, e.g. 60_443_483 for HIP 6.4.43483.
    fn version(&self) -> Result<u32, NativeError> {
        let mut version: c_int = 0;
        // SAFETY: writes one int through a valid pointer; needs no device.
        let code = unsafe { (self.api.runtime_get_version)(&mut version) };
        self.api.check(code, "reading the HIP runtime version")?;
        u32::try_from(version).map_err(|_| {
            self.refuse(format!(
                "the HIP runtime reports version {version}, which is not a version"
            ))
        })
    }

    /// `hipMalloc`, then `hipMemsetAsync` on the null stream (a later copy
    /// or launch on it comes after).
    fn alloc_zeroed(&self, bytes: usize) -> Result<HipMemory, HipError> {
        self.current()?;
        let mut pointer: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one pointer through a valid pointer.
        status(unsafe { (self.api.malloc)(&mut pointer, bytes) })?;
        // Owned from here: freed on every path out.
        let memory = HipMemory {
            api: self.api.clone(),
            pointer,
            bytes,
        };
        self.zero(&memory, bytes)?;
        Ok(memory)
    }

    fn address(&self, memory: &HipMemory) -> u64 {
        memory.pointer as u64
    }

    fn copy_to_device(&self, memory: &mut HipMemory, data: &[u8]) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: the allocation holds at least `data.len()` bytes (the
        // caller's contract); the runtime only reads `data` (the
        // prototype's `void*` is not `const` for historical reasons).
        status(unsafe {
            (self.api.memcpy_htod)(memory.pointer, data.as_ptr().cast_mut().cast(), data.len())
        })
    }

    fn copy_to_host(&self, memory: &HipMemory, host: &mut [u8]) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: `host` is `host.len()` bytes and the allocation at least
        // as large (the caller's contract).
        status(unsafe {
            (self.api.memcpy_dtoh)(host.as_mut_ptr().cast(), memory.pointer, host.len())
        })
    }

    fn zero(&self, memory: &HipMemory, bytes: usize) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: the allocation is live (borrowed) and at least `bytes`
        // long; the null stream orders it with everything else.
        status(unsafe { (self.api.memset_async)(memory.pointer, 0, bytes, std::ptr::null_mut()) })
    }

    fn copy_on_device(
        &self,
        src: &HipMemory,
        dst: &HipMemory,
        bytes: usize,
    ) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: both allocations are live and at least `bytes` long; the
        // null stream orders the copy with everything else.
        status(unsafe {
            (self.api.memcpy_dtod_async)(dst.pointer, src.pointer, bytes, std::ptr::null_mut())
        })
    }

    fn load_module(&self, hsaco: &[u8], entry: &str) -> Result<HipModule, NativeError> {
        HipModule::load(&self.api, self.device, hsaco, entry)
    }

    fn unload_module(module: &HipModule) -> Result<(), String> {
        module.unload()
    }

    fn loaded_elsewhere(&self, module: &HipModule) -> Option<String> {
        module.loaded_elsewhere(&self.api, self.device)
    }

    /// An HSA dispatch packet counts the grid in threads, as u32 per
    /// dimension, unlike CUDA which counts blocks.
    fn check_dimensions(&self, grid: [u32; 3], block: [u32; 3]) -> Result<(), String> {
        if grid
            .iter()
            .zip(block)
            .any(|(&g, b)| u64::from(g) * u64::from(b) > u64::from(u32::MAX))
        {
            return Err(
                "on AMD GPUs grid × block must fit in 32 bits in each dimension".to_string(),
            );
        }
        Ok(())
    }

    unsafe fn launch_kernel(
        &self,
        module: &HipModule,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        params: &mut [*mut c_void],
    ) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: the function belongs to a module loaded on this device
        // (`loaded_elsewhere` was asked); the caller vouches for `params`;
        // the null stream is the device's default stream.
        unsafe {
            self.launch_raw(
                module,
                grid,
                block,
                shared_bytes,
                std::ptr::null_mut(),
                params,
            )
        }
    }

    fn event(&self) -> Result<HipEvent, HipError> {
        self.current()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer.
        status(unsafe { (self.api.event_create)(&mut raw) })?;
        Ok(HipEvent {
            api: self.api.clone(),
            raw,
        })
    }

    fn record(&self, event: &HipEvent) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: `event` is live; the null stream is the device's default
        // stream, where the launches go.
        status(unsafe { (self.api.event_record)(event.raw, std::ptr::null_mut()) })
    }

    /// Waits for `end` first: a no-op after a device synchronisation, but it
    /// makes the elapsed time's precondition (both events complete) explicit.
    fn elapsed_ms(&self, start: &HipEvent, end: &HipEvent) -> Result<f32, HipError> {
        // SAFETY: `end` is live and recorded.
        status(unsafe { (self.api.event_synchronize)(end.raw) })?;
        let mut ms = 0f32;
        // SAFETY: writes one float; both events are live and done.
        status(unsafe { (self.api.event_elapsed_time)(&mut ms, start.raw, end.raw) })?;
        Ok(ms)
    }

    /// Waits for everything queued; a kernel that failed reports here (one
    /// that faulted usually aborts the process instead: see the module
    /// docs).
    fn synchronize(&self) -> Result<(), HipError> {
        self.current()?;
        // SAFETY: no arguments.
        status(unsafe { (self.api.device_synchronize)() })
    }

    /// `hipStreamQuery` of the null stream, where the launches go; `None`
    /// where the runtime lacks it.
    fn finished(&self) -> Result<Option<bool>, HipError> {
        let Some(query) = self.api.stream_query else {
            return Ok(None);
        };
        self.current()?;
        // SAFETY: the null stream is always valid.
        match unsafe { query(std::ptr::null_mut()) } {
            NOT_READY => Ok(Some(false)),
            code => status(code).map(|()| Some(true)),
        }
    }

    fn wait_limit(&self) -> &WaitLimit {
        &self.wait_limit
    }
}

#[cfg(test)]
mod tests;
