//! HIP dispatch on AMD GPUs, through ROCm's HIP runtime loaded at run time.
//!
//! `libamdhip64.so` is opened with `dlopen` (libloading) the first time a
//! device is opened, so this builds and links on machines without ROCm;
//! [`Hip::open`] is where a missing runtime shows up, as a
//! [`NativeError::Tool`] whose tool is [`RUNTIME_TOOL`] (test for it with
//! [`is_no_runtime`]). It is looked for, in order, at
//! `$ROCM_PATH/lib/libamdhip64.so`, `$HIP_PATH/lib/libamdhip64.so`,
//! `/opt/rocm/lib/libamdhip64.so`, then under the bare names
//! `libamdhip64.so`, `libamdhip64.so.7` and `libamdhip64.so.6` (the
//! dynamic loader's search: `LD_LIBRARY_PATH`, `ld.so.cache`). Once loaded it
//! stays loaded for the life of the process: the HIP runtime starts threads
//! and registers exit handlers, which must not outlive its code.
//!
//! The kernel ABI is [`crate::cuda`]'s: for each buffer, in order, two
//! parameters — the buffer's device address (`u64`) and its length in bytes
//! (`u32`). Kernels come as AMDGPU code objects (`.hsaco`: an ELF shared
//! object from `ld.lld -shared`, or an uncompressed clang offload bundle)
//! and are loaded with `hipModuleLoadData`; a failing HIP call becomes a
//! [`NativeError::Tool`] whose tool is `HIP`, with the runtime's message.
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

use std::env;
use std::error::Error as StdError;
use std::ffi::{CStr, CString, OsStr, c_char, c_int, c_uint, c_void};
use std::fmt::{self, Display};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use libloading::Library;

use crate::abi::KernelArgs;
use crate::error::NativeError;

/// The `tool` of the [`NativeError::Tool`] returned when HIP cannot be used
/// at all: no `libamdhip64.so`, a symbol missing from it, `hipInit` failing,
/// or no such device. Analogous to [`NativeError::NoCudaDriver`].
pub const RUNTIME_TOOL: &str = "HIP runtime";

/// The `tool` of the [`NativeError::Tool`] returned when a HIP call fails on
/// a working runtime. Analogous to [`NativeError::Cuda`].
pub const HIP_TOOL: &str = "HIP";

/// The environment variable that names the GPU architecture, e.g. `gfx942`.
pub const ARCH_ENV: &str = "WAVEKIT_HIP_ARCH";

/// The runtime library's file name, and the names it is also installed under
/// (ROCm 7's and ROCm 6's sonames), for the dynamic loader's own search.
const LIBRARY_NAMES: [&str; 3] = ["libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6"];

/// Where ROCm installs itself when `ROCM_PATH` is not set.
const DEFAULT_ROCM_PATH: &str = "/opt/rocm";

/// Size of the buffer `hipDeviceGetName` writes into.
const NAME_BYTES: usize = 256;

/// `hipError_t`: a C enum, so an `int`; 0 is `hipSuccess`.
type HipError = c_int;

/// `hipModule_t`, `hipFunction_t`, `hipEvent_t`, `hipStream_t` and
/// `hipDeviceptr_t` are all opaque pointers.
type Handle = *mut c_void;

/// `hipSuccess`.
const HIP_SUCCESS: HipError = 0;

/// The runtime's entry points, resolved once. Field names are the C names
/// without the `hip` prefix.
struct Api {
    init: unsafe extern "C" fn(flags: c_uint) -> HipError,
    get_device_count: unsafe extern "C" fn(count: *mut c_int) -> HipError,
    set_device: unsafe extern "C" fn(device: c_int) -> HipError,
    device_get_attribute:
        unsafe extern "C" fn(value: *mut c_int, attribute: c_int, device: c_int) -> HipError,
    device_get_name: unsafe extern "C" fn(name: *mut c_char, len: c_int, device: c_int) -> HipError,
    module_load_data: unsafe extern "C" fn(module: *mut Handle, image: *const c_void) -> HipError,
    module_get_function: unsafe extern "C" fn(
        function: *mut Handle,
        module: Handle,
        name: *const c_char,
    ) -> HipError,
    module_launch_kernel: unsafe extern "C" fn(
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
    ) -> HipError,
    malloc: unsafe extern "C" fn(pointer: *mut *mut c_void, bytes: usize) -> HipError,
    free: unsafe extern "C" fn(pointer: *mut c_void) -> HipError,
    /// `hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t)`: the device
    /// pointer comes first.
    memcpy_htod: unsafe extern "C" fn(dst: Handle, src: *mut c_void, bytes: usize) -> HipError,
    /// `hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t)`.
    memcpy_dtoh: unsafe extern "C" fn(dst: *mut c_void, src: Handle, bytes: usize) -> HipError,
    device_synchronize: unsafe extern "C" fn() -> HipError,
    module_unload: unsafe extern "C" fn(module: Handle) -> HipError,
    get_error_string: unsafe extern "C" fn(error: HipError) -> *const c_char,
    /// Optional: only used to put the error's name (`hipErrorInvalidImage`)
    /// next to its message, so a runtime without it is still usable.
    get_error_name: Option<unsafe extern "C" fn(error: HipError) -> *const c_char>,
    event_create: unsafe extern "C" fn(event: *mut Handle) -> HipError,
    event_record: unsafe extern "C" fn(event: Handle, stream: Handle) -> HipError,
    event_synchronize: unsafe extern "C" fn(event: Handle) -> HipError,
    event_elapsed_time: unsafe extern "C" fn(ms: *mut f32, start: Handle, stop: Handle) -> HipError,
    event_destroy: unsafe extern "C" fn(event: Handle) -> HipError,
    runtime_get_version: unsafe extern "C" fn(version: *mut c_int) -> HipError,
    /// Where the library was loaded from.
    path: PathBuf,
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
    fn resolve(library: Library, path: PathBuf) -> Result<Api, NativeError> {
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
            path,
            _library: library,
        })
    }

    /// The runtime's name and message for an error: `hipErrorInvalidImage
    /// (200): device kernel image is invalid`.
    fn describe(&self, code: HipError) -> String {
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

    /// `Ok` for `hipSuccess`, else a HIP error while doing `what`.
    fn check(&self, code: HipError, what: impl Display) -> Result<(), NativeError> {
        if code == HIP_SUCCESS {
            Ok(())
        } else {
            Err(NativeError::Tool {
                tool: HIP_TOOL.into(),
                message: format!("{what}: {}", self.describe(code)),
            })
        }
    }

    /// Makes `device` the calling thread's current device. HIP's current
    /// device is per thread, and allocations, module loads, launches on the
    /// null stream and synchronisation all act on it, so every operation
    /// sets it first (as [`crate::cuda`] binds its context).
    fn use_device(&self, device: c_int) -> Result<(), NativeError> {
        // SAFETY: takes an int; an invalid ordinal is an error code.
        let code = unsafe { (self.set_device)(device) };
        self.check(code, format_args!("making HIP device {device} current"))
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
fn no_runtime(why: impl Display) -> NativeError {
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
fn library_candidates(rocm_path: Option<&OsStr>, hip_path: Option<&OsStr>) -> Vec<PathBuf> {
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

/// The loaded runtime, shared by every [`Hip`] and never unloaded.
static RUNTIME: Mutex<Option<Arc<Api>>> = Mutex::new(None);

/// Loads and resolves the runtime, or returns the one already loaded. A
/// failure is not remembered, so a later call looks again.
fn runtime() -> Result<Arc<Api>, NativeError> {
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

/// Checks a GPU architecture name and returns it normalised (lower case,
/// trimmed): a processor such as `gfx90a`, `gfx942`, `gfx1100`, or a
/// generic target such as `gfx11-generic` / `gfx10-3-generic`. Target-ID
/// feature suffixes (`gfx90a:xnack+`) are not accepted: wavekit takes the
/// processor alone and sets features itself.
pub fn parse_arch(text: &str) -> Option<String> {
    let arch = text.trim().to_ascii_lowercase();
    // ASCII only, so that the byte slicing below is on character boundaries.
    if !arch.is_ascii() {
        return None;
    }
    let rest = arch.strip_prefix("gfx")?;
    let valid = if let Some(family) = rest.strip_suffix("-generic") {
        // `9`, `9-4`, `10-1`, `10-3`, `11`, `12`: a major version, then
        // optionally one minor.
        let mut parts = family.split('-');
        let major = parts.next().unwrap_or("");
        let minor = parts.next();
        is_version(major)
            && minor.is_none_or(|m| m.len() == 1 && m.bytes().all(|b| b.is_ascii_digit()))
            && parts.next().is_none()
    } else {
        // `{major}{minor}{stepping}`: decimal digits, the stepping a hex
        // digit (`gfx90a`, `gfx90c`), three or four characters in all.
        let bytes = rest.as_bytes();
        match bytes.split_last() {
            Some((stepping, version)) if (2..=3).contains(&version.len()) => {
                is_version(&rest[..version.len()]) && stepping.is_ascii_hexdigit()
            }
            _ => false,
        }
    };
    valid.then_some(arch)
}

/// A major (and minor) version: decimal digits, not starting with 0.
fn is_version(digits: &str) -> bool {
    !digits.is_empty() && !digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The GPU architecture from [`ARCH_ENV`] (`WAVEKIT_HIP_ARCH`), e.g.
/// `gfx942`, checked by [`parse_arch`].
///
/// HIP has no stable simple call for it (the architecture is in
/// `hipDeviceProp_t::gcnArchName`, whose offset changes between ROCm
/// releases), so the caller says it; `rocminfo | grep gfx` or `amdgpu-arch`
/// print it. `None` when unset; when set to something that is not an
/// architecture name, `None` and a warning in the log.
pub fn arch_from_env() -> Option<String> {
    let value = env::var_os(ARCH_ENV)?;
    let text = value.to_string_lossy();
    let arch = parse_arch(&text);
    if arch.is_none() {
        log::warn!(
            "ignoring {ARCH_ENV}={text:?}: not a GPU architecture such as gfx942 or gfx1100"
        );
    }
    arch
}

/// The wave size code for `arch` runs at unless compiled otherwise: 64 on
/// GCN and CDNA (gfx6 to gfx9: `gfx90a`, `gfx942`, `gfx950`), 32 on RDNA
/// (gfx10 and later), which also runs wave64 code compiled with
/// `+wavefrontsize64`. `None` when `arch` is not an architecture name.
pub fn default_wave_size(arch: &str) -> Option<u32> {
    let arch = parse_arch(arch)?;
    let rest = arch.strip_prefix("gfx")?;
    let major: u32 = match rest.strip_suffix("-generic") {
        Some(family) => family.split('-').next()?.parse().ok()?,
        // The last two characters are minor and stepping.
        None => rest.get(..rest.len() - 2)?.parse().ok()?,
    };
    Some(if major >= 10 { 32 } else { 64 })
}

/// A HIP device.
///
/// Everything runs on the device's null stream, in order, which HIP
/// synchronises with every copy and launch, so no stream bookkeeping is
/// needed. Any thread may use a `Hip`: each call makes its device current on
/// the calling thread first.
#[derive(Debug)]
pub struct Hip {
    api: Arc<Api>,
    device: c_int,
}

/// A loaded kernel: an AMDGPU code object and one of its kernels.
///
/// It keeps the runtime loaded and unloads its module when dropped.
pub struct HipKernel {
    api: Arc<Api>,
    device: c_int,
    module: Handle,
    function: Handle,
    name: String,
    /// The code object, 8-byte aligned (the runtime reads ELF headers in
    /// place). `hipModuleLoadData` takes no size, and HIP's documentation
    /// does not promise that it copies the image before returning, so the
    /// bytes it was given live as long as the module.
    _image: Vec<u64>,
}

impl fmt::Debug for HipKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HipKernel")
            .field("name", &self.name)
            .field("device", &self.device)
            .field("module", &self.module)
            .field("function", &self.function)
            .finish_non_exhaustive()
    }
}

// SAFETY: `hipModule_t` and `hipFunction_t` are process-wide runtime handles
// that HIP lets any thread use; every use here first makes the kernel's
// device current on the calling thread. The image is only read.
unsafe impl Send for HipKernel {}
// SAFETY: as for `Send`; `HipKernel` has no interior mutability.
unsafe impl Sync for HipKernel {}

impl HipKernel {
    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for HipKernel {
    fn drop(&mut self) {
        let unloaded = self.api.use_device(self.device).and_then(|()| {
            // SAFETY: `module` came from `hipModuleLoadData` and is unloaded
            // only here; its function dies with it, and `self.function` is
            // the only copy.
            let code = unsafe { (self.api.module_unload)(self.module) };
            self.api.check(code, "hipModuleUnload")
        });
        if let Err(e) = unloaded {
            log::warn!("unloading the module of kernel `{}`: {e}", self.name);
        }
    }
}

/// An allocation on the device, freed when dropped, so that every path out
/// of a launch (errors included) frees what it allocated.
struct DeviceBuffer<'a> {
    api: &'a Api,
    pointer: *mut c_void,
    /// The caller's length; the allocation is at least 4 bytes, since a
    /// zero-byte `hipMalloc` returns a null pointer.
    len: usize,
}

impl Drop for DeviceBuffer<'_> {
    fn drop(&mut self) {
        // SAFETY: `pointer` came from `hipMalloc` and is freed only here.
        // hipFree waits for the device to finish with it.
        let code = unsafe { (self.api.free)(self.pointer) };
        if let Err(e) = self.api.check(code, "hipFree") {
            log::warn!("freeing a {}-byte device buffer: {e}", self.len);
        }
    }
}

/// A timing event, destroyed when dropped.
struct Event<'a> {
    api: &'a Api,
    raw: Handle,
}

impl Drop for Event<'_> {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `hipEventCreate` and is destroyed only here.
        let code = unsafe { (self.api.event_destroy)(self.raw) };
        if let Err(e) = self.api.check(code, "hipEventDestroy") {
            log::warn!("destroying a timing event: {e}");
        }
    }
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
        api.use_device(device)?;
        Ok(Hip { api, device })
    }

    /// Where the HIP runtime was loaded from.
    pub fn library(&self) -> &Path {
        &self.api.path
    }

    /// The device's marketing name, e.g. `AMD Instinct MI300X`. Not the
    /// architecture: see [`arch_from_env`].
    pub fn name(&self) -> Result<String, NativeError> {
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
    pub fn runtime_version(&self) -> Result<i32, NativeError> {
        let mut version: c_int = 0;
        // SAFETY: writes one int through a valid pointer; needs no device.
        let code = unsafe { (self.api.runtime_get_version)(&mut version) };
        self.api.check(code, "reading the HIP runtime version")?;
        Ok(version)
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

    /// Loads an AMDGPU code object (`.hsaco`) on this device and finds the
    /// kernel `entry` — its plain name, not the `entry.kd` descriptor
    /// symbol.
    ///
    /// The image is checked first, because `hipModuleLoadData` takes no size
    /// and reads as far as the image's own headers say: it must be a
    /// little-endian ELF64 for AMDGPU (machine 224) whose headers, sections
    /// and segments lie within it, or an uncompressed clang offload bundle
    /// whose entries do. Anything else (a compressed `CCOB` bundle
    /// included) is a [`NativeError::Abi`].
    pub fn load(&self, hsaco: &[u8], entry: &str) -> Result<HipKernel, NativeError> {
        check_image(hsaco).map_err(|why| {
            NativeError::Abi(format!("the code object for kernel `{entry}` {why}"))
        })?;
        let entry_c = CString::new(entry).map_err(|_| {
            NativeError::Abi(format!("the kernel name {entry:?} contains a NUL byte"))
        })?;
        let image = aligned_copy(hsaco);
        self.api.use_device(self.device)?;

        let mut module: Handle = std::ptr::null_mut();
        // SAFETY: `image` is a checked code object (everything its headers
        // point at is inside it) that outlives the module: it moves into the
        // `HipKernel` (moving a `Vec` does not move its heap buffer).
        let code = unsafe { (self.api.module_load_data)(&mut module, image.as_ptr().cast()) };
        if code != HIP_SUCCESS {
            // The usual cause is a code object for another architecture
            // (hipErrorNoBinaryForGpu), so say which one the device needs.
            let needed = arch_from_env().map_or_else(
                || format!("the one `rocminfo` reports, also to be given in {ARCH_ENV}"),
                |arch| format!("{arch}, per {ARCH_ENV}"),
            );
            self.api.check(
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
        let code =
            unsafe { (self.api.module_get_function)(&mut function, module, entry_c.as_ptr()) };
        if let Err(e) = self.api.check(code, "hipModuleGetFunction") {
            // SAFETY: nothing else holds `module`.
            let unload = unsafe { (self.api.module_unload)(module) };
            if let Err(unload) = self.api.check(unload, "hipModuleUnload") {
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
        Ok(HipKernel {
            api: self.api.clone(),
            device: self.device,
            module,
            function,
            name: entry.to_string(),
            _image: image,
        })
    }

    /// Runs `kernel` once on `buffers` and copies them back.
    ///
    /// The kernel ABI: for each buffer in order, two parameters — a device
    /// pointer (`u64`) and its length in bytes (`u32`), passed through
    /// `kernelParams`. Copies every buffer to the device (allocating at
    /// least 4 bytes, zero-padded, even for an empty one), launches `grid`
    /// blocks (workgroups) of `block` threads with `shared_bytes` of dynamic
    /// LDS, waits for it, and copies every buffer back into its `Vec`.
    pub fn launch(
        &self,
        kernel: &HipKernel,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        self.check_launch(kernel, buffers, grid, block)?;
        let device = self.upload(buffers)?;
        let mut args = kernel_args(&device);
        self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
        self.finish(kernel)?;
        self.download(&device, buffers)
    }

    /// Like [`Hip::launch`], but the buffers stay on the device between
    /// runs: `warmup` untimed launches, then `runs` launches each timed with a
    /// pair of HIP events around it. Returns each run's GPU time in
    /// milliseconds. The buffers are copied back after the last run, so they
    /// hold the result of `warmup + runs` launches in a row.
    #[allow(clippy::too_many_arguments)]
    pub fn time(
        &self,
        kernel: &HipKernel,
        buffers: &mut [Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f32>, NativeError> {
        self.check_launch(kernel, buffers, grid, block)?;
        let device = self.upload(buffers)?;
        let mut args = kernel_args(&device);

        // Create every event before the first launch so that no runtime call
        // other than launches and records sits between timed kernels.
        let mut pairs: Vec<(Event<'_>, Event<'_>)> = Vec::with_capacity(runs);
        for _ in 0..runs {
            pairs.push((self.event()?, self.event()?));
        }

        for _ in 0..warmup {
            self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
        }
        let record = |event: &Event<'_>| {
            // SAFETY: `event` is live; the null stream is the device's
            // default stream, where the launches go.
            let code = unsafe { (self.api.event_record)(event.raw, std::ptr::null_mut()) };
            self.api.check(code, "recording a timing event")
        };
        for (start, stop) in &pairs {
            record(start)?;
            self.enqueue(kernel, &mut args, grid, block, shared_bytes)?;
            record(stop)?;
        }
        // One wait for all of it: a failing kernel surfaces here, with its
        // name, rather than as an odd event error.
        self.finish(kernel)?;

        let times = pairs
            .iter()
            .map(|(start, stop)| {
                // SAFETY: `stop` is live and recorded; waiting is a no-op
                // after the device synchronisation, but makes the elapsed
                // time's precondition (both events complete) explicit.
                let code = unsafe { (self.api.event_synchronize)(stop.raw) };
                self.api.check(code, "waiting for a timing event")?;
                let mut ms = 0f32;
                // SAFETY: writes one float; both events are live and done.
                let code = unsafe { (self.api.event_elapsed_time)(&mut ms, start.raw, stop.raw) };
                self.api.check(code, "reading a timing event")?;
                Ok(ms)
            })
            .collect::<Result<Vec<f32>, NativeError>>()?;
        self.download(&device, buffers)?;
        Ok(times)
    }

    /// A new timing event.
    fn event(&self) -> Result<Event<'_>, NativeError> {
        let mut raw: Handle = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer.
        let code = unsafe { (self.api.event_create)(&mut raw) };
        self.api.check(code, "creating a timing event")?;
        Ok(Event {
            api: &self.api,
            raw,
        })
    }

    /// Rejects what the runtime would reject with a less helpful message.
    fn check_launch(
        &self,
        kernel: &HipKernel,
        buffers: &[Vec<u8>],
        grid: [u32; 3],
        block: [u32; 3],
    ) -> Result<(), NativeError> {
        let launch_error = |message: String| NativeError::Tool {
            tool: HIP_TOOL.into(),
            message,
        };
        if !Arc::ptr_eq(&kernel.api, &self.api) || kernel.device != self.device {
            return Err(launch_error(format!(
                "kernel `{}` was loaded on HIP device {}, not on device {}",
                kernel.name, kernel.device, self.device
            )));
        }
        if grid.contains(&0) || block.contains(&0) {
            return Err(launch_error(format!(
                "launching kernel `{}` with grid {grid:?} and block {block:?}: \
                 every dimension must be at least 1",
                kernel.name
            )));
        }
        // An HSA dispatch packet counts the grid in threads, as u32 per
        // dimension, unlike CUDA which counts blocks.
        if grid
            .iter()
            .zip(block)
            .any(|(&g, b)| u64::from(g) * u64::from(b) > u64::from(u32::MAX))
        {
            return Err(launch_error(format!(
                "launching kernel `{}` with grid {grid:?} and block {block:?}: on AMD GPUs \
                 grid × block must fit in 32 bits in each dimension",
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
        Ok(())
    }

    /// Copies every buffer to a fresh device allocation.
    fn upload(&self, buffers: &[Vec<u8>]) -> Result<Vec<DeviceBuffer<'_>>, NativeError> {
        self.api.use_device(self.device)?;
        let mut device = Vec::with_capacity(buffers.len());
        for (i, buffer) in buffers.iter().enumerate() {
            let size = buffer.len().max(4);
            let mut pointer: *mut c_void = std::ptr::null_mut();
            // SAFETY: writes one pointer through a valid pointer.
            let code = unsafe { (self.api.malloc)(&mut pointer, size) };
            self.api.check(
                code,
                format_args!("allocating {} bytes for buffer {i}", buffer.len()),
            )?;
            // Owned from here: freed on every path out.
            let allocation = DeviceBuffer {
                api: &self.api,
                pointer,
                len: buffer.len(),
            };
            // The whole allocation is written, so that the padding of a
            // short buffer is defined (zero) without a memset.
            let mut short = [0u8; 4];
            let source: &[u8] = if buffer.len() >= 4 {
                buffer
            } else {
                short[..buffer.len()].copy_from_slice(buffer);
                &short
            };
            // SAFETY: `pointer` holds `size` bytes and `source` is `size`
            // bytes long; the runtime only reads `source` (the prototype's
            // `void*` is not `const` for historical reasons).
            let code = unsafe {
                (self.api.memcpy_htod)(allocation.pointer, source.as_ptr().cast_mut().cast(), size)
            };
            self.api
                .check(code, format_args!("copying buffer {i} to the device"))?;
            device.push(allocation);
        }
        Ok(device)
    }

    /// Queues one launch; does not wait for it.
    fn enqueue(
        &self,
        kernel: &HipKernel,
        args: &mut KernelArgs,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Result<(), NativeError> {
        self.api.use_device(self.device)?;
        let mut params = args.pointers();
        // SAFETY: `kernel.function` belongs to a module loaded on this
        // device; `params` points at one value per kernel parameter in the
        // ABI's order and types, read by the runtime before this returns;
        // `extra` is null, so `kernelParams` is what is used; the device
        // addresses stay allocated until after the final synchronisation
        // (the caller holds the `DeviceBuffer`s).
        let code = unsafe {
            (self.api.module_launch_kernel)(
                kernel.function,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared_bytes,
                std::ptr::null_mut(),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        self.api.check(
            code,
            format_args!(
                "launching kernel `{}` with grid {grid:?}, block {block:?} and \
                 {shared_bytes} bytes of dynamic shared memory",
                kernel.name
            ),
        )
    }

    /// Waits for everything queued; a kernel that failed reports here (one
    /// that faulted usually aborts the process instead: see the module
    /// docs).
    fn finish(&self, kernel: &HipKernel) -> Result<(), NativeError> {
        self.api.use_device(self.device)?;
        // SAFETY: no arguments.
        let code = unsafe { (self.api.device_synchronize)() };
        self.api
            .check(code, format_args!("running kernel `{}`", kernel.name))
    }

    /// Copies every device buffer back into its `Vec` and waits for the
    /// copies.
    fn download(
        &self,
        device: &[DeviceBuffer<'_>],
        buffers: &mut [Vec<u8>],
    ) -> Result<(), NativeError> {
        self.api.use_device(self.device)?;
        for (i, (buffer, host)) in device.iter().zip(buffers.iter_mut()).enumerate() {
            if buffer.len == 0 {
                continue;
            }
            // SAFETY: `host` is `buffer.len` bytes (checked lengths come from
            // these very vectors, which `launch` holds borrowed), and the
            // allocation at least as large.
            let code = unsafe {
                (self.api.memcpy_dtoh)(host.as_mut_ptr().cast(), buffer.pointer, buffer.len)
            };
            self.api
                .check(code, format_args!("copying buffer {i} back"))?;
        }
        // hipMemcpyDtoH returns once the copy is done for pageable memory,
        // but wait anyway, as `Cuda::launch` does, rather than rely on it.
        // SAFETY: no arguments.
        let code = unsafe { (self.api.device_synchronize)() };
        self.api.check(code, "waiting for the copies back")
    }
}

/// The kernel ABI's parameters for `device`.
fn kernel_args(device: &[DeviceBuffer<'_>]) -> KernelArgs {
    KernelArgs {
        addresses: device.iter().map(|b| b.pointer as u64).collect(),
        // Checked in `check_launch`.
        lengths: device.iter().map(|b| b.len as u32).collect(),
    }
}

/// `bytes` in a buffer aligned for ELF64 structures (8 bytes), zero-padded
/// to a whole number of words, since the runtime reads the headers in place.
fn aligned_copy(bytes: &[u8]) -> Vec<u64> {
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

// ---------------------------------------------------------------------------
// Code objects: just enough ELF and offload-bundle reading to check that HIP
// stays inside the image, and to list its kernels in errors.

/// An ELF's first bytes.
const ELF_MAGIC: &[u8] = b"\x7fELF";
/// An uncompressed clang offload bundle's first bytes (what
/// `hipcc --genco` writes).
const BUNDLE_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
/// A compressed offload bundle's first bytes.
const COMPRESSED_BUNDLE_MAGIC: &[u8] = b"CCOB";
/// `e_machine` of AMDGPU code objects.
const EM_AMDGPU: u16 = 224;
/// Sizes of `Elf64_Ehdr`, `Elf64_Phdr`, `Elf64_Shdr` and `Elf64_Sym`.
const EHDR_BYTES: usize = 64;
const PHDR_BYTES: u16 = 56;
const SHDR_BYTES: u16 = 64;
const SYM_BYTES: usize = 24;
/// Section types: `SHT_SYMTAB`, `SHT_NOBITS`, `SHT_DYNSYM`.
const SHT_SYMTAB: u32 = 2;
const SHT_NOBITS: u32 = 8;
const SHT_DYNSYM: u32 = 11;
/// `STT_OBJECT`: the type of a kernel descriptor (`name.kd`) symbol.
const STT_OBJECT: u8 = 1;

/// Little-endian integers at a byte offset, `None` past the end.
fn le_u16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        bytes.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        bytes.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}
fn le_u64(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        bytes.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// `offset..offset + size` as a range inside `len` bytes, if it is one.
fn span(len: usize, offset: u64, size: u64) -> Option<std::ops::Range<usize>> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(usize::try_from(size).ok()?)?;
    (end <= len).then_some(start..end)
}

/// Why `image` cannot be handed to `hipModuleLoadData`, completing "the
/// code object ...".
fn check_image(image: &[u8]) -> Result<(), String> {
    if image.starts_with(ELF_MAGIC) {
        check_elf(image)
    } else if image.starts_with(BUNDLE_MAGIC) {
        check_bundle(image)
    } else if image.starts_with(COMPRESSED_BUNDLE_MAGIC) {
        Err(
            "is a compressed offload bundle (CCOB), which wavekit cannot check: \
             pass the uncompressed code object (the .hsaco from `ld.lld -shared`)"
                .into(),
        )
    } else if image.is_empty() {
        Err("is empty".into())
    } else {
        Err(format!(
            "is not an AMDGPU code object: it starts with {:02x?}, neither an ELF nor a \
             clang offload bundle",
            &image[..image.len().min(8)]
        ))
    }
}

/// Checks an ELF the way HIP will read it: its header, then the program and
/// section header tables and everything they point at must be inside it.
fn check_elf(elf: &[u8]) -> Result<(), String> {
    let len = elf.len();
    if len < EHDR_BYTES {
        return Err(format!(
            "is truncated: {len} bytes, less than an ELF header"
        ));
    }
    if elf[4] != 2 {
        return Err("is a 32-bit ELF; AMDGPU code objects are ELF64".into());
    }
    if elf[5] != 1 {
        return Err("is a big-endian ELF; AMDGPU code objects are little-endian".into());
    }
    let header = |at| le_u16(elf, at).unwrap_or(0);
    let machine = header(18);
    if machine != EM_AMDGPU {
        let known = match machine {
            62 => " (x86-64)",
            183 => " (AArch64)",
            190 => " (NVIDIA CUDA)",
            _ => "",
        };
        return Err(format!(
            "is an ELF for machine {machine}{known}, not AMDGPU ({EM_AMDGPU})"
        ));
    }
    let truncated =
        |what: String| format!("is truncated or malformed: {what} ({len} bytes in all)");

    let phoff = le_u64(elf, 32).unwrap_or(0);
    let (phentsize, phnum) = (header(54), header(56));
    if phnum > 0 {
        if phentsize != PHDR_BYTES {
            return Err(truncated(format!(
                "program headers of {phentsize} bytes, not {PHDR_BYTES}"
            )));
        }
        let table =
            span(len, phoff, u64::from(phnum) * u64::from(PHDR_BYTES)).ok_or_else(|| {
                truncated(format!("the {phnum} program headers at {phoff} do not fit"))
            })?;
        for (i, at) in table.step_by(usize::from(PHDR_BYTES)).enumerate() {
            let offset = le_u64(elf, at + 8).unwrap_or(u64::MAX);
            let size = le_u64(elf, at + 32).unwrap_or(u64::MAX);
            if span(len, offset, size).is_none() {
                return Err(truncated(format!(
                    "segment {i} ({size} bytes at {offset}) does not fit"
                )));
            }
        }
    }

    let shoff = le_u64(elf, 40).unwrap_or(0);
    let (shentsize, shnum) = (header(58), header(60));
    if shnum > 0 {
        if shentsize != SHDR_BYTES {
            return Err(truncated(format!(
                "section headers of {shentsize} bytes, not {SHDR_BYTES}"
            )));
        }
        let table =
            span(len, shoff, u64::from(shnum) * u64::from(SHDR_BYTES)).ok_or_else(|| {
                truncated(format!("the {shnum} section headers at {shoff} do not fit"))
            })?;
        for (i, at) in table.step_by(usize::from(SHDR_BYTES)).enumerate() {
            let kind = le_u32(elf, at + 4).unwrap_or(0);
            let offset = le_u64(elf, at + 24).unwrap_or(u64::MAX);
            let size = le_u64(elf, at + 32).unwrap_or(u64::MAX);
            if kind != SHT_NOBITS && span(len, offset, size).is_none() {
                return Err(truncated(format!(
                    "section {i} ({size} bytes at {offset}) does not fit"
                )));
            }
        }
    }
    Ok(())
}

/// The entries of an uncompressed offload bundle, as (target triple, bytes),
/// or why it is malformed. Layout: the magic, a `u64` entry count, then per
/// entry `u64` offset, `u64` size, `u64` triple length and the triple.
fn bundle_entries(bundle: &[u8]) -> Result<Vec<(String, &[u8])>, String> {
    let len = bundle.len();
    let malformed = |what: &str| format!("is a truncated or malformed offload bundle: {what}");
    let count = le_u64(bundle, BUNDLE_MAGIC.len()).ok_or_else(|| malformed("no entry count"))?;
    let mut at = BUNDLE_MAGIC.len() + 8;
    let mut entries = Vec::new();
    for i in 0..count {
        let (Some(offset), Some(size), Some(triple_len)) = (
            le_u64(bundle, at),
            le_u64(bundle, at + 8),
            le_u64(bundle, at + 16),
        ) else {
            return Err(malformed(&format!("entry {i} of {count} is cut off")));
        };
        let triple = span(len, (at + 24) as u64, triple_len)
            .ok_or_else(|| malformed(&format!("the triple of entry {i} is cut off")))?;
        let code = span(len, offset, size).ok_or_else(|| {
            malformed(&format!(
                "entry {i} ({size} bytes at {offset}) does not fit"
            ))
        })?;
        at = triple.end;
        entries.push((
            String::from_utf8_lossy(&bundle[triple]).into_owned(),
            &bundle[code],
        ));
    }
    Ok(entries)
}

/// Checks an offload bundle: its table and every code object in it.
fn check_bundle(bundle: &[u8]) -> Result<(), String> {
    for (triple, code) in bundle_entries(bundle)? {
        // Host entries are empty; device entries are ELFs.
        if code.starts_with(ELF_MAGIC) {
            check_elf(code).map_err(|why| format!("has an entry for {triple} that {why}"))?;
        }
    }
    Ok(())
}

/// The kernels a code object defines, for "no such kernel" errors: the
/// names of its kernel descriptor symbols (`name.kd`) without the suffix.
fn image_kernels(image: &[u8]) -> Vec<String> {
    let mut kernels = Vec::new();
    if image.starts_with(BUNDLE_MAGIC) {
        for (_, code) in bundle_entries(image).unwrap_or_default() {
            for kernel in elf_kernels(code) {
                if !kernels.contains(&kernel) {
                    kernels.push(kernel);
                }
            }
        }
    } else {
        kernels = elf_kernels(image);
    }
    kernels
}

/// [`image_kernels`] for one ELF: from `.dynsym` (what the loader sees), or
/// `.symtab` when that has none. Tolerates malformed input (returns fewer
/// names).
fn elf_kernels(elf: &[u8]) -> Vec<String> {
    let shnum = usize::from(le_u16(elf, 60).unwrap_or(0));
    for wanted in [SHT_DYNSYM, SHT_SYMTAB] {
        let mut kernels: Vec<String> = Vec::new();
        for index in 0..shnum {
            let Some((kind, symbols, link)) = elf_section(elf, index) else {
                continue;
            };
            if kind != wanted {
                continue;
            }
            let Some((_, names, _)) = elf_section(elf, link as usize) else {
                continue;
            };
            for symbol in symbols.chunks_exact(SYM_BYTES) {
                if symbol[4] & 0xf != STT_OBJECT {
                    continue;
                }
                let name = le_u32(symbol, 0)
                    .and_then(|start| names.get(usize::try_from(start).ok()?..))
                    .and_then(|s| CStr::from_bytes_until_nul(s).ok())
                    .and_then(|name| name.to_str().ok());
                if let Some(kernel) = name.and_then(|n| n.strip_suffix(".kd"))
                    && !kernels.iter().any(|k| k == kernel)
                {
                    kernels.push(kernel.to_string());
                }
            }
        }
        if !kernels.is_empty() {
            return kernels;
        }
    }
    Vec::new()
}

/// Section `index` of an ELF: its type, its bytes and its `sh_link`, or
/// `None` if any of that is outside the image.
fn elf_section(elf: &[u8], index: usize) -> Option<(u32, &[u8], u32)> {
    let shoff = usize::try_from(le_u64(elf, 40)?).ok()?;
    let at = shoff.checked_add(index.checked_mul(usize::from(SHDR_BYTES))?)?;
    let kind = le_u32(elf, at.checked_add(4)?)?;
    let range = span(elf.len(), le_u64(elf, at + 24)?, le_u64(elf, at + 32)?)?;
    Some((kind, &elf[range], le_u32(elf, at + 40)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a HIP runtime loads here (never on the development machine).
    fn runtime_present() -> bool {
        runtime().is_ok()
    }

    #[test]
    fn open_without_a_runtime_is_an_error_naming_libamdhip64() {
        if runtime_present() {
            // With a runtime, open may well succeed; that is the GPU test's job.
            return;
        }
        match Hip::open(0) {
            Err(NativeError::Tool { tool, message }) => {
                assert_eq!(tool, RUNTIME_TOOL);
                assert!(message.contains("libamdhip64.so"), "{message}");
                assert!(
                    message.contains("/opt/rocm/lib/libamdhip64.so"),
                    "{message}"
                );
                assert!(message.contains("ROCm"), "{message}");
                eprintln!("{tool}: {message}");
            }
            other => panic!("expected the no-runtime error, got {other:?}"),
        }
        // A second call behaves the same (nothing was half-initialised).
        assert!(Hip::open(3).is_err_and(|e| is_no_runtime(&e)));
    }

    #[test]
    fn looks_for_the_runtime_in_order() {
        let paths = |rocm: Option<&str>, hip: Option<&str>| -> Vec<String> {
            library_candidates(rocm.map(OsStr::new), hip.map(OsStr::new))
                .into_iter()
                .map(|p| p.display().to_string())
                .collect()
        };
        assert_eq!(
            paths(Some("/opt/rocm-6.4.1"), Some("/opt/hip")),
            [
                "/opt/rocm-6.4.1/lib/libamdhip64.so",
                "/opt/hip/lib/libamdhip64.so",
                "/opt/rocm/lib/libamdhip64.so",
                "libamdhip64.so",
                "libamdhip64.so.7",
                "libamdhip64.so.6",
            ]
        );
        let default = [
            "/opt/rocm/lib/libamdhip64.so",
            "libamdhip64.so",
            "libamdhip64.so.7",
            "libamdhip64.so.6",
        ];
        assert_eq!(paths(None, None), default);
        // Empty values are unset ones; a repeated directory is tried once.
        assert_eq!(paths(Some(""), Some("")), default);
        assert_eq!(paths(Some("/opt/rocm"), Some("/opt/rocm/")), default);
        assert_eq!(
            paths(None, Some("/usr")),
            [
                "/usr/lib/libamdhip64.so",
                "/opt/rocm/lib/libamdhip64.so",
                "libamdhip64.so",
                "libamdhip64.so.7",
                "libamdhip64.so.6",
            ]
        );
    }

    #[test]
    fn parses_architecture_names() {
        for (text, arch) in [
            ("gfx942", "gfx942"),
            ("gfx1100", "gfx1100"),
            ("gfx90a", "gfx90a"),
            ("gfx90c", "gfx90c"),
            ("gfx803", "gfx803"),
            ("gfx1030", "gfx1030"),
            ("gfx1201", "gfx1201"),
            ("gfx950", "gfx950"),
            (" GFX942\n", "gfx942"),
            ("gfx11-generic", "gfx11-generic"),
            ("gfx10-3-generic", "gfx10-3-generic"),
            ("gfx9-4-generic", "gfx9-4-generic"),
        ] {
            assert_eq!(parse_arch(text).as_deref(), Some(arch), "{text:?}");
        }
        for junk in [
            "",
            "gfx",
            "gfx9",
            "gfx94",
            "gfx94a0",
            "gfx11000",
            "gfx942x",
            "gfxa42",
            "gfx042",
            "gfx9 42",
            "sm_90",
            "942",
            "gfx-942",
            "gfx942:xnack+",
            "gfx90a:sramecc+:xnack-",
            "gfx-generic",
            "gfx11-",
            "gfx10-3-1-generic",
            "gfx10-33-generic",
            "amdgcn",
            "gfx9０2",
            "gfx９",
            "gfxé1",
            "gfx1é",
        ] {
            assert_eq!(parse_arch(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn wave_size_follows_the_architecture() {
        for (arch, wave) in [
            ("gfx90a", 64),
            ("gfx942", 64),
            ("gfx803", 64),
            ("gfx9-generic", 64),
            ("gfx1030", 32),
            ("gfx1100", 32),
            ("gfx1200", 32),
            ("gfx11-generic", 32),
        ] {
            assert_eq!(default_wave_size(arch), Some(wave), "{arch}");
        }
        assert_eq!(default_wave_size("sm_90"), None);
    }

    #[test]
    fn classifies_errors() {
        assert!(is_no_runtime(&no_runtime("x")));
        assert!(!is_no_runtime(&NativeError::Tool {
            tool: HIP_TOOL.into(),
            message: "x".into()
        }));
        assert!(!is_no_runtime(&NativeError::NoCudaDriver("x".into())));
    }

    /// A minimal AMDGPU ELF64: a header, one `PT_LOAD` segment and two
    /// sections (null and one 8-byte `PROGBITS`).
    fn tiny_elf() -> Vec<u8> {
        let mut elf = vec![0u8; 64 + 56 + 8 + 2 * 64];
        elf[..4].copy_from_slice(ELF_MAGIC);
        elf[4] = 2; // ELFCLASS64
        elf[5] = 1; // ELFDATA2LSB
        elf[6] = 1; // EV_CURRENT
        elf[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
        elf[18..20].copy_from_slice(&EM_AMDGPU.to_le_bytes());
        elf[32..40].copy_from_slice(&64u64.to_le_bytes()); // e_phoff
        elf[40..48].copy_from_slice(&128u64.to_le_bytes()); // e_shoff
        elf[52..54].copy_from_slice(&64u16.to_le_bytes());
        elf[54..56].copy_from_slice(&PHDR_BYTES.to_le_bytes());
        elf[56..58].copy_from_slice(&1u16.to_le_bytes());
        elf[58..60].copy_from_slice(&SHDR_BYTES.to_le_bytes());
        elf[60..62].copy_from_slice(&2u16.to_le_bytes());
        // The segment: the first 128 bytes.
        elf[64..68].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
        elf[64 + 32..64 + 40].copy_from_slice(&128u64.to_le_bytes()); // p_filesz
        // Section 1: 8 bytes at 120.
        let s1 = 128 + 64;
        elf[s1 + 4..s1 + 8].copy_from_slice(&1u32.to_le_bytes()); // SHT_PROGBITS
        elf[s1 + 24..s1 + 32].copy_from_slice(&120u64.to_le_bytes());
        elf[s1 + 32..s1 + 40].copy_from_slice(&8u64.to_le_bytes());
        elf
    }

    #[test]
    fn checks_elf_code_objects() {
        let elf = tiny_elf();
        assert_eq!(check_image(&elf), Ok(()));
        assert!(image_kernels(&elf).is_empty());

        let fails = |image: &[u8], needle: &str| match check_image(image) {
            Err(why) => assert!(why.contains(needle), "{why}"),
            Ok(()) => panic!("accepted an image that should fail with {needle:?}"),
        };
        fails(&[], "empty");
        fails(b"junk and more", "not an AMDGPU code object");
        fails(b"CCOB\x01\x00", "compressed");
        fails(&elf[..40], "less than an ELF header");
        // Cut inside the section header table.
        fails(&elf[..elf.len() - 1], "section headers");

        let mut x86 = elf.clone();
        x86[18..20].copy_from_slice(&62u16.to_le_bytes());
        fails(&x86, "x86-64");
        let mut elf32 = elf.clone();
        elf32[4] = 1;
        fails(&elf32, "32-bit");
        let mut far_section = elf.clone();
        far_section[128 + 64 + 24..128 + 64 + 32].copy_from_slice(&u64::MAX.to_le_bytes());
        fails(&far_section, "section 1");
        // A NOBITS section (.bss) takes no file space, wherever it says it is.
        far_section[128 + 64 + 4..128 + 64 + 8].copy_from_slice(&SHT_NOBITS.to_le_bytes());
        assert_eq!(check_image(&far_section), Ok(()));
        let mut long_segment = elf.clone();
        long_segment[64 + 32..64 + 40].copy_from_slice(&4096u64.to_le_bytes());
        fails(&long_segment, "segment 0");
        let mut odd_headers = elf;
        odd_headers[58..60].copy_from_slice(&40u16.to_le_bytes());
        fails(&odd_headers, "section headers of 40 bytes");
    }

    /// An offload bundle of an empty host entry and `code` for gfx942.
    fn bundle(code: &[u8], claimed_size: u64) -> Vec<u8> {
        let triples: [&[u8]; 2] = [
            b"host-x86_64-unknown-linux-gnu-",
            b"hipv4-amdgcn-amd-amdhsa--gfx942",
        ];
        let table = BUNDLE_MAGIC.len() + 8 + triples.iter().map(|t| 24 + t.len()).sum::<usize>();
        let mut out = BUNDLE_MAGIC.to_vec();
        out.extend_from_slice(&2u64.to_le_bytes());
        for (triple, (offset, size)) in triples
            .iter()
            .zip([(table as u64, 0), (table as u64, claimed_size)])
        {
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&(triple.len() as u64).to_le_bytes());
            out.extend_from_slice(triple);
        }
        out.extend_from_slice(code);
        out
    }

    #[test]
    fn checks_offload_bundles() {
        let elf = tiny_elf();
        assert_eq!(check_image(&bundle(&elf, elf.len() as u64)), Ok(()));

        let too_long = bundle(&elf, elf.len() as u64 + 1);
        let why = check_image(&too_long).unwrap_err();
        assert!(
            why.contains("entry 1") && why.contains("does not fit"),
            "{why}"
        );

        let mut broken = elf.clone();
        broken[18] = 62;
        let why = check_image(&bundle(&broken, broken.len() as u64)).unwrap_err();
        assert!(why.contains("gfx942") && why.contains("x86-64"), "{why}");

        let whole = bundle(&elf, elf.len() as u64);
        let why = check_image(&whole[..BUNDLE_MAGIC.len() + 20]).unwrap_err();
        assert!(why.contains("entry 0 of 2"), "{why}");
        assert!(
            check_image(BUNDLE_MAGIC)
                .unwrap_err()
                .contains("no entry count")
        );
        // A huge claimed count fails at the first missing entry, quickly.
        let mut many = BUNDLE_MAGIC.to_vec();
        many.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(check_image(&many).unwrap_err().contains("entry 0"));
    }

    #[test]
    fn copies_images_to_aligned_words() {
        let bytes: Vec<u8> = (1..=11).collect();
        let words = aligned_copy(&bytes);
        assert_eq!(words.len(), 2);
        assert_eq!(words.as_ptr() as usize % 8, 0);
        let back: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
        assert_eq!(&back[..11], &bytes[..]);
        assert_eq!(&back[11..], &[0; 5]);
    }

    /// Adds 1 to every u32 of buffer 0 (one thread per element, bounds
    /// checked against the byte length) and stores the thread count (the
    /// dispatch packet's grid size) in buffer 1: `cuda.rs`'s `add_one`.
    const ADD_ONE_LL: &str = r#"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()

define amdgpu_kernel void @add_one(ptr addrspace(1) %data, i32 %data_len,
                                   ptr addrspace(1) %out, i32 %out_len) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %dp = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %wgp = getelementptr i8, ptr addrspace(4) %dp, i64 4
  %wg16 = load i16, ptr addrspace(4) %wgp, align 4
  %wg = zext i16 %wg16 to i32
  %base = mul i32 %gid, %wg
  %i = add i32 %base, %tid
  %byte = shl i32 %i, 2
  %in = icmp ult i32 %byte, %data_len
  br i1 %in, label %body, label %done
body:
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %data, i64 %idx
  %v = load i32, ptr addrspace(1) %p, align 4
  %v1 = add i32 %v, 1
  store i32 %v1, ptr addrspace(1) %p, align 4
  %first = icmp eq i32 %i, 0
  br i1 %first, label %count, label %done
count:
  %gsp = getelementptr i8, ptr addrspace(4) %dp, i64 12
  %gs = load i32, ptr addrspace(4) %gsp, align 4
  store i32 %gs, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}
"#;

    /// The first of `names` that runs (`--version`), if any.
    fn find_tool(names: &[&str]) -> Option<String> {
        names.iter().find_map(|name| {
            std::process::Command::new(name)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| name.to_string())
        })
    }

    /// `ADD_ONE_LL` compiled for `arch` with LLVM's `llc` and `ld.lld`, or
    /// `None` when they are not installed.
    fn compile_add_one(arch: &str) -> Option<Vec<u8>> {
        let llc = find_tool(&["llc-19", "llc"])?;
        let lld = find_tool(&["ld.lld-19", "ld.lld"])?;
        let dir = env::temp_dir().join(format!("wavekit-hip-{}-{arch}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let (ll, obj, hsaco) = (dir.join("k.ll"), dir.join("k.o"), dir.join("k.hsaco"));
        std::fs::write(&ll, ADD_ONE_LL).ok()?;
        let run = |command: &mut std::process::Command| {
            let output = command.output().expect("running an LLVM tool");
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        run(std::process::Command::new(llc)
            .args([
                "-mtriple=amdgcn-amd-amdhsa",
                &format!("-mcpu={arch}"),
                "-filetype=obj",
                "-o",
            ])
            .arg(&obj)
            .arg(&ll));
        run(std::process::Command::new(lld)
            .arg("-shared")
            .arg("-o")
            .arg(&hsaco)
            .arg(&obj));
        let bytes = std::fs::read(&hsaco).ok();
        let _ = std::fs::remove_dir_all(&dir);
        bytes
    }

    #[test]
    fn accepts_real_code_objects_and_lists_their_kernels() {
        let Some(hsaco) = compile_add_one("gfx942") else {
            eprintln!("skipping: no llc / ld.lld");
            return;
        };
        assert_eq!(check_image(&hsaco), Ok(()));
        assert_eq!(image_kernels(&hsaco), ["add_one"]);
        let wrapped = bundle(&hsaco, hsaco.len() as u64);
        assert_eq!(check_image(&wrapped), Ok(()));
        assert_eq!(image_kernels(&wrapped), ["add_one"]);
        // Any cut is caught: the section header table is at the end.
        for cut in [hsaco.len() - 1, hsaco.len() / 2, 100] {
            assert!(check_image(&hsaco[..cut]).is_err(), "cut at {cut}");
        }
    }

    /// Runs only with a HIP runtime, an AMD GPU, `WAVEKIT_HIP_ARCH` naming
    /// it, and LLVM's tools to build the kernel.
    #[test]
    fn launches_and_times_on_a_gpu() {
        if !runtime_present() {
            return;
        }
        let hip = match Hip::open(0) {
            Ok(hip) => hip,
            // A runtime without a device: nothing to run on.
            Err(e) if is_no_runtime(&e) => {
                eprintln!("skipping: {e}");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let version = hip.runtime_version().unwrap();
        eprintln!(
            "{} from {}, HIP {version}",
            hip.name().unwrap(),
            hip.library().display()
        );
        assert!(version >= 50_000_000, "{version}");
        assert!(!hip.name().unwrap().is_empty());
        let Some(arch) = arch_from_env() else {
            eprintln!("skipping the launches: set {ARCH_ENV} to the GPU's architecture");
            return;
        };
        let Some(hsaco) = compile_add_one(&arch) else {
            eprintln!("skipping the launches: no llc / ld.lld");
            return;
        };

        let kernel = hip.load(&hsaco, "add_one").unwrap();
        assert_eq!(kernel.name(), "add_one");
        let n = 1000u32;
        let data: Vec<u8> = (0..n).flat_map(|i| (i * 3).to_le_bytes()).collect();
        let mut buffers = vec![data, vec![0u8; 4]];
        hip.launch(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0)
            .unwrap();
        for i in 0..n as usize {
            let v = u32::from_le_bytes(buffers[0][4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(v, 3 * i as u32 + 1, "element {i}");
        }
        assert_eq!(buffers[1], 1024u32.to_le_bytes());

        let mut empty = vec![Vec::new(), vec![0u8; 4]];
        hip.launch(&kernel, &mut empty, [1, 1, 1], [64, 1, 1], 1024)
            .unwrap();
        assert!(empty[0].is_empty());

        let times = hip
            .time(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0, 2, 5)
            .unwrap();
        eprintln!("add_one times (ms): {times:?}");
        assert_eq!(times.len(), 5);
        assert!(times.iter().all(|&t| t > 0.0 && t < 1000.0), "{times:?}");
        let first = u32::from_le_bytes(buffers[0][4..8].try_into().unwrap());
        assert_eq!(first, 3 + 1 + 7, "one launch, then 2 warm-up and 5 timed");

        match hip.load(&hsaco, "add_one.kd") {
            Err(NativeError::Tool { message, .. }) => {
                assert!(message.contains("[\"add_one\"]"), "{message}");
                assert!(message.contains("without `.kd`"), "{message}");
            }
            other => panic!("expected a missing-kernel error, got {other:?}"),
        }
        assert!(matches!(
            hip.load(b"junk", "add_one"),
            Err(NativeError::Abi(_))
        ));
        assert!(matches!(
            hip.launch(&kernel, &mut buffers, [0, 1, 1], [1, 1, 1], 0),
            Err(NativeError::Tool { .. })
        ));
        match Hip::open(1000) {
            Err(e) => assert!(is_no_runtime(&e) && e.to_string().contains("libamdhip64")),
            Ok(_) => panic!("opened device 1000"),
        }
    }

    /// A fake `libamdhip64.so` in C: "device" memory is host memory, the
    /// only kernel is `add_one` (done on the CPU from `kernelParams`), every
    /// 0.5 ms of "GPU time" is one launch. It checks what it can of the
    /// calls' arguments and counts live allocations, events and modules, so
    /// this side of the ABI (argument order, copy directions, parameter
    /// block, cleanup on every path) is tested without ROCm.
    const STUB_C: &str = r#"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static int live = 0;
static int device = -1;
static float now_ms = 0;
int stub_live(void) { return live; }

int hipInit(unsigned flags) { return flags == 0 ? 0 : 1; }
int hipGetDeviceCount(int* n) { *n = 2; return 0; }
int hipSetDevice(int d) { if (d < 0 || d >= 2) return 101; device = d; return 0; }
int hipDeviceGetAttribute(int* v, int attr, int d) {
  if (d != device) return 101; *v = 2 * attr; return 0; }
int hipDeviceGetName(char* name, int len, int d) {
  if (d != device) return 101; snprintf(name, len, "Stub GPU %d", d); return 0; }
int hipRuntimeGetVersion(int* v) { *v = 60443483; return 0; }
int hipModuleLoadData(void** module, const void* image) {
  if (device < 0 || memcmp(image, "\x7f" "ELF", 4) != 0) return 200;
  *module = malloc(1); live++; return 0; }
int hipModuleGetFunction(void** f, void* module, const char* name) {
  if (!module || strcmp(name, "add_one") != 0) return 500;
  *f = module; return 0; }
int hipModuleUnload(void* module) { if (!module) return 400; free(module); live--; return 0; }
int hipModuleLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz,
    unsigned bx, unsigned by, unsigned bz, unsigned shared, void* stream,
    void** params, void** extra) {
  if (!f || stream || extra || !params || shared > 65536) return 1;
  if (gx == 0 || bx == 0 || gy != 1 || gz != 1 || by != 1 || bz != 1) return 9;
  uint32_t* data = (uint32_t*)(uintptr_t)*(uint64_t*)params[0];
  uint32_t len = *(uint32_t*)params[1];
  uint32_t* out = (uint32_t*)(uintptr_t)*(uint64_t*)params[2];
  uint32_t out_len = *(uint32_t*)params[3];
  uint32_t threads = gx * bx;
  for (uint32_t i = 0; i < threads; i++)
    if (4 * i < len) data[i] += 1;
  if (out_len >= 4) out[0] = threads;
  now_ms += 0.5f;
  return 0; }
int hipMalloc(void** p, size_t n) {
  if (n == 0) { *p = 0; return 0; }
  *p = malloc(n); live++; memset(*p, 0xAB, n); return 0; }
int hipFree(void* p) { if (p) { free(p); live--; } return 0; }
/* 13 bytes: a copy that fails, to test cleanup on error paths. */
int hipMemcpyHtoD(void* dst, void* src, size_t n) {
  if (n == 13) return 1; memcpy(dst, src, n); return 0; }
int hipMemcpyDtoH(void* dst, void* src, size_t n) { memcpy(dst, src, n); return 0; }
int hipDeviceSynchronize(void) { return 0; }
const char* hipGetErrorString(int e) {
  switch (e) { case 0: return "no error"; case 1: return "invalid argument";
    case 101: return "invalid device ordinal"; case 200: return "invalid kernel file";
    case 500: return "named symbol not found"; default: return "unknown error"; } }
const char* hipGetErrorName(int e) {
  switch (e) { case 0: return "hipSuccess"; case 1: return "hipErrorInvalidValue";
    case 101: return "hipErrorInvalidDevice"; case 200: return "hipErrorInvalidImage";
    case 500: return "hipErrorNotFound"; default: return "hipErrorUnknown"; } }
int hipEventCreate(void** e) { *e = malloc(sizeof(float)); live++; return 0; }
int hipEventRecord(void* e, void* stream) {
  if (stream) return 1; *(float*)e = now_ms; return 0; }
int hipEventSynchronize(void* e) { return e ? 0 : 400; }
int hipEventElapsedTime(float* ms, void* a, void* b) {
  *ms = *(float*)b - *(float*)a; return 0; }
#ifndef NO_EVENT_DESTROY
int hipEventDestroy(void* e) { free(e); live--; return 0; }
#endif
"#;

    /// Builds [`STUB_C`] with `cc` into a fresh directory, with `defines`;
    /// `None` without a C compiler.
    fn build_stub(tag: &str, defines: &[&str]) -> Option<PathBuf> {
        find_tool(&["cc"])?;
        let dir = env::temp_dir().join(format!("wavekit-hip-stub-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let source = dir.join("stub.c");
        std::fs::write(&source, STUB_C).ok()?;
        let library = dir.join("libamdhip64.so");
        let output = std::process::Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-o"])
            .arg(&library)
            .arg(&source)
            .args(defines)
            .output()
            .ok()?;
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        Some(library)
    }

    #[test]
    fn drives_a_stub_runtime() {
        let Some(path) = build_stub("full", &[]) else {
            eprintln!("skipping: no C compiler");
            return;
        };
        // SAFETY: the stub has no initialisers.
        let library = unsafe { Library::new(&path) }.unwrap();
        // SAFETY: `int stub_live(void)`.
        let live: unsafe extern "C" fn() -> c_int =
            *unsafe { library.get::<unsafe extern "C" fn() -> c_int>("stub_live") }.unwrap();
        // SAFETY: reads a counter.
        let live = || unsafe { live() };
        // SAFETY: as above; the same library (dlopen counts references).
        let api = Arc::new(Api::resolve(unsafe { Library::new(&path) }.unwrap(), path).unwrap());

        let error = Hip::open_with(api.clone(), 2).unwrap_err();
        assert!(is_no_runtime(&error), "{error}");
        assert!(error.to_string().contains("reports 2 device(s)"), "{error}");

        let hip = Hip::open_with(api.clone(), 1).unwrap();
        assert_eq!(hip.name().unwrap(), "Stub GPU 1");
        assert_eq!(hip.runtime_version().unwrap(), 60_443_483);
        assert_eq!(hip.attribute(21).unwrap(), 42);
        let kernel = hip.load(&tiny_elf(), "add_one").unwrap();
        assert_eq!(live(), 1, "the module");

        let n = 1000u32;
        let data: Vec<u8> = (0..n).flat_map(|i| (i * 3).to_le_bytes()).collect();
        let mut buffers = vec![data, vec![0u8; 4]];
        hip.launch(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0)
            .unwrap();
        for i in 0..n as usize {
            let v = u32::from_le_bytes(buffers[0][4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(v, 3 * i as u32 + 1, "element {i}");
        }
        assert_eq!(buffers[1], 1024u32.to_le_bytes());
        assert_eq!(live(), 1, "buffers freed after a launch");

        // Short buffers are padded with zeros (the stub's fresh memory is
        // 0xAB), and come back at their own length.
        let mut short = vec![vec![7u8, 0], vec![0u8; 4]];
        hip.launch(&kernel, &mut short, [1, 1, 1], [1, 1, 1], 0)
            .unwrap();
        assert_eq!(short[0], [8, 0]);
        let mut empty = vec![Vec::new(), vec![0u8; 4]];
        hip.launch(&kernel, &mut empty, [1, 1, 1], [64, 1, 1], 1024)
            .unwrap();
        assert!(empty[0].is_empty());
        assert_eq!(empty[1], 64u32.to_le_bytes());

        let times = hip
            .time(&kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0, 2, 5)
            .unwrap();
        assert_eq!(times, [0.5; 5]);
        let first = u32::from_le_bytes(buffers[0][4..8].try_into().unwrap());
        assert_eq!(first, 3 + 1 + 7, "one launch, then 2 warm-up and 5 timed");
        assert_eq!(live(), 1, "buffers and events freed after timing");

        // Errors carry the runtime's name and message, and free everything.
        let mut failing = vec![vec![0u8; 8], vec![1u8; 13], vec![0u8; 4]];
        match hip.launch(&kernel, &mut failing, [1, 1, 1], [1, 1, 1], 0) {
            Err(NativeError::Tool { tool, message }) => {
                assert_eq!(tool, HIP_TOOL);
                assert!(
                    message.contains("copying buffer 1 to the device"),
                    "{message}"
                );
                assert!(
                    message.contains("hipErrorInvalidValue (1): invalid argument"),
                    "{message}"
                );
            }
            other => panic!("expected a copy error, got {other:?}"),
        }
        assert_eq!(live(), 1, "buffers freed after a failed copy");
        match hip.launch(&kernel, &mut buffers, [1, 1, 1], [1, 1, 1], 100_000) {
            Err(NativeError::Tool { message, .. }) => {
                assert!(message.contains("launching kernel `add_one`"), "{message}")
            }
            other => panic!("expected a launch error, got {other:?}"),
        }
        assert_eq!(live(), 1, "buffers freed after a failed launch");
        assert!(
            hip.time(&kernel, &mut failing, [1, 1, 1], [1, 1, 1], 0, 1, 3)
                .is_err()
        );
        assert_eq!(live(), 1, "buffers freed after failed timing");
        match hip.launch(&kernel, &mut buffers, [1, 0, 1], [1, 1, 1], 0) {
            Err(NativeError::Tool { message, .. }) => {
                assert!(message.contains("at least 1"), "{message}")
            }
            other => panic!("expected a launch error, got {other:?}"),
        }
        assert!(matches!(
            hip.launch(&kernel, &mut buffers, [1 << 30, 1, 1], [1024, 1, 1], 0),
            Err(NativeError::Tool { message, .. }) if message.contains("32 bits")
        ));

        match hip.load(&tiny_elf(), "nope.kd") {
            Err(NativeError::Tool { tool, message }) => {
                assert_eq!(tool, HIP_TOOL);
                assert!(message.contains("finding kernel `nope.kd`"), "{message}");
                assert!(message.contains("without `.kd`"), "{message}");
                assert!(message.contains("hipErrorNotFound (500)"), "{message}");
            }
            other => panic!("expected a missing-kernel error, got {other:?}"),
        }
        assert_eq!(live(), 1, "the module without the kernel unloaded");
        assert!(matches!(
            hip.load(b"junk", "add_one"),
            Err(NativeError::Abi(_))
        ));
        assert!(matches!(
            hip.load(&tiny_elf(), "a\0b"),
            Err(NativeError::Abi(_))
        ));

        // Another device's kernel is refused.
        let hip0 = Hip::open_with(api, 0).unwrap();
        assert!(matches!(
            hip0.launch(&kernel, &mut buffers, [1, 1, 1], [1, 1, 1], 0),
            Err(NativeError::Tool { message, .. }) if message.contains("device 1")
        ));
        drop(kernel);
        assert_eq!(live(), 0, "the module unloaded");
        // Unlinking a loaded library is fine on Linux.
        if let Some(dir) = hip.library().parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[test]
    fn names_a_missing_symbol() {
        let Some(path) = build_stub("old", &["-DNO_EVENT_DESTROY"]) else {
            eprintln!("skipping: no C compiler");
            return;
        };
        // SAFETY: the stub has no initialisers.
        let library = unsafe { Library::new(&path) }.unwrap();
        let error = Api::resolve(library, path.clone()).unwrap_err();
        if let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
        assert!(is_no_runtime(&error), "{error}");
        let message = error.to_string();
        assert!(message.contains("`hipEventDestroy`"), "{message}");
        assert!(message.contains("libamdhip64.so"), "{message}");
    }
}
