//! The HIP runtime's entry points, found in `libamdhip64.so` at run time:
//! where the library is looked for, the table of functions resolved from
//! it, and how its errors read.
//!
//! `libamdhip64.so` is looked for, in order, at
//! `$ROCM_PATH/lib/libamdhip64.so`, `$HIP_PATH/lib/libamdhip64.so`,
//! `/opt/rocm/lib/libamdhip64.so`, then under the bare names
//! `libamdhip64.so`, `libamdhip64.so.7` and `libamdhip64.so.6` (the
//! dynamic loader's search: `LD_LIBRARY_PATH`, `ld.so.cache`). Once loaded it
//! stays loaded for the life of the process: the HIP runtime starts threads
//! and registers exit handlers, which must not outlive its code.

use std::env;
use std::error::Error as StdError;
use std::ffi::{CStr, OsStr, c_char, c_int, c_uint, c_void};
use std::fmt::{self, Display};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use libloading::Library;

use crate::error::NativeError;

/// The `tool` of the [`NativeError::Tool`] returned when HIP cannot be used
/// at all: no `libamdhip64.so`, a symbol missing from it, `hipInit` failing,
/// or no such device. Analogous to [`NativeError::NoCudaDriver`].
pub const RUNTIME_TOOL: &str = "HIP runtime";

/// The `tool` of the [`NativeError::Tool`] returned when a HIP call fails on
/// a working runtime. Analogous to [`NativeError::Cuda`].
pub const HIP_TOOL: &str = "HIP";

/// The runtime library's file name, and the names it is also installed under
/// (ROCm 7's and ROCm 6's sonames), for the dynamic loader's own search.
const LIBRARY_NAMES: [&str; 3] = ["libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6"];

/// Where ROCm installs itself when `ROCM_PATH` is not set.
const DEFAULT_ROCM_PATH: &str = "/opt/rocm";

/// `hipError_t`: a C enum, so an `int`; 0 is `hipSuccess`.
pub(super) type Status = c_int;

/// `hipModule_t`, `hipFunction_t`, `hipEvent_t`, `hipStream_t` and
/// `hipDeviceptr_t` are all opaque pointers.
pub(super) type Handle = *mut c_void;

/// `hipSuccess`.
pub(super) const HIP_SUCCESS: Status = 0;
/// `hipErrorNotReady`: queued work has not finished (`hipStreamQuery`).
pub(super) const NOT_READY: Status = 600;

/// A HIP call's failure: its `hipError_t`, which the runtime names and
/// describes (see [`crate::driver::Driver::fail`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HipError(pub(super) Status);

/// `Ok` for `hipSuccess`, else the error.
pub(super) fn status(code: Status) -> Result<(), HipError> {
    if code == HIP_SUCCESS {
        Ok(())
    } else {
        Err(HipError(code))
    }
}

/// The runtime's entry points, resolved once. Field names are the C names
/// without the `hip` prefix.
pub(super) struct Api {
    pub(super) init: unsafe extern "C" fn(flags: c_uint) -> Status,
    pub(super) get_device_count: unsafe extern "C" fn(count: *mut c_int) -> Status,
    pub(super) set_device: unsafe extern "C" fn(device: c_int) -> Status,
    pub(super) device_get_attribute:
        unsafe extern "C" fn(value: *mut c_int, attribute: c_int, device: c_int) -> Status,
    pub(super) device_get_name:
        unsafe extern "C" fn(name: *mut c_char, len: c_int, device: c_int) -> Status,
    pub(super) module_load_data:
        unsafe extern "C" fn(module: *mut Handle, image: *const c_void) -> Status,
    pub(super) module_get_function:
        unsafe extern "C" fn(function: *mut Handle, module: Handle, name: *const c_char) -> Status,
    pub(super) module_launch_kernel: unsafe extern "C" fn(
        function: Handle,
        grid_x: c_uint,
        grid_y: c_uint,
        grid_z: c_uint,
        block_x: c_uint,
        block_y: c_uint,
        block_z: c_uint,
        shared_bytes: c_uint,
        stream: Handle,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> Status,
    pub(super) malloc: unsafe extern "C" fn(pointer: *mut *mut c_void, bytes: usize) -> Status,
    pub(super) free: unsafe extern "C" fn(pointer: *mut c_void) -> Status,
    /// `hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t)`: the device
    /// pointer comes first.
    pub(super) memcpy_htod:
        unsafe extern "C" fn(dst: Handle, src: *mut c_void, bytes: usize) -> Status,
    /// `hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t)`.
    pub(super) memcpy_dtoh:
        unsafe extern "C" fn(dst: *mut c_void, src: Handle, bytes: usize) -> Status,
    /// `hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t,
    /// hipStream_t)`.
    pub(super) memcpy_dtod_async:
        unsafe extern "C" fn(dst: Handle, src: Handle, bytes: usize, stream: Handle) -> Status,
    /// `hipMemsetAsync(void* dst, int value, size_t, hipStream_t)`.
    pub(super) memset_async: unsafe extern "C" fn(
        dst: *mut c_void,
        value: c_int,
        bytes: usize,
        stream: Handle,
    ) -> Status,
    pub(super) device_synchronize: unsafe extern "C" fn() -> Status,
    pub(super) module_unload: unsafe extern "C" fn(module: Handle) -> Status,
    get_error_string: unsafe extern "C" fn(error: Status) -> *const c_char,
    /// Optional: only used to put the error's name (`hipErrorInvalidImage`)
    /// next to its message, so a runtime without it is still usable.
    get_error_name: Option<unsafe extern "C" fn(error: Status) -> *const c_char>,
    pub(super) event_create: unsafe extern "C" fn(event: *mut Handle) -> Status,
    pub(super) event_record: unsafe extern "C" fn(event: Handle, stream: Handle) -> Status,
    pub(super) event_synchronize: unsafe extern "C" fn(event: Handle) -> Status,
    pub(super) event_elapsed_time:
        unsafe extern "C" fn(ms: *mut f32, start: Handle, stop: Handle) -> Status,
    pub(super) event_destroy: unsafe extern "C" fn(event: Handle) -> Status,
    pub(super) runtime_get_version: unsafe extern "C" fn(version: *mut c_int) -> Status,
    /// `hipStreamCreate(hipStream_t*)`: optional, only [`super::Hip::create_stream`]
    /// needs it (every ROCm has it).
    pub(super) stream_create: Option<unsafe extern "C" fn(stream: *mut Handle) -> Status>,
    /// `hipStreamDestroy(hipStream_t)`: optional with `stream_create`.
    pub(super) stream_destroy: Option<unsafe extern "C" fn(stream: Handle) -> Status>,
    /// `hipStreamQuery(hipStream_t)`: optional, only a wait with a limit
    /// polls (without it such a wait blocks).
    pub(super) stream_query: Option<unsafe extern "C" fn(stream: Handle) -> Status>,
    /// Where the library was loaded from.
    pub(super) path: PathBuf,
    /// Keeps the function pointers above valid. Never dropped in practice:
    /// the loaded `Api` lives in a static (see the module docs).
    _library: Library,
}

impl fmt::Debug for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Api")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Looks up `name` in `library` as a `T` (a function pointer type).
///
/// # Safety
///
/// `T` must be the symbol's real C type.
unsafe fn symbol<T: Copy>(library: &Library, name: &str, path: &Path) -> Result<T, NativeError> {
    // SAFETY: the caller vouches for `T`.
    match unsafe { library.get::<T>(name) } {
        Ok(symbol) => Ok(*symbol),
        Err(e) => Err(no_runtime(format!(
            "{} has no `{name}` ({}): the HIP runtime is too old or not ROCm's",
            path.display(),
            error_chain(&e)
        ))),
    }
}

impl Api {
    /// Resolves every entry point in `library`, loaded from `path`.
    pub(super) fn resolve(library: Library, path: PathBuf) -> Result<Api, NativeError> {
        macro_rules! resolve {
            ($name:literal) => {
                // SAFETY: each field's type is the C prototype of the HIP
                // function of that name (hip_runtime_api.h), and inference
                // picks the field's type as `T`.
                unsafe { symbol(&library, $name, &path)? }
            };
        }
        Ok(Api {
            init: resolve!("hipInit"),
            get_device_count: resolve!("hipGetDeviceCount"),
            set_device: resolve!("hipSetDevice"),
            device_get_attribute: resolve!("hipDeviceGetAttribute"),
            device_get_name: resolve!("hipDeviceGetName"),
            module_load_data: resolve!("hipModuleLoadData"),
            module_get_function: resolve!("hipModuleGetFunction"),
            module_launch_kernel: resolve!("hipModuleLaunchKernel"),
            malloc: resolve!("hipMalloc"),
            free: resolve!("hipFree"),
            memcpy_htod: resolve!("hipMemcpyHtoD"),
            memcpy_dtoh: resolve!("hipMemcpyDtoH"),
            memcpy_dtod_async: resolve!("hipMemcpyDtoDAsync"),
            memset_async: resolve!("hipMemsetAsync"),
            device_synchronize: resolve!("hipDeviceSynchronize"),
            module_unload: resolve!("hipModuleUnload"),
            get_error_string: resolve!("hipGetErrorString"),
            // SAFETY: `hipGetErrorName` has the type of `hipGetErrorString`.
            get_error_name: unsafe { symbol(&library, "hipGetErrorName", &path) }.ok(),
            event_create: resolve!("hipEventCreate"),
            event_record: resolve!("hipEventRecord"),
            event_synchronize: resolve!("hipEventSynchronize"),
            event_elapsed_time: resolve!("hipEventElapsedTime"),
            event_destroy: resolve!("hipEventDestroy"),
            runtime_get_version: resolve!("hipRuntimeGetVersion"),
            // SAFETY: the prototypes of hip_runtime_api.h.
            stream_create: unsafe { symbol(&library, "hipStreamCreate", &path) }.ok(),
            // SAFETY: as above.
            stream_query: unsafe { symbol(&library, "hipStreamQuery", &path) }.ok(),
            // SAFETY: as above.
            stream_destroy: unsafe { symbol(&library, "hipStreamDestroy", &path) }.ok(),
            path,
            _library: library,
        })
    }

    /// The runtime's name and message for an error: `hipErrorInvalidImage
    /// (200): device kernel image is invalid`.
    pub(super) fn describe(&self, code: Status) -> String {
        // SAFETY: both return a pointer to a static NUL-terminated string
        // (or, defensively, null), for any value.
        let text = unsafe { c_text((self.get_error_string)(code)) };
        // SAFETY: as above.
        let name = self.get_error_name.and_then(|f| unsafe { c_text(f(code)) });
        match (name, text) {
            (Some(name), Some(text)) if name != text => format!("{name} ({code}): {text}"),
            (Some(name), _) => format!("{name} ({code})"),
            (None, Some(text)) => format!("{text} (hipError_t {code})"),
            (None, None) => format!("hipError_t {code}"),
        }
    }

    /// A HIP error while doing `what`.
    pub(super) fn error(&self, what: impl Display, error: HipError) -> NativeError {
        NativeError::Tool {
            tool: HIP_TOOL.into(),
            message: format!("{what}: {}", self.describe(error.0)),
        }
    }

    /// `Ok` for `hipSuccess`, else a HIP error while doing `what`.
    pub(super) fn check(&self, code: Status, what: impl Display) -> Result<(), NativeError> {
        status(code).map_err(|e| self.error(what, e))
    }

    /// Makes `device` the calling thread's current device. HIP's current
    /// device is per thread, and allocations, module loads, launches on the
    /// null stream and synchronisation all act on it, so every operation
    /// sets it first (as [`crate::cuda`] binds its context).
    pub(super) fn use_device(&self, device: c_int) -> Result<(), HipError> {
        // SAFETY: takes an int; an invalid ordinal is an error code.
        status(unsafe { (self.set_device)(device) })
    }

    /// [`Api::use_device`], failing with a [`NativeError`].
    pub(super) fn make_current(&self, device: c_int) -> Result<(), NativeError> {
        self.use_device(device)
            .map_err(|e| self.error(format_args!("making HIP device {device} current"), e))
    }
}

/// The text of a C string the runtime owns, if any.
///
/// # Safety
///
/// `text` is null or points to a NUL-terminated string.
unsafe fn c_text(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: non-null and NUL-terminated, per the caller.
    let text = unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .trim()
        .to_string();
    (!text.is_empty()).then_some(text)
}

/// An error and its sources: libloading's `Display` says only "dlopen
/// failed"; the `dlerror` text is its source.
fn error_chain(error: &dyn StdError) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// Why HIP cannot be used at all, always naming `libamdhip64.so` so that the
/// user knows what to look for.
pub(super) fn no_runtime(why: impl Display) -> NativeError {
    NativeError::Tool {
        tool: RUNTIME_TOOL.into(),
        message: format!(
            "{why} (HIP needs ROCm's HIP runtime, libamdhip64.so, and an AMD GPU; \
             set ROCM_PATH if ROCm is not installed in /opt/rocm)"
        ),
    }
}

/// Whether `error` says that HIP cannot be used here at all (no runtime, no
/// device) rather than that something failed on a working one: what a test
/// that needs an AMD GPU skips on.
pub fn is_no_runtime(error: &NativeError) -> bool {
    matches!(error, NativeError::Tool { tool, .. } if tool == RUNTIME_TOOL)
}

/// Where to look for `libamdhip64.so`, in order, given the values of
/// `ROCM_PATH` and `HIP_PATH` (unset or empty ones are skipped). Paths are
/// tried before bare names so that an explicit install wins over whatever
/// the loader's search finds first; duplicates are dropped.
pub(super) fn library_candidates(
    rocm_path: Option<&OsStr>,
    hip_path: Option<&OsStr>,
) -> Vec<PathBuf> {
    let roots = [rocm_path, hip_path, Some(OsStr::new(DEFAULT_ROCM_PATH))];
    let mut candidates: Vec<PathBuf> = Vec::new();
    let in_lib = roots
        .into_iter()
        .flatten()
        .filter(|root| !root.is_empty())
        .map(|root| Path::new(root).join("lib").join(LIBRARY_NAMES[0]));
    let bare = LIBRARY_NAMES.iter().map(PathBuf::from);
    for candidate in in_lib.chain(bare) {
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    candidates
}

/// The loaded runtime, shared by every [`super::Hip`] and never unloaded.
static RUNTIME: Mutex<Option<Arc<Api>>> = Mutex::new(None);

/// Loads and resolves the runtime, or returns the one already loaded. A
/// failure is not remembered, so a later call looks again.
pub(super) fn runtime() -> Result<Arc<Api>, NativeError> {
    // A panic while holding the lock cannot leave the slot half-written
    // (it is only ever assigned whole), so a poisoned lock is still usable.
    let mut slot = RUNTIME.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(api) = slot.as_ref() {
        return Ok(api.clone());
    }
    let rocm_path = env::var_os("ROCM_PATH");
    let hip_path = env::var_os("HIP_PATH");
    let mut failures = Vec::new();
    for candidate in library_candidates(rocm_path.as_deref(), hip_path.as_deref()) {
        // SAFETY: loading runs the library's initialisers; for
        // libamdhip64 that is what starting any HIP program does.
        match unsafe { Library::new(&candidate) } {
            Ok(library) => {
                let api = Arc::new(Api::resolve(library, candidate)?);
                log::debug!("loaded the HIP runtime from {}", api.path.display());
                *slot = Some(api.clone());
                return Ok(api);
            }
            Err(e) => {
                // dlerror's text (the source) already names the file, as
                // in `libamdhip64.so: cannot open shared object file`.
                let why = e.source().map_or_else(|| error_chain(&e), error_chain);
                let file = candidate.display().to_string();
                failures.push(if why.contains(&file) {
                    why
                } else {
                    format!("{file}: {why}")
                });
            }
        }
    }
    Err(no_runtime(format!(
        "libamdhip64.so could not be loaded; tried, in order: {}",
        failures.join("; ")
    )))
}
