//! Loading an AMDGPU code object on a HIP device: the image checked and
//! kept aligned for the runtime, the kernel looked up in it, and unloading.

use std::ffi::{CString, c_int};
use std::fmt;
use std::sync::Arc;

use super::api::{Api, HIP_SUCCESS, HIP_TOOL, Handle};
use super::arch::{ARCH_ENV, arch_from_env};
use crate::amdgpu::code_object::{check_image, image_kernels};
use crate::error::NativeError;

/// A loaded code object and one of its kernels.
///
/// It keeps the runtime loaded; [`crate::driver::Kernel`] unloads it.
pub struct HipModule {
    api: Arc<Api>,
    device: c_int,
    module: Handle,
    function: Handle,
    /// The code object, 8-byte aligned (the runtime reads ELF headers in
    /// place). `hipModuleLoadData` takes no size, and HIP's documentation
    /// does not promise that it copies the image before returning, so the
    /// bytes it was given live as long as the module.
    _image: Vec<u64>,
}

impl fmt::Debug for HipModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HipModule")
            .field("device", &self.device)
            .field("module", &self.module)
            .field("function", &self.function)
            .finish_non_exhaustive()
    }
}

// SAFETY: `hipModule_t` and `hipFunction_t` are process-wide runtime handles
// that HIP lets any thread use; every use here first makes the module's
// device current on the calling thread. The image is only read.
unsafe impl Send for HipModule {}
// SAFETY: as for `Send`; `HipModule` has no interior mutability.
unsafe impl Sync for HipModule {}

/// `bytes` in a buffer aligned for ELF64 structures (8 bytes), zero-padded
/// to a whole number of words, since the runtime reads the headers in place.
pub(super) fn aligned_copy(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|chunk| {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            // Native order: the words' memory then holds `bytes` in order.
            u64::from_ne_bytes(word)
        })
        .collect()
}

impl HipModule {
    /// Loads an AMDGPU code object (`.hsaco`) on `device` and finds the
    /// kernel `entry` — its plain name, not the `entry.kd` descriptor
    /// symbol.
    ///
    /// The image is checked first ([`check_image`]), because
    /// `hipModuleLoadData` takes no size and reads as far as the image's own
    /// headers say; an image that fails the check (a compressed `CCOB`
    /// bundle included) is a [`NativeError::Abi`].
    pub(super) fn load(
        api: &Arc<Api>,
        device: c_int,
        hsaco: &[u8],
        entry: &str,
    ) -> Result<HipModule, NativeError> {
        check_image(hsaco).map_err(|why| {
            NativeError::Abi(format!("the code object for kernel `{entry}` {why}"))
        })?;
        let entry_c = CString::new(entry).map_err(|_| {
            NativeError::Abi(format!("the kernel name {entry:?} contains a NUL byte"))
        })?;
        let image = aligned_copy(hsaco);
        api.make_current(device)?;

        let mut module: Handle = std::ptr::null_mut();
        // SAFETY: `image` is a checked code object (everything its headers
        // point at is inside it) that outlives the module: it moves into the
        // `HipModule` (moving a `Vec` does not move its heap buffer).
        let code = unsafe { (api.module_load_data)(&mut module, image.as_ptr().cast()) };
        if code != HIP_SUCCESS {
            // The usual cause is a code object for another architecture
            // (hipErrorNoBinaryForGpu), so say which one the device needs.
            let needed = arch_from_env().map_or_else(
                || format!("the one `rocminfo` reports, also to be given in {ARCH_ENV}"),
                |arch| format!("{arch}, per {ARCH_ENV}"),
            );
            api.check(
                code,
                format_args!(
                    "loading the code object of kernel `{entry}` ({} bytes; it must be \
                     compiled for this GPU's architecture: {needed})",
                    hsaco.len()
                ),
            )?;
        }

        let mut function: Handle = std::ptr::null_mut();
        // SAFETY: `module` is loaded and not yet unloaded; `entry_c` is
        // NUL-terminated.
        let code = unsafe { (api.module_get_function)(&mut function, module, entry_c.as_ptr()) };
        if let Err(e) = api.check(code, "hipModuleGetFunction") {
            // SAFETY: nothing else holds `module`.
            let unload = unsafe { (api.module_unload)(module) };
            if let Err(unload) = api.check(unload, "hipModuleUnload") {
                log::warn!("unloading a module without `{entry}`: {unload}");
            }
            let hint = if entry.ends_with(".kd") {
                "; give the kernel's own name, without `.kd`"
            } else {
                ""
            };
            return Err(NativeError::Tool {
                tool: HIP_TOOL.into(),
                message: format!(
                    "finding kernel `{entry}` in the code object (its kernels: {:?}{hint}): {}",
                    image_kernels(hsaco),
                    match e {
                        NativeError::Tool { message, .. } => message,
                        other => other.to_string(),
                    }
                ),
            });
        }
        Ok(HipModule {
            api: api.clone(),
            device,
            module,
            function,
            _image: image,
        })
    }

    /// The kernel's function handle.
    pub(super) fn function(&self) -> Handle {
        self.function
    }

    /// Where the module was loaded when that is not `device` of `api`'s
    /// runtime: "HIP device 1, not on device 0".
    pub(super) fn loaded_elsewhere(&self, api: &Arc<Api>, device: c_int) -> Option<String> {
        (!Arc::ptr_eq(&self.api, api) || self.device != device)
            .then(|| format!("HIP device {}, not on device {device}", self.device))
    }

    /// Unloads the module (once: [`crate::driver::Kernel`]'s `Drop`).
    pub(super) fn unload(&self) -> Result<(), String> {
        self.api
            .make_current(self.device)
            .and_then(|()| {
                // SAFETY: `module` came from `hipModuleLoadData` and is
                // unloaded only here; its function dies with it, and
                // `self.function` is the only copy.
                let code = unsafe { (self.api.module_unload)(self.module) };
                self.api.check(code, "hipModuleUnload")
            })
            .map_err(|e| e.to_string())
    }
}
