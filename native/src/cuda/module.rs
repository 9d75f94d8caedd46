//! Loading PTX into a CUDA context: the JIT with its error log, the kernel
//! looked up in it, and unloading.
//!
//! cudarc's `CudaContext::load_module` needs its `nvrtc` feature and uses
//! `cuModuleLoadData`, which drops the JIT's error log: a PTX generator
//! needs ptxas's message ("line 42: unknown instruction"), so
//! [`CudaModule::load`] uses `cuModuleLoadDataEx` with log buffers. A raw
//! `CUfunction` cannot be put in cudarc's `CudaFunction`, so launches use
//! `cuLaunchKernel` directly (see [`super::Cuda`]'s `launch_kernel`).

use std::ffi::{CString, c_void};
use std::mem::MaybeUninit;
use std::sync::Arc;

use cudarc::driver::{CudaContext, result, sys};

use super::{cuda_error, describe};
use crate::error::NativeError;

/// Size of each JIT log buffer handed to `cuModuleLoadDataEx`.
const JIT_LOG_BYTES: usize = 16 * 1024;

/// A JIT-compiled PTX module and one of its entry points.
///
/// It keeps its device's context alive; [`crate::driver::Kernel`] unloads it.
#[derive(Debug)]
pub struct CudaModule {
    ctx: Arc<CudaContext>,
    module: sys::CUmodule,
    function: sys::CUfunction,
}

// SAFETY: `CUmodule` and `CUfunction` are driver handles, which the driver
// lets any thread use once the owning context is current; every use here
// binds `ctx` to the calling thread first. cudarc's own `CudaModule` and
// `CudaFunction` make the same claim.
unsafe impl Send for CudaModule {}
// SAFETY: as for `Send`; `CudaModule` has no interior mutability.
unsafe impl Sync for CudaModule {}

/// The text a JIT log buffer holds: up to its first NUL.
pub(super) fn log_text(buffer: &[u8]) -> String {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).trim().to_string()
}

/// The names after `.entry` in PTX text, for "no such kernel" errors.
pub(super) fn ptx_entries(ptx: &str) -> Vec<&str> {
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

impl CudaModule {
    /// JIT-loads PTX text in `ctx` (the driver assembles it for the device)
    /// and finds the kernel `entry`. A PTX error carries the JIT's log.
    pub(super) fn load(
        ctx: &Arc<CudaContext>,
        ptx: &str,
        entry: &str,
    ) -> Result<CudaModule, NativeError> {
        let source = CString::new(ptx)
            .map_err(|_| NativeError::Abi("the PTX text contains a NUL byte".into()))?;
        let entry_c = CString::new(entry).map_err(|_| {
            NativeError::Abi(format!("the kernel name {entry:?} contains a NUL byte"))
        })?;
        ctx.bind_to_thread()
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
            if e.0 == sys::cudaError_enum::CUDA_ERROR_UNSUPPORTED_PTX_VERSION {
                let mut version = 0;
                // SAFETY: writes one int through a valid pointer.
                let known = unsafe { sys::cuDriverGetVersion(&mut version) }.result();
                message.push_str(&too_old(ptx, known.ok().map(|()| version)));
            }
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
            Ok(function) => Ok(CudaModule {
                ctx: ctx.clone(),
                module,
                function,
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

    /// The kernel's function handle.
    pub(super) fn function(&self) -> sys::CUfunction {
        self.function
    }

    /// Whether the module was loaded in `ctx`.
    pub(super) fn belongs_to(&self, ctx: &CudaContext) -> bool {
        self.ctx.cu_ctx() == ctx.cu_ctx()
    }

    /// Unloads the module (once: [`crate::driver::Kernel`]'s `Drop`).
    pub(super) fn unload(&self) -> Result<(), String> {
        self.ctx
            .bind_to_thread()
            // SAFETY: `module` came from `cuModuleLoadDataEx` and is unloaded
            // only here; its functions die with it, and `self.function` is
            // the only copy.
            .and_then(|()| unsafe { result::module::unload(self.module) })
            .map_err(describe)
    }
}

/// What a driver that refuses the PTX's ISA version should hear: the
/// version the PTX declares, the driver's CUDA version, and to update it.
pub(super) fn too_old(ptx: &str, driver: Option<i32>) -> String {
    let isa = ptx
        .lines()
        .find_map(|l| l.trim().strip_prefix(".version "))
        .unwrap_or("?");
    let driver = driver.map_or("an unknown CUDA version".to_string(), |v| {
        format!("CUDA {}.{}", v / 1000, v % 1000 / 10)
    });
    format!(
        " (the PTX is ISA {isa}, which this driver, of {driver}, is too old for: update the NVIDIA \
         driver)"
    )
}
