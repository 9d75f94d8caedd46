//! Tests of the HIP driver: the no-runtime error, the library search, the
//! architecture names, and, without ROCm, every call through a stub
//! `libamdhip64.so` built from C; with a HIP runtime and an AMD GPU, real
//! launches.

use std::env;
use std::ffi::{OsStr, c_int};
use std::path::PathBuf;

use libloading::Library;

use super::api::{Api, library_candidates, runtime};
use super::module::aligned_copy;
use super::*;
use crate::amdgpu::code_object::tests::{compile_add_one, find_tool, tiny_elf};
use crate::driver::add_one::{launch_add_one, time_add_one};
use crate::driver::{Launch, Programs};

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
    let version = hip.version().unwrap();
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
    let mut buffers = launch_add_one(&hip, &kernel);

    let mut empty = vec![Vec::new(), vec![0u8; 4]];
    hip.launch(&kernel, &mut empty, [1, 1, 1], [64, 1, 1], 1024)
        .unwrap();
    assert!(empty[0].is_empty());

    let times = time_add_one(&hip, &kernel, &mut buffers);
    eprintln!("add_one times (ms): {times:?}");
    assert!(times.iter().all(|&t| t > 0.0 && t < 1000.0), "{times:?}");

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
int hipMemcpyDtoDAsync(void* dst, void* src, size_t n, void* stream) {
  if (stream) return 1; memcpy(dst, src, n); return 0; }
int hipMemsetAsync(void* dst, int value, size_t n, void* stream) {
  if (stream) return 1; memset(dst, value, n); return 0; }
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

/// [`STUB_C`] built (see [`build_stub`]) and loaded: its runtime and its
/// count of live allocations, events and modules.
struct Stub {
    api: Arc<Api>,
    live: unsafe extern "C" fn() -> c_int,
    /// Keeps `live` valid.
    _library: Library,
}

impl Stub {
    /// The full stub in a directory of its own (`tag`); `None` without a C
    /// compiler.
    fn load(tag: &str) -> Option<Stub> {
        let Some(path) = build_stub(tag, &[]) else {
            eprintln!("skipping: no C compiler");
            return None;
        };
        // SAFETY: the stub has no initialisers.
        let library = unsafe { Library::new(&path) }.unwrap();
        // SAFETY: `int stub_live(void)`.
        let live: unsafe extern "C" fn() -> c_int =
            *unsafe { library.get::<unsafe extern "C" fn() -> c_int>("stub_live") }.unwrap();
        // SAFETY: as above; the same library (dlopen counts references).
        let api = Arc::new(Api::resolve(unsafe { Library::new(&path) }.unwrap(), path).unwrap());
        Some(Stub {
            api,
            live,
            _library: library,
        })
    }

    /// Allocations, events and modules not yet released.
    fn live(&self) -> c_int {
        // SAFETY: reads a counter.
        unsafe { (self.live)() }
    }

    /// Removes the stub's directory (unlinking a loaded library is fine on
    /// Linux).
    fn remove(&self) {
        if let Some(dir) = self.api.path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn drives_a_stub_runtime() {
    let Some(stub) = Stub::load("full") else {
        return;
    };
    let live = || stub.live();
    let api = stub.api.clone();

    let error = Hip::open_with(api.clone(), 2).unwrap_err();
    assert!(is_no_runtime(&error), "{error}");
    assert!(error.to_string().contains("reports 2 device(s)"), "{error}");

    let hip = Hip::open_with(api.clone(), 1).unwrap();
    assert_eq!(hip.name().unwrap(), "Stub GPU 1");
    assert_eq!(hip.version().unwrap(), 60_443_483);
    assert_eq!(hip.attribute(21).unwrap(), 42);
    let kernel = hip.load(&tiny_elf(), "add_one").unwrap();
    assert_eq!(live(), 1, "the module");

    let mut buffers = launch_add_one(&hip, &kernel);
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

    let times = time_add_one(&hip, &kernel, &mut buffers);
    assert_eq!(times, [0.5; 5]);
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
    stub.remove();
}

/// Device-resident buffers and programs through the stub: clears, copies
/// and launches run in order, timing starts after the leading clears,
/// another device's kernel is refused, and everything is released.
#[test]
fn runs_programs_on_a_stub_runtime() {
    let Some(stub) = Stub::load("programs") else {
        return;
    };
    let hip = Hip::open_with(stub.api.clone(), 0).unwrap();
    let kernel = hip.load(&tiny_elf(), "add_one").unwrap();
    let n = 64u32;
    let data: Vec<u8> = (0..n).flat_map(|i| i.to_le_bytes()).collect();
    let input = hip.alloc_from(&data).unwrap();
    let work = hip.alloc(data.len()).unwrap();
    let count = hip.alloc_from(&[9, 9, 9, 9]).unwrap();
    let empty = hip.alloc(0).unwrap();
    assert_eq!((work.len(), empty.len()), (data.len(), 0));
    assert!(empty.is_empty());
    // Fresh stub memory is 0xAB: allocations are cleared.
    assert_eq!(hip.read(&work).unwrap(), vec![0u8; data.len()]);
    assert!(hip.read(&empty).unwrap().is_empty());
    assert_eq!(stub.live(), 5, "the module and four buffers");

    // 64 threads add 1 to every word, then 32 threads to the first 32; the
    // count is the last launch's threads.
    let steps = [
        HipStep::Zero(&count),
        HipStep::Copy {
            src: &input,
            dst: &work,
        },
        HipStep::Launch {
            kernel: &kernel,
            buffers: vec![&work, &count],
            grid: [1, 1, 1],
            block: [64, 1, 1],
        },
        HipStep::Launch {
            kernel: &kernel,
            buffers: vec![&work, &count],
            grid: [2, 1, 1],
            block: [16, 1, 1],
        },
    ];
    let expected: Vec<u8> = (0..n)
        .flat_map(|i| (i + 1 + u32::from(i < 32)).to_le_bytes())
        .collect();
    hip.execute(&steps).unwrap();
    assert_eq!(hip.read(&work).unwrap(), expected);
    assert_eq!(hip.read(&count).unwrap(), 32u32.to_le_bytes());

    // Each timed run spans the copy and both launches (0.5 ms each), not
    // the leading clear; the copy resets the work, so the result is the same.
    let times = hip.time_program(&steps, 2, 3).unwrap();
    assert_eq!(times, [1.0; 3]);
    assert_eq!(hip.read(&work).unwrap(), expected);
    // A program of clears alone is timed as empty.
    let clears = [HipStep::Zero(&count)];
    assert_eq!(hip.time_program(&clears, 0, 2).unwrap(), [0.0; 2]);
    assert_eq!(hip.read(&count).unwrap(), [0; 4]);
    assert_eq!(stub.live(), 5, "events released after timing");

    // Buffers may be longer than a launch binds (the device algorithms bind
    // regions of one); a launch that binds one over the ABI's u32 lengths
    // is refused, which tests/device_cuda.rs checks with 4 GiB on a GPU
    // (here the stub would fill 4 GiB of host memory).
    let hip1 = Hip::open_with(stub.api.clone(), 1).unwrap();
    match hip1.execute(&steps) {
        Err(NativeError::Tool { tool, message }) => {
            assert_eq!(tool, HIP_TOOL);
            assert!(
                message.contains("was loaded on HIP device 0, not on device 1"),
                "{message}"
            );
        }
        other => panic!("expected a foreign-kernel error, got {other:?}"),
    }
    drop((steps, clears));
    drop((input, work, count, empty, kernel));
    assert_eq!(stub.live(), 0, "buffers and the module released");
    stub.remove();
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
