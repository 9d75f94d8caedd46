//! CUDA dispatch through cudarc's driver API.
//!
//! `libcuda.so` is loaded at run time (cudarc's `dynamic-loading`), so this
//! builds and links on machines without CUDA; [`Cuda::open`] is where a
//! missing driver shows up, as [`NativeError::NoCudaDriver`].
//!
//! The kernel ABI: for each buffer, in order, two parameters — the buffer's
//! device address (`u64`) and its length in bytes (`u32`).
//!
//! Contexts, streams, memory and events use cudarc's safe API. Modules and
//! launches go through the raw driver calls instead, because cudarc's
//! `CudaContext::load_module` needs its `nvrtc` feature and uses
//! `cuModuleLoadData`, which drops the JIT's error log: a PTX generator needs
//! ptxas's message ("line 42: unknown instruction"), so [`Cuda::load`] uses
//! `cuModuleLoadDataEx` with log buffers. A raw `CUfunction` cannot be put in
//! cudarc's `CudaFunction`, so launches use `cuLaunchKernel` directly.

use std::ffi::{CString, c_void};
use std::fmt::Display;
use std::mem::MaybeUninit;
use std::sync::Arc;

use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, DriverError, result, sys,
};

use crate::abi::KernelArgs;
use crate::error::NativeError;

mod resident;

pub use resident::{CudaBuffer, CudaStep};

/// Bytes of dynamic shared memory a kernel may use without opting in with
/// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` (48 KiB on every
/// architecture since Volta).
const DEFAULT_DYNAMIC_SHARED_LIMIT: u32 = 48 * 1024;

/// Size of each JIT log buffer handed to `cuModuleLoadDataEx`.
const JIT_LOG_BYTES: usize = 16 * 1024;

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
}

/// A loaded kernel: a JIT-compiled PTX module and one of its entry points.
///
/// It keeps its device's context alive and unloads its module when dropped.
#[derive(Debug)]
pub struct CudaKernel {
    ctx: Arc<CudaContext>,
    module: sys::CUmodule,
    function: sys::CUfunction,
    name: String,
}

// SAFETY: `CUmodule` and `CUfunction` are driver handles, which the driver
// lets any thread use once the owning context is current; every use here
// binds `ctx` to the calling thread first. cudarc's own `CudaModule` and
// `CudaFunction` make the same claim.
unsafe impl Send for CudaKernel {}
// SAFETY: as for `Send`; `CudaKernel` has no interior mutability.
unsafe impl Sync for CudaKernel {}

impl CudaKernel {
    /// The entry point's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for CudaKernel {
    fn drop(&mut self) {
        let unloaded = self
            .ctx
            .bind_to_thread()
            // SAFETY: `module` came from `cuModuleLoadDataEx` and is unloaded
            // only here; its functions die with it, and `self.function` is
            // the only copy.
            .and_then(|()| unsafe { result::module::unload(self.module) });
        if let Err(e) = unloaded {
            log::warn!(
                "unloading the module of kernel `{}`: {}",
                self.name,
                describe(e)
            );
        }
    }
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

/// The text a JIT log buffer holds: up to its first NUL.
fn log_text(buffer: &[u8]) -> String {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).trim().to_string()
}

/// Milliseconds between each pair's events, once the stream has finished.
fn elapsed_ms(pairs: &[(CudaEvent, CudaEvent)]) -> Result<Vec<f32>, NativeError> {
    pairs
        .iter()
        .map(|(start, end)| {
            start
                .elapsed_ms(end)
                .map_err(|e| cuda_error("reading a timing event", e))
        })
        .collect()
}

/// The names after `.entry` in PTX text, for "no such kernel" errors.
fn ptx_entries(ptx: &str) -> Vec<&str> {
    ptx.split(".entry")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            (end > 0).then(|| &rest[..end])
        })
        .collect()
}

/// A buffer on the device: its allocation (at least 4 bytes, since a
/// zero-byte allocation is an error or a null pointer depending on the
/// allocator) and the caller's length.
struct DeviceBuffer {
    memory: CudaSlice<u8>,
    len: usize,
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
        let stream = ctx.default_stream();
        Ok(Cuda { ctx, stream })
    }

    /// The device's name, e.g. `NVIDIA H100 80GB HBM3`.
    pub fn name(&self) -> Result<String, NativeError> {
        self.ctx
            .name()
            .map_err(|e| cuda_error("reading the device name", e))
    }

    /// The compute capability as (major, minor), e.g. (9, 0) on H100.
    pub fn compute_capability(&self) -> Result<(u32, u32), NativeError> {
        let (major, minor) = self
            .ctx
            .compute_capability()
            .map_err(|e| cuda_error("reading the compute capability", e))?;
        Ok((major as u32, minor as u32))
    }

    /// The CUDA version the driver supports, as `1000 * major + 10 * minor`:
    /// e.g. 13000 for CUDA 13.0.
    pub fn driver_version(&self) -> Result<u32, NativeError> {
        let mut version = 0;
        // SAFETY: writes one int through a valid pointer; needs no context.
        unsafe { sys::cuDriverGetVersion(&mut version) }
            .result()
            .map_err(|e| cuda_error("reading the driver version", e))?;
        Ok(version as u32)
    }

    /// JIT-loads PTX text (the driver assembles it for this device) and finds
    /// the kernel `entry`. A PTX error carries the JIT's log.
    pub fn load(&self, ptx: &str, entry: &str) -> Result<CudaKernel, NativeError> {
        let source = CString::new(ptx)
            .map_err(|_| NativeError::Abi("the PTX text contains a NUL byte".into()))?;
        let entry_c = CString::new(entry).map_err(|_| {
            NativeError::Abi(format!("the kernel name {entry:?} contains a NUL byte"))
        })?;
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))?;

        let mut error_log = vec![0u8; JIT_LOG_BYTES];
        let mut info_log = vec![0u8; JIT_LOG_BYTES];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        // Sizes travel in the pointer-sized value slots themselves, as the
        // driver API specifies for integer options.
        let mut values: [*mut c_void; 4] = [
            error_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(JIT_LOG_BYTES),
            info_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(JIT_LOG_BYTES),
        ];
        let mut module = MaybeUninit::uninit();
        // SAFETY: `source` is NUL-terminated PTX; the options and values
        // arrays have the same length; the log buffers outlive the call and
        // are as large as the sizes say.
        let loaded = unsafe {
            sys::cuModuleLoadDataEx(
                module.as_mut_ptr(),
                source.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        }
        .result();
        let info = log_text(&info_log);
        if let Err(e) = loaded {
            let errors = log_text(&error_log);
            let log = [errors, info]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            // The driver's verdict first, then the JIT's (ptxas's) own lines.
            let mut message = format!("JIT-compiling the PTX of kernel `{entry}`: {}", describe(e));
            if !log.is_empty() {
                message.push('\n');
                message.push_str(&log);
            }
            return Err(NativeError::Cuda(message));
        }
        if !info.is_empty() {
            log::debug!("CUDA JIT for `{entry}`: {info}");
        }
        // SAFETY: cuModuleLoadDataEx succeeded, so it wrote the handle.
        let module = unsafe { module.assume_init() };

        // SAFETY: `module` is loaded and not yet unloaded.
        match unsafe { result::module::get_function(module, entry_c) } {
            Ok(function) => Ok(CudaKernel {
                ctx: self.ctx.clone(),
                module,
                function,
                name: entry.to_string(),
            }),
            Err(e) => {
                // SAFETY: nothing else holds `module`.
                if let Err(unload) = unsafe { result::module::unload(module) } {
                    log::warn!("unloading a module without `{entry}`: {}", describe(unload));
                }
                Err(cuda_error(
                    format_args!(
                        "finding kernel `{entry}` in the PTX (its entries: {:?})",
                        ptx_entries(ptx)
                    ),
                    e,
                ))
            }
        }
    }

    /// Runs `kernel` once on `buffers` and copies them back.
    ///
    /// The kernel ABI: for each buffer in order, two parameters — a device
    /// pointer (`u64`) and its length in bytes (`u32`). Copies every buffer to
    /// the device (allocating at least 4 bytes, zeroed, even for an empty
    /// one), launches `grid` blocks of `block` threads with `shared_bytes`
    /// of dynamic shared memory, waits for it, and copies every buffer back
    /// into its `Vec`.
    pub fn launch(
        &self,
        kernel: &CudaKernel,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        self.check_launch(kernel, buffers, grid, block, shared_bytes)?;
        let device = self.upload(buffers)?;
        let mut args = self.kernel_args(&device);
        self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
        self.finish(kernel)?;
        self.download(&device, buffers)
    }

    /// Like [`Cuda::launch`], but the buffers stay on the device between
    /// runs: `warmup` untimed launches, then `runs` launches each timed with a
    /// pair of CUDA events around it. Returns each run's GPU time in
    /// milliseconds (event resolution is about half a microsecond). The
    /// buffers are copied back after the last run, so they hold the result of
    /// `warmup + runs` launches in a row.
    #[allow(clippy::too_many_arguments)]
    pub fn time(
        &self,
        kernel: &CudaKernel,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f32>, NativeError> {
        self.check_launch(kernel, buffers, grid, block, shared_bytes)?;
        let device = self.upload(buffers)?;
        let mut args = self.kernel_args(&device);

        let pairs = self.event_pairs(runs)?;
        for _ in 0..warmup {
            self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
        }
        for (start, end) in &pairs {
            self.record(start)?;
            self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
            self.record(end)?;
        }
        // One wait for all of it: a failing kernel surfaces here, with its
        // name, rather than as an odd event error.
        self.finish(kernel)?;
        let times = elapsed_ms(&pairs)?;
        self.download(&device, buffers)?;
        Ok(times)
    }

    /// A (start, end) event pair per timed run, all created before the first
    /// launch so that no driver call other than launches and records sits
    /// between timed kernels.
    fn event_pairs(&self, runs: usize) -> Result<Vec<(CudaEvent, CudaEvent)>, NativeError> {
        let event = || {
            self.ctx
                .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| cuda_error("creating a timing event", e))
        };
        (0..runs).map(|_| Ok((event()?, event()?))).collect()
    }

    /// Records `event` on the stream.
    fn record(&self, event: &CudaEvent) -> Result<(), NativeError> {
        event
            .record(&self.stream)
            .map_err(|e| cuda_error("recording a timing event", e))
    }

    /// Rejects what the driver would reject with a less helpful message.
    fn check_launch(
        &self,
        kernel: &CudaKernel,
        buffers: &[Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        if kernel.ctx.cu_ctx() != self.ctx.cu_ctx() {
            return Err(NativeError::Cuda(format!(
                "kernel `{}` was loaded on another device",
                kernel.name
            )));
        }
        if grid.contains(&0) || block.contains(&0) {
            return Err(NativeError::Cuda(format!(
                "launching kernel `{}` with grid {grid:?} and block {block:?}: \
                 every dimension must be at least 1",
                kernel.name
            )));
        }
        for (i, buffer) in buffers.iter().enumerate() {
            if u32::try_from(buffer.len()).is_err() {
                return Err(NativeError::Binding(format!(
                    "buffer {i} of kernel `{}` is {} bytes; the kernel ABI passes lengths \
                     as u32, so at most {} bytes",
                    kernel.name,
                    buffer.len(),
                    u32::MAX
                )));
            }
        }
        if shared_bytes > DEFAULT_DYNAMIC_SHARED_LIMIT {
            // Above 48 KiB a kernel must opt in, per function.
            self.ctx
                .bind_to_thread()
                .map_err(|e| cuda_error("making the CUDA context current", e))?;
            // SAFETY: `kernel.function` belongs to a loaded module.
            unsafe {
                result::function::set_function_attribute(
                    kernel.function,
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
                        "allowing kernel `{}` {shared_bytes} bytes of dynamic shared memory \
                         (the device's limit is {limit}, less the kernel's static shared memory)",
                        kernel.name
                    ),
                    e,
                )
            })?;
        }
        Ok(())
    }

    /// Copies every buffer to a fresh device allocation.
    fn upload(&self, buffers: &[Vec<u8>]) -> Result<Vec<DeviceBuffer>, NativeError> {
        buffers
            .iter()
            .enumerate()
            .map(|(i, buffer)| {
                // Zeroed so that the padding of a short buffer is defined.
                let mut memory =
                    self.stream
                        .alloc_zeros::<u8>(buffer.len().max(4))
                        .map_err(|e| {
                            cuda_error(
                                format_args!("allocating {} bytes for buffer {i}", buffer.len()),
                                e,
                            )
                        })?;
                if !buffer.is_empty() {
                    self.stream
                        .memcpy_htod(buffer.as_slice(), &mut memory)
                        .map_err(|e| {
                            cuda_error(format_args!("copying buffer {i} to the device"), e)
                        })?;
                }
                Ok(DeviceBuffer {
                    memory,
                    len: buffer.len(),
                })
            })
            .collect()
    }

    /// The kernel ABI's parameters for `device`.
    fn kernel_args(&self, device: &[DeviceBuffer]) -> KernelArgs {
        let mut addresses = Vec::with_capacity(device.len());
        let mut lengths = Vec::with_capacity(device.len());
        for buffer in device {
            // The guard cudarc returns records a "read" event for cross-stream
            // ordering; with a single stream, stream order already covers
            // every later launch and copy, so it is dropped at once.
            let (address, _guard) = buffer.memory.device_ptr(&self.stream);
            addresses.push(address);
            // Checked in `check_launch`.
            lengths.push(buffer.len as u32);
        }
        KernelArgs { addresses, lengths }
    }

    /// Queues one launch; does not wait for it.
    fn enqueue(
        &self,
        kernel: &CudaKernel,
        args: &mut KernelArgs,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| cuda_error("making the CUDA context current", e))?;
        let mut params = args.pointers();
        // SAFETY: `kernel.function` belongs to a module loaded in this
        // context; `params` points at one value per kernel parameter in the
        // ABI's order and types, read by the driver before this returns; the
        // device addresses stay allocated until after the final
        // synchronisation (the caller holds the `DeviceBuffer`s).
        unsafe {
            result::launch_kernel(
                kernel.function,
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                shared_bytes,
                self.stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| {
            cuda_error(
                format_args!(
                    "launching kernel `{}` with grid {grid:?}, block {block:?} and \
                     {shared_bytes} bytes of dynamic shared memory",
                    kernel.name
                ),
                e,
            )
        })
    }

    /// Waits for everything queued; a kernel that faulted reports here.
    fn finish(&self, kernel: &CudaKernel) -> Result<(), NativeError> {
        self.stream
            .synchronize()
            .map_err(|e| cuda_error(format_args!("running kernel `{}`", kernel.name), e))
    }

    /// Copies every device buffer back into its `Vec` and waits for the
    /// copies.
    fn download(
        &self,
        device: &[DeviceBuffer],
        buffers: &mut [Vec<u8>],
    ) -> Result<(), NativeError> {
        for (i, (buffer, host)) in device.iter().zip(buffers.iter_mut()).enumerate() {
            if buffer.len == 0 {
                continue;
            }
            self.stream
                .memcpy_dtoh(&buffer.memory.slice(..buffer.len), host.as_mut_slice())
                .map_err(|e| cuda_error(format_args!("copying buffer {i} back"), e))?;
        }
        // A copy into pageable memory normally completes before the call
        // returns, but the driver does not promise it for every path: wait.
        self.stream
            .synchronize()
            .map_err(|e| cuda_error("waiting for the copies back", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn driver_present() -> bool {
        // SAFETY: see `Cuda::open`.
        unsafe { sys::is_culib_present() }
    }

    #[test]
    fn open_without_a_driver_is_an_error_naming_libcuda() {
        if driver_present() {
            // With a driver, open may well succeed; that is the GPU test's job.
            return;
        }
        match Cuda::open(0) {
            Err(NativeError::NoCudaDriver(message)) => {
                assert!(message.contains("libcuda"), "{message}");
            }
            other => panic!("expected NoCudaDriver, got {other:?}"),
        }
        // A second call behaves the same (nothing was half-initialised).
        assert!(matches!(Cuda::open(3), Err(NativeError::NoCudaDriver(_))));
    }

    #[test]
    fn lists_ptx_entries() {
        let ptx = ".visible .entry add_one(\n.param .u64 p)\n{}\n.entry $k2 ( ) {}";
        assert_eq!(ptx_entries(ptx), ["add_one", "$k2"]);
        assert!(ptx_entries(".func f() {}").is_empty());
    }

    #[test]
    fn reads_jit_logs_up_to_the_nul() {
        let mut buffer = b"ptxas error   : line 3\n".to_vec();
        buffer.extend_from_slice(&[0, b'x', b'y']);
        assert_eq!(log_text(&buffer), "ptxas error   : line 3");
        assert_eq!(log_text(&[0; 8]), "");
    }

    /// Adds 1 to every u32 of buffer 0 (one thread per element, bounds
    /// checked against the byte length) and stores the thread count in
    /// buffer 1. Runs only where there is a CUDA driver and device.
    const ADD_ONE_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry add_one(
	.param .u64 data, .param .u32 data_len,
	.param .u64 out, .param .u32 out_len
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;

	ld.param.u64 %rd1, [data];
	ld.param.u32 %r1, [data_len];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	shl.b32 %r6, %r5, 2;
	setp.ge.u32 %p1, %r6, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r5, 4;
	add.u64 %rd4, %rd2, %rd3;
	ld.global.u32 %r7, [%rd4];
	add.u32 %r7, %r7, 1;
	st.global.u32 [%rd4], %r7;
	setp.ne.u32 %p1, %r5, 0;
	@%p1 bra DONE;
	ld.param.u64 %rd5, [out];
	cvta.to.global.u64 %rd5, %rd5;
	mov.u32 %r7, %nctaid.x;
	mul.lo.u32 %r7, %r7, %r3;
	st.global.u32 [%rd5], %r7;
DONE:
	ret;
}
"#;

    #[test]
    fn launches_and_times_on_a_gpu() {
        if !driver_present() {
            return;
        }
        let cuda = match Cuda::open(0) {
            Ok(cuda) => cuda,
            // A driver without a device (a CI machine with libcuda but no
            // GPU): nothing to run on.
            Err(NativeError::NoCudaDriver(message)) => {
                eprintln!("skipping: {message}");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let (major, minor) = cuda.compute_capability().unwrap();
        eprintln!(
            "{} sm_{major}{minor}, driver CUDA {}",
            cuda.name().unwrap(),
            cuda.driver_version().unwrap()
        );
        assert!(major >= 5);
        assert!(cuda.driver_version().unwrap() >= 11000);
        assert!(!cuda.name().unwrap().is_empty());

        let kernel = cuda.load(ADD_ONE_PTX, "add_one").unwrap();
        assert_eq!(kernel.name(), "add_one");
        let n = 1000u32;
        let data: Vec<u8> = (0..n).flat_map(|i| (i * 3).to_le_bytes()).collect();
        let mut buffers = vec![data, vec![0u8; 4]];
        cuda.launch(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0)
            .unwrap();
        for i in 0..n as usize {
            let v = u32::from_le_bytes(buffers[0][4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(v, 3 * i as u32 + 1, "element {i}");
        }
        assert_eq!(buffers[1], 1024u32.to_le_bytes());

        // Empty buffers and > 48 KiB of dynamic shared memory.
        let mut empty = vec![Vec::new(), vec![0u8; 4]];
        cuda.launch(&kernel, &mut empty, [1, 1, 1], [32, 1, 1], 64 * 1024)
            .unwrap();
        assert!(empty[0].is_empty());

        let times = cuda
            .time(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0, 2, 5)
            .unwrap();
        eprintln!("add_one times (ms): {times:?}");
        assert_eq!(times.len(), 5);
        assert!(times.iter().all(|&t| t > 0.0 && t < 1000.0), "{times:?}");
        let first = u32::from_le_bytes(buffers[0][4..8].try_into().unwrap());
        assert_eq!(first, 3 + 1 + 7, "one launch, then 2 warm-up and 5 timed");

        // Errors: bad PTX carries the JIT log; unknown entries list the real ones.
        let bad = ADD_ONE_PTX.replace("add.u32 %r7, %r7, 1;", "bogus.u32 %r7;");
        match cuda.load(&bad, "add_one") {
            Err(NativeError::Cuda(message)) => {
                eprintln!("bad PTX: {message}");
                assert!(message.contains("bogus"), "{message}")
            }
            other => panic!("expected a JIT error, got {other:?}"),
        }
        match cuda.load(ADD_ONE_PTX, "nope") {
            Err(NativeError::Cuda(message)) => {
                assert!(message.contains("add_one"), "{message}")
            }
            other => panic!("expected a missing-entry error, got {other:?}"),
        }
        assert!(matches!(
            cuda.launch(&kernel, &mut buffers, [0, 1, 1], [1, 1, 1], 0),
            Err(NativeError::Cuda(_))
        ));
        match Cuda::open(1000) {
            Err(NativeError::NoCudaDriver(message)) => {
                eprintln!("device 1000: {message}");
                assert!(message.contains("libcuda"), "{message}");
            }
            other => panic!("expected NoCudaDriver, got {other:?}"),
        }
    }
}
