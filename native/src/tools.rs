//! NVIDIA's offline tools: `ptxas`, `nvdisasm` and libdevice.
//!
//! wavekit's static checks assemble the PTX it generates and read the SASS
//! back ("does this reduction really become one `REDUX.SUM`?"). The tools
//! come from NVIDIA's pip wheels, which need neither a GPU nor a CUDA
//! toolkit install:
//!
//! ```text
//! pip install nvidia-cuda-nvcc nvidia-cuda-nvdisasm nvidia-nvvm
//! ```
//!
//! Each tool is looked up, in order, from
//! 1. its environment variable (`WAVEKIT_PTXAS`, `WAVEKIT_NVDISASM`,
//!    `WAVEKIT_LIBDEVICE`), which must then name an existing file;
//! 2. the wheels' layout under Python's site-packages (`nvidia/cu13/...` for
//!    CUDA 13 wheels, `nvidia/cuda_nvcc/...` and `nvidia/cuda_nvdisasm/...`
//!    for CUDA 12 ones);
//! 3. `PATH` (for libdevice: `<dir on PATH>/../nvvm/libdevice/`, the layout of
//!    a CUDA toolkit whose `bin` is on `PATH`).
//!
//! What `nvdisasm -c` prints, and what [`sass_opcodes`] reads:
//!
//! ```text
//! //--------------------- .text.k                   --------------------------
//!     .section    .text.k,"ax",@progbits
//!         .global         k
//! k:
//! .text.k:
//!         /*0000*/                   LDC R1, c[0x0][0x28] ;
//! .L_x_1:
//!         /*0040*/                   SHFL.BFLY PT, R0, R5, 0x1, 0x1f ;
//!         /*0090*/              @!P0 IADD3 R7, R0, RZ, RZ ;
//!         /*00b0*/                   EXIT ;
//! .L_x_0:
//!         /*00c0*/                   BRA `(.L_x_0);
//!         /*00d0*/                   NOP;
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::NativeError;

/// Where one tool can be found and how to install it.
struct ToolSpec {
    /// The tool's name in errors (`ptxas`).
    name: &'static str,
    /// The environment variable that overrides every other lookup.
    env: &'static str,
    /// Paths relative to site-packages, most likely first (without the
    /// platform's executable suffix).
    wheel_paths: &'static [&'static str],
    /// How to find it through `PATH`.
    path_lookup: PathLookup,
    /// What to tell the user when it is nowhere.
    install_hint: &'static str,
}

/// How a tool is found through `PATH`.
enum PathLookup {
    /// An executable with this name in a `PATH` directory.
    Executable(&'static str),
    /// A file at this path relative to a `PATH` directory (libdevice sits
    /// beside a toolkit's `bin`, not in it).
    Relative(&'static str),
}

impl ToolSpec {
    /// Whether the tool is a program (gets the platform's `.exe` suffix and
    /// must be executable) rather than a data file.
    fn is_executable(&self) -> bool {
        matches!(self.path_lookup, PathLookup::Executable(_))
    }

    fn error(&self, message: String) -> NativeError {
        NativeError::Tool {
            tool: self.name.to_string(),
            message,
        }
    }
}

const PTXAS: ToolSpec = ToolSpec {
    name: "ptxas",
    env: "WAVEKIT_PTXAS",
    wheel_paths: &["nvidia/cu13/bin/ptxas", "nvidia/cuda_nvcc/bin/ptxas"],
    path_lookup: PathLookup::Executable("ptxas"),
    install_hint: "pip install nvidia-cuda-nvcc",
};

const NVDISASM: ToolSpec = ToolSpec {
    name: "nvdisasm",
    env: "WAVEKIT_NVDISASM",
    wheel_paths: &[
        "nvidia/cu13/bin/nvdisasm",
        "nvidia/cuda_nvdisasm/bin/nvdisasm",
    ],
    path_lookup: PathLookup::Executable("nvdisasm"),
    install_hint: "pip install nvidia-cuda-nvdisasm",
};

const LIBDEVICE: ToolSpec = ToolSpec {
    name: "libdevice",
    env: "WAVEKIT_LIBDEVICE",
    // CUDA 13 moved NVVM into its own wheel (`nvidia-nvvm`); CUDA 12 shipped
    // it inside `nvidia-cuda-nvcc-cu12`.
    wheel_paths: &[
        "nvidia/cu13/nvvm/libdevice/libdevice.10.bc",
        "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
    ],
    path_lookup: PathLookup::Relative("../nvvm/libdevice/libdevice.10.bc"),
    install_hint: "pip install nvidia-nvvm (CUDA 13) or nvidia-cuda-nvcc-cu12 (CUDA 12)",
};

/// The `ptxas` to run: `$WAVEKIT_PTXAS`, the `nvidia-cuda-nvcc` wheel, or `PATH`.
pub fn ptxas_path() -> Result<PathBuf, NativeError> {
    locate(&PTXAS)
}

/// The `nvdisasm` to run: `$WAVEKIT_NVDISASM`, the `nvidia-cuda-nvdisasm`
/// wheel, or `PATH`.
pub fn nvdisasm_path() -> Result<PathBuf, NativeError> {
    locate(&NVDISASM)
}

/// `libdevice.10.bc` (NVIDIA's math library as LLVM bitcode):
/// `$WAVEKIT_LIBDEVICE`, the `nvidia-nvvm` wheel, or a toolkit on `PATH`.
pub fn libdevice_path() -> Result<PathBuf, NativeError> {
    locate(&LIBDEVICE)
}

/// Looks `spec` up with this process's environment.
fn locate(spec: &ToolSpec) -> Result<PathBuf, NativeError> {
    find_tool(
        spec,
        std::env::var_os(spec.env),
        site_packages(),
        std::env::var_os("PATH"),
    )
}

/// The lookup itself, with every input passed in so that tests need not
/// touch the process environment (which would race other tests).
fn find_tool(
    spec: &ToolSpec,
    env_override: Option<OsString>,
    site_dirs: &[PathBuf],
    path_var: Option<OsString>,
) -> Result<PathBuf, NativeError> {
    // An explicit override is a promise: if it is wrong, say so instead of
    // quietly falling back to some other copy of the tool.
    if let Some(value) = env_override.filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        if path.is_file() {
            return Ok(path);
        }
        return Err(spec.error(format!(
            "{}={} does not name a file (unset it to use the pip wheel or PATH; `{}`)",
            spec.env,
            path.display(),
            spec.install_hint
        )));
    }

    let suffix = if spec.is_executable() {
        std::env::consts::EXE_SUFFIX
    } else {
        ""
    };
    for dir in site_dirs {
        for rel in spec.wheel_paths {
            let candidate = dir.join(format!("{rel}{suffix}"));
            if usable(&candidate, spec.is_executable()) {
                return Ok(candidate);
            }
        }
    }

    if let Some(path_var) = &path_var {
        for dir in std::env::split_paths(path_var) {
            let candidate = match spec.path_lookup {
                PathLookup::Executable(name) => dir.join(format!("{name}{suffix}")),
                PathLookup::Relative(rel) => dir.join(rel),
            };
            if usable(&candidate, spec.is_executable()) {
                return Ok(candidate);
            }
        }
    }

    let looked_in = if site_dirs.is_empty() {
        "no Python site-packages found (is python3 on PATH?)".to_string()
    } else {
        let dirs: Vec<String> = site_dirs.iter().map(|d| d.display().to_string()).collect();
        format!("looked in {}", dirs.join(", "))
    };
    Err(spec.error(format!(
        "not found; install it with `{}`, or set {} to its path ({looked_in}, then PATH)",
        spec.install_hint, spec.env
    )))
}

/// Whether `path` is a file we can use (and, for programs, run).
fn usable(path: &Path, executable: bool) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        return meta.permissions().mode() & 0o111 != 0;
    }
    let _ = executable;
    true
}

/// Python's site-packages directories (where pip puts the NVIDIA wheels),
/// asked of `python3` once per process.
fn site_packages() -> &'static [PathBuf] {
    static DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        // purelib is what pip reports; the NVIDIA wheels are platform wheels
        // and so land in platlib, which differs from purelib on some distros
        // (lib64); `pip install --user` puts them in the user site.
        const SCRIPT: &str = "import sysconfig, site\n\
             p = sysconfig.get_paths()\n\
             print(p['purelib'])\n\
             print(p['platlib'])\n\
             try:\n    print(site.getusersitepackages())\n\
             except Exception:\n    pass\n";
        for python in ["python3", "python"] {
            match Command::new(python).args(["-c", SCRIPT]).output() {
                Ok(out) if out.status.success() => {
                    let mut dirs: Vec<PathBuf> = Vec::new();
                    for line in String::from_utf8_lossy(&out.stdout).lines() {
                        let dir = PathBuf::from(line.trim());
                        if !line.trim().is_empty() && !dirs.contains(&dir) {
                            dirs.push(dir);
                        }
                    }
                    log::debug!("{python} site-packages: {dirs:?}");
                    return dirs;
                }
                Ok(out) => log::debug!(
                    "{python} could not report site-packages: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
                Err(e) => log::debug!("could not run {python}: {e}"),
            }
        }
        Vec::new()
    })
}

/// A scratch directory under [`std::env::temp_dir`], removed on drop, so
/// that concurrent assemblies (parallel tests, threads) never share files.
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    fn new(tool: &ToolSpec) -> Result<TempDir, NativeError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let mut last_error = None;
        // pid + counter is unique within this machine's live processes; the
        // clock only guards against a stale directory left by a crashed run
        // with a recycled pid. `create_dir` (not `_all`) fails if it exists.
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!(
                "wavekit-{}-{}-{n}-{nanos:08x}",
                tool.name,
                std::process::id()
            ));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) => last_error = Some(e),
            }
        }
        Err(tool.error(format!(
            "could not create a scratch directory in {}: {}",
            std::env::temp_dir().display(),
            last_error.map(|e| e.to_string()).unwrap_or_default()
        )))
    }

    fn write(&self, tool: &ToolSpec, name: &str, bytes: &[u8]) -> Result<PathBuf, NativeError> {
        let path = self.path.join(name);
        std::fs::write(&path, bytes)
            .map_err(|e| tool.error(format!("writing {}: {e}", path.display())))?;
        Ok(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.path) {
            log::debug!("could not remove {}: {e}", self.path.display());
        }
    }
}

/// Runs a tool, turning a failure to start or a non-zero exit into
/// [`NativeError::Tool`] carrying the tool's stderr.
fn run(tool: &ToolSpec, program: &Path, args: &[&std::ffi::OsStr]) -> Result<Output, NativeError> {
    let shown = || {
        let mut line = program.display().to_string();
        for a in args {
            line.push(' ');
            line.push_str(&a.to_string_lossy());
        }
        line
    };
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| tool.error(format!("could not run `{}`: {e}", shown())))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        // ptxas reports errors on stderr; keep stdout too in case a
        // version puts them there.
        let detail = [stderr.trim(), stdout.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        return Err(tool.error(format!("`{}` failed ({}):\n{detail}", shown(), out.status)));
    }
    Ok(out)
}

/// Assembles PTX for `sm_<sm>` (e.g. 80, 90) with `ptxas -arch=sm_XX -O3`
/// and returns the cubin. On failure the error carries ptxas's stderr.
pub fn assemble(ptx: &str, sm: u32) -> Result<Vec<u8>, NativeError> {
    let (cubin, warnings) = run_ptxas(ptx, sm, false)?;
    if !warnings.trim().is_empty() {
        log::warn!("ptxas sm_{sm}: {}", warnings.trim());
    }
    Ok(cubin)
}

/// What `ptxas -v` reports of one function: registers, local memory and
/// static shared memory (bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResourceUsage {
    /// Registers per thread.
    pub registers: u32,
    /// The function's stack frame (private arrays that stayed in memory).
    pub stack_frame: u32,
    /// Bytes of register spill stores and loads.
    pub spill_stores: u32,
    /// See `spill_stores`.
    pub spill_loads: u32,
    /// Static shared memory (workgroup variables).
    pub shared: u32,
}

/// Assembles PTX as [`assemble`] does, with `-v`, and returns each entry
/// function's [`ResourceUsage`] by name.
pub fn resource_usage(ptx: &str, sm: u32) -> Result<BTreeMap<String, ResourceUsage>, NativeError> {
    let (_, report) = run_ptxas(ptx, sm, true)?;
    let number_before = |line: &str, unit: &str| -> u32 {
        line.split(',')
            .find_map(|part| part.trim().strip_suffix(unit))
            .and_then(|n| n.trim().rsplit(' ').next()?.parse().ok())
            .unwrap_or(0)
    };
    let mut usage = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            usage.insert(name.clone(), ResourceUsage::default());
            current = Some(name);
            continue;
        }
        let Some(entry) = current.as_ref().and_then(|n| usage.get_mut(n)) else {
            continue;
        };
        if line.contains("bytes stack frame") {
            entry.stack_frame = number_before(line, "bytes stack frame");
            entry.spill_stores = number_before(line, "bytes spill stores");
            entry.spill_loads = number_before(line, "bytes spill loads");
        } else if line.contains("registers") {
            entry.registers = number_before(line.split(':').nth(1).unwrap_or(line), "registers");
            entry.shared = number_before(line, "bytes smem");
        }
    }
    Ok(usage)
}

/// ptxas on `ptx` for `sm_<sm>` (`-v` when `verbose`): the cubin and what
/// ptxas wrote to stderr.
fn run_ptxas(ptx: &str, sm: u32, verbose: bool) -> Result<(Vec<u8>, String), NativeError> {
    let ptxas = ptxas_path()?;
    let dir = TempDir::new(&PTXAS)?;
    let input = dir.write(&PTXAS, "kernel.ptx", ptx.as_bytes())?;
    let output = dir.path.join("kernel.cubin");
    let arch = format!("-arch=sm_{sm}");
    let mut args: Vec<&std::ffi::OsStr> = vec![
        arch.as_ref(),
        "-O3".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ];
    if verbose {
        args.push("-v".as_ref());
    }
    let out = run(&PTXAS, &ptxas, &args)?;
    let report = String::from_utf8_lossy(&out.stderr).into_owned();
    let cubin = std::fs::read(&output)
        .map_err(|e| PTXAS.error(format!("reading {}: {e}", output.display())))?;
    Ok((cubin, report))
}

/// `nvdisasm -c` of a cubin: the SASS of its code sections, as text.
pub fn disassemble(cubin: &[u8]) -> Result<String, NativeError> {
    let nvdisasm = nvdisasm_path()?;
    let dir = TempDir::new(&NVDISASM)?;
    let input = dir.write(&NVDISASM, "kernel.cubin", cubin)?;
    // `-c` prints only code sections; without it nvdisasm also dumps
    // `.nv.info`, `.debug_frame` and the like as `/*0000*/ .byte ...` lines.
    let out = run(&NVDISASM, &nvdisasm, &["-c".as_ref(), input.as_os_str()])?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The SASS instructions of one function — the `.text.<function>` section of
/// [`disassemble`]'s output — as opcodes with their modifiers: `SHFL.BFLY`,
/// `FADD`, `VOTE.ALL`, `REDUX.SUM`, `BAR.SYNC.DEFER_BLOCKING`.
///
/// Predicated instructions are listed without their guard (`@!P0 BRA` is
/// `BRA`). Labels, directives, comments and `NOP` padding are skipped, and so
/// is the `.L_x_N: BRA .L_x_N` self-loop ptxas puts after the last
/// instruction of every function (a trap that is never executed), so that
/// `BRA` counts only real branches. Subroutines ptxas placed in the same
/// section (non-inlined `.func`s, its own slow paths) are included. An
/// unknown function gives an empty list.
pub fn sass_opcodes(sass: &str, function: &str) -> Vec<String> {
    let section = format!(".text.{function}");
    let mut in_section = false;
    let mut opcodes = Vec::new();
    // The label directly before the current instruction, to spot the
    // self-loop: `.L_x_4:` then `BRA `(.L_x_4);`.
    let mut label: Option<&str> = None;
    let mut self_loops = Vec::new();

    for raw in sass.lines() {
        let line = raw.trim();
        if line.starts_with("//-----") {
            // nvdisasm's banner before every section (and before SYMBOLS).
            in_section = false;
            continue;
        }
        // `.section NAME,...` starts a section; match the whole directive
        // word, since sm_80 listings follow it with `.sectioninfo`.
        let mut words = line.split_whitespace();
        if words.next() == Some(".section") {
            let rest = words.next().unwrap_or("");
            in_section = rest.split(',').next() == Some(section.as_str());
            continue;
        }
        if !in_section || line.is_empty() {
            continue;
        }
        // Instructions start with their address comment: `/*0040*/`.
        let Some(after_address) = line
            .strip_prefix("/*")
            .and_then(|l| l.split_once("*/"))
            .filter(|(addr, _)| addr.chars().all(|c| c.is_ascii_hexdigit()))
            .map(|(_, rest)| rest)
        else {
            if let Some(name) = line.strip_suffix(':') {
                label = Some(name);
            } else if !line.starts_with('.') && !line.starts_with("//") {
                log::debug!("sass_opcodes: skipping unrecognised line {line:?}");
            }
            continue;
        };
        let mut text = after_address.trim();
        // Older architectures' dual-issue syntax groups with `{ ... }`.
        text = text.trim_start_matches('{').trim();
        if let Some((code, _comment)) = text.split_once("//") {
            text = code.trim();
        }
        let mut words = text.split_whitespace();
        let mut first = words.next().unwrap_or("");
        let predicated = first.starts_with('@');
        if predicated {
            first = words.next().unwrap_or("");
        }
        let opcode = first.trim_end_matches([';', '}']);
        let previous_label = label.take();
        if opcode.is_empty() || opcode == "NOP" {
            continue;
        }
        if opcode == "BRA" && !predicated {
            let target = words
                .next()
                .unwrap_or("")
                .trim_end_matches([';', '}'])
                .trim_start_matches("`(")
                .trim_end_matches(')');
            if previous_label == Some(target) {
                self_loops.push(opcodes.len());
            }
        }
        opcodes.push(opcode.to_string());
    }
    // Only drop a self-loop that ends the function: one in the middle would
    // be a real (if odd) infinite loop.
    if self_loops.last().is_some_and(|&i| i + 1 == opcodes.len()) {
        opcodes.pop();
    }
    opcodes
}

/// Counts opcodes by base mnemonic, the part before the first `.`:
/// `["SHFL.BFLY", "SHFL.IDX", "FADD"]` gives `{"FADD": 1, "SHFL": 2}`.
pub fn count_mnemonics(opcodes: &[String]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for opcode in opcodes {
        let base = opcode.split('.').next().unwrap_or(opcode);
        *counts.entry(base.to_string()).or_insert(0) += 1;
    }
    counts
}

const LD_LLD: ToolSpec = ToolSpec {
    name: "ld.lld",
    env: "WAVEKIT_LD_LLD",
    wheel_paths: &[],
    path_lookup: PathLookup::Executable("ld.lld-19"),
    install_hint: "apt install lld-19",
};

const LLVM_OBJDUMP: ToolSpec = ToolSpec {
    name: "llvm-objdump",
    env: "WAVEKIT_LLVM_OBJDUMP",
    wheel_paths: &[],
    path_lookup: PathLookup::Executable("llvm-objdump-19"),
    install_hint: "apt install llvm-19",
};

const LLVM_READELF: ToolSpec = ToolSpec {
    name: "llvm-readelf",
    env: "WAVEKIT_LLVM_READELF",
    wheel_paths: &[],
    path_lookup: PathLookup::Executable("llvm-readelf-19"),
    install_hint: "apt install llvm-19",
};

/// Links an AMDGPU relocatable object into a loadable code object (HSACO)
/// with `ld.lld -shared`, as clang's HIP driver does.
pub fn link_hsaco(object: &[u8]) -> Result<Vec<u8>, NativeError> {
    let lld = locate(&LD_LLD)?;
    let dir = TempDir::new(&LD_LLD)?;
    let input = dir.write(&LD_LLD, "kernel.o", object)?;
    let output = dir.path.join("kernel.hsaco");
    run(
        &LD_LLD,
        &lld,
        &[
            "-shared".as_ref(),
            "--no-undefined".as_ref(),
            input.as_os_str(),
            "-o".as_ref(),
            output.as_os_str(),
        ],
    )?;
    std::fs::read(&output).map_err(|e| LD_LLD.error(format!("reading {}: {e}", output.display())))
}

/// `llvm-objdump -d` of a code object for `arch` (`gfx942`).
pub fn amdgpu_disassemble(hsaco: &[u8], arch: &str) -> Result<String, NativeError> {
    let objdump = locate(&LLVM_OBJDUMP)?;
    let dir = TempDir::new(&LLVM_OBJDUMP)?;
    let input = dir.write(&LLVM_OBJDUMP, "kernel.hsaco", hsaco)?;
    let mcpu = format!("--mcpu={arch}");
    let out = run(
        &LLVM_OBJDUMP,
        &objdump,
        &["-d".as_ref(), mcpu.as_ref(), input.as_os_str()],
    )?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `llvm-readelf --notes --dyn-symbols` of a code object: the kernel
/// descriptors and the `amdhsa.kernels` metadata.
pub fn amdgpu_notes(hsaco: &[u8]) -> Result<String, NativeError> {
    let readelf = locate(&LLVM_READELF)?;
    let dir = TempDir::new(&LLVM_READELF)?;
    let input = dir.write(&LLVM_READELF, "kernel.hsaco", hsaco)?;
    let out = run(
        &LLVM_READELF,
        &readelf,
        &[
            "--file-header".as_ref(),
            "--notes".as_ref(),
            "--dyn-symbols".as_ref(),
            input.as_os_str(),
        ],
    )?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The instruction mnemonics of `function` in [`amdgpu_disassemble`]'s
/// output (`ds_bpermute_b32`, `v_cndmask_b32_e64`, `s_endpgm`, ...).
pub fn amdgpu_mnemonics(disassembly: &str, function: &str) -> Vec<String> {
    let header = format!("<{function}>:");
    let mut out = Vec::new();
    let mut inside = false;
    for line in disassembly.lines() {
        let trimmed = line.trim();
        if trimmed.ends_with(&header) {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if trimmed.is_empty() || trimmed.ends_with(">:") {
            break;
        }
        if let Some(mnemonic) = trimmed.split_whitespace().next()
            && !mnemonic.starts_with("//")
            && mnemonic != "s_code_end"
        {
            out.push(mnemonic.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warp shuffle, a warp vote and a global store. `.target sm_80` so
    /// that it assembles for both sm_80 and sm_90.
    const TEST_PTX: &str = r#"
.version 7.8
.target sm_80
.address_size 64

.visible .entry k(
	.param .u64 p,
	.param .u32 n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;

	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
	setp.ne.u32 %p1, %r2, 0;
	vote.sync.all.pred %p2, %p1, -1;
	selp.u32 %r3, 1, 0, %p2;
	add.u32 %r4, %r3, %r2;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd3, %rd2, %rd3;
	st.global.u32 [%rd3], %r4;
	ret;
}
"#;

    /// `nvdisasm -c` of two kernels assembled by ptxas 13.5.37 for sm_90
    /// (plus the `.sectioninfo` line sm_80 listings have after `.section`):
    /// `k` is [`TEST_PTX`]; `red` has a loop of `redux.sync`, a shuffle,
    /// barriers around shared memory, a non-inlined `.func` call and an
    /// `atom.global.add` (which ptxas turned into a warp-aggregated `REDG`).
    const SNIPPET: &str = r#"	.target	sm_90

	.elftype	@"ET_EXEC"


//--------------------- .text.k                   --------------------------
	.section	.text.k,"ax",@progbits
	.align	128
        .global         k
        .type           k,@function
        .size           k,(.L_x_12 - k)
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
.text.k:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_TID.X ;
        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;
.L_x_3:
        /*0040*/                   SHFL.BFLY PT, R0, R5, 0x1, 0x1f ;
        /*0050*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;
        /*0060*/                   ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;
        /*0070*/                   VIADD R7, R0, 0x1 ;
.L_x_4:
        /*0080*/                   VOTE.ALL P0, P0 ;
        /*0090*/              @!P0 IADD3 R7, R0, RZ, RZ ;
        /*00a0*/                   STG.E desc[UR4][R2.64], R7 ;
.L_x_5:
        /*00b0*/                   EXIT ;
.L_x_0:
        /*00c0*/                   BRA `(.L_x_0);
        /*00d0*/                   NOP;
        /*00e0*/                   NOP;
        /*00f0*/                   NOP;
.L_x_12:


//--------------------- .text.red                 --------------------------
	.section	.text.red,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=8"
	.align	128
        .global         red
        .type           red,@function
        .size           red,(.L_x_11 - red)
        .other          red,@"STO_CUDA_ENTRY STV_DEFAULT"
red:
.text.red:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   IMAD.MOV.U32 R2, RZ, RZ, RZ ;
        /*0030*/                   ULDC.64 UR6, c[0x0][0x208] ;
        /*0040*/                   ULDC UR4, c[0x0][0x218] ;
.L_x_1:
        /*0050*/                   WARPSYNC.ALL ;
.L_x_8:
        /*0060*/                   REDUX.SUM UR5, R0 ;
        /*0070*/                   VIADD R0, R0, 0x1 ;
        /*0080*/                   ISETP.GE.U32.AND P0, PT, R0, UR4, PT ;
        /*0090*/                   MOV R3, UR5 ;
        /*00a0*/                   IMAD.IADD R2, R3, 0x1, R2 ;
        /*00b0*/              @!P0 BRA `(.L_x_1) ;
        /*00c0*/                   WARPSYNC.ALL ;
        /*00d0*/                   I2FP.F32.U32 R0, R2 ;
.L_x_9:
        /*00e0*/                   SHFL.BFLY PT, R2, R2, 0x10, 0x1f ;
        /*00f0*/                   S2UR UR5, SR_CgaCtaId ;
        /*0100*/                   UMOV UR4, 0x400 ;
        /*0110*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0120*/                   I2FP.F32.U32 R3, R2 ;
        /*0130*/                   ULEA UR4, UR5, UR4, 0x18 ;
        /*0140*/                   MOV R2, 0x1a0 ;
        /*0150*/                   FADD R0, R0, R3 ;
        /*0160*/                   STS [UR4], R0 ;
        /*0170*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0180*/                   LDS R3, [UR4+0x4] ;
        /*0190*/                   CALL.REL.NOINC `($red$helper) ;
        /*01a0*/                   S2R R4, SR_LANEID ;
.L_x_6:
        /*01b0*/                   REDUX.SUM UR5, R0 ;
        /*01c0*/                   LDC.64 R2, c[0x0][0x210] ;
.L_x_7:
        /*01d0*/                   VOTEU.ANY UR4, UPT, PT ;
        /*01e0*/                   UFLO.U32 UR4, UR4 ;
        /*01f0*/                   MOV R5, UR5 ;
        /*0200*/                   ISETP.EQ.U32.AND P0, PT, R4, UR4, PT ;
        /*0210*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R5 ;
.L_x_10:
        /*0220*/                   EXIT ;
        .type           $red$helper,@function
        .size           $red$helper,(.L_x_11 - $red$helper)
$red$helper:
        /*0230*/                   VIADD R0, R3, 0x7 ;
        /*0240*/                   HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
        /*0250*/                   RET.REL.NODEC R2 `(red) ;
.L_x_2:
        /*0260*/                   BRA `(.L_x_2);
        /*0270*/                   NOP;
        /*0280*/                   NOP;
.L_x_11:


//--------------------- SYMBOLS --------------------------

	.type		.nv.reservedSmem.offset0,@object
	.size		.nv.reservedSmem.offset0,0x4
"#;

    fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
        pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
    }

    #[test]
    fn parses_one_function_of_a_fixed_listing() {
        let k = sass_opcodes(SNIPPET, "k");
        assert_eq!(
            k,
            [
                "LDC",
                "S2R",
                "LDC.64",
                "ULDC.64",
                "SHFL.BFLY",
                "IMAD.WIDE.U32",
                "ISETP.NE.U32.AND",
                "VIADD",
                "VOTE.ALL",
                "IADD3",
                "STG.E",
                "EXIT",
            ]
        );

        let red = sass_opcodes(SNIPPET, "red");
        assert_eq!(red.len(), 38, "{red:?}");
        assert!(red.contains(&"BAR.SYNC.DEFER_BLOCKING".to_string()));
        assert!(red.contains(&"REDG.E.ADD.STRONG.GPU".to_string()));
        assert_eq!(
            count_mnemonics(&red),
            counts(&[
                ("BAR", 2),
                // The predicated loop branch; the padding self-loop is skipped.
                ("BRA", 1),
                ("CALL", 1),
                ("EXIT", 1),
                ("FADD", 1),
                ("HFMA2", 1),
                ("I2FP", 2),
                ("IMAD", 2),
                ("ISETP", 2),
                ("LDC", 2),
                ("LDS", 1),
                ("MOV", 3),
                ("REDG", 1),
                ("REDUX", 2),
                ("RET", 1),
                ("S2R", 2),
                ("S2UR", 1),
                ("SHFL", 1),
                ("STS", 1),
                ("UFLO", 1),
                ("ULDC", 2),
                ("ULEA", 1),
                ("UMOV", 1),
                ("VIADD", 2),
                ("VOTEU", 1),
                ("WARPSYNC", 2),
            ])
        );

        // Exact section names only: `re` is not a prefix match for `red`.
        assert!(sass_opcodes(SNIPPET, "re").is_empty());
        assert!(sass_opcodes(SNIPPET, "missing").is_empty());
        assert!(sass_opcodes("", "k").is_empty());
    }

    #[test]
    fn counts_by_base_mnemonic() {
        let ops: Vec<String> = ["SHFL.BFLY", "SHFL.IDX", "FADD", "BAR.SYNC.DEFER_BLOCKING"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            count_mnemonics(&ops),
            counts(&[("BAR", 1), ("FADD", 1), ("SHFL", 2)])
        );
    }

    /// Assembles [`TEST_PTX`], disassembles it and checks what ptxas made of
    /// it. Needs the `nvidia-cuda-nvcc` and `nvidia-cuda-nvdisasm` wheels.
    fn assemble_and_count(sm: u32) -> BTreeMap<String, usize> {
        let cubin = assemble(TEST_PTX, sm).expect("ptxas (pip install nvidia-cuda-nvcc)");
        assert!(cubin.starts_with(b"\x7fELF"), "a cubin is an ELF file");
        let sass = disassemble(&cubin).expect("nvdisasm (pip install nvidia-cuda-nvdisasm)");
        assert!(sass.contains(&format!(".target\tsm_{sm}")), "{sass}");
        let ops = sass_opcodes(&sass, "k");
        assert!(ops.contains(&"SHFL.BFLY".to_string()), "{ops:?}");
        assert!(ops.contains(&"VOTE.ALL".to_string()), "{ops:?}");
        count_mnemonics(&ops)
    }

    fn assert_counts(counts: &BTreeMap<String, usize>) {
        // One instruction each: ptxas 13.5 keeps the shuffle and the vote
        // inline (no `BRA.CONV` slow path here), and emits no real branch.
        for (mnemonic, n) in [("SHFL", 1), ("VOTE", 1), ("STG", 1), ("EXIT", 1)] {
            assert_eq!(counts.get(mnemonic), Some(&n), "{mnemonic} in {counts:?}");
        }
        for absent in ["BRA", "NOP", "CALL"] {
            assert_eq!(counts.get(absent), None, "{absent} in {counts:?}");
        }
    }

    #[test]
    fn assembles_and_disassembles_for_sm80() {
        assert_counts(&assemble_and_count(80));
    }

    #[test]
    fn assembles_and_disassembles_for_sm90() {
        assert_counts(&assemble_and_count(90));
    }

    #[test]
    fn assembler_errors_carry_ptxas_stderr() {
        let bad = TEST_PTX.replace("st.global.u32", "st.global.bogus");
        match assemble(&bad, 90) {
            Err(NativeError::Tool { tool, message }) => {
                assert_eq!(tool, "ptxas");
                assert!(message.contains("-arch=sm_90"), "{message}");
                assert!(message.contains("error"), "{message}");
            }
            other => panic!("expected a ptxas error, got {other:?}"),
        }
    }

    #[test]
    fn finds_the_installed_tools() {
        // The CI installs the wheels; these are the real lookups.
        for path in [ptxas_path(), nvdisasm_path(), libdevice_path()] {
            let path = path.expect("NVIDIA pip wheels installed");
            assert!(path.is_file(), "{}", path.display());
        }
    }

    #[test]
    fn env_override_naming_nothing_is_an_error() {
        let err =
            find_tool(&PTXAS, Some("/nonexistent/wavekit/ptxas".into()), &[], None).unwrap_err();
        match err {
            NativeError::Tool { tool, message } => {
                assert_eq!(tool, "ptxas");
                assert!(message.contains("WAVEKIT_PTXAS"), "{message}");
                assert!(message.contains("/nonexistent/wavekit/ptxas"), "{message}");
            }
            other => panic!("expected a tool error, got {other:?}"),
        }
    }

    #[test]
    fn missing_tool_names_its_wheel() {
        for (spec, wheel) in [
            (&PTXAS, "nvidia-cuda-nvcc"),
            (&NVDISASM, "nvidia-cuda-nvdisasm"),
            (&LIBDEVICE, "nvidia-nvvm"),
        ] {
            // An empty override counts as unset; no site-packages, empty PATH.
            let err = find_tool(spec, Some(OsString::new()), &[], Some(OsString::new()));
            match err {
                Err(NativeError::Tool { tool, message }) => {
                    assert_eq!(tool, spec.name);
                    assert!(message.contains(wheel), "{message}");
                    assert!(message.contains(spec.env), "{message}");
                }
                other => panic!("expected a tool error, got {other:?}"),
            }
        }
    }

    #[test]
    fn lookup_order_env_then_wheel_then_path() {
        let root = TempDir::new(&PTXAS).unwrap();
        let make = |rel: &str| {
            let path = root
                .path
                .join(format!("{rel}{}", std::env::consts::EXE_SUFFIX));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"#!/bin/sh\n").unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            path
        };
        let on_path = make("toolkit/bin/ptxas");
        let path_var = std::env::join_paths([root.path.join("toolkit/bin")]).ok();
        let site = [root.path.join("site")];

        // Only PATH has it.
        assert_eq!(
            find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
            on_path
        );
        // A CUDA 12 wheel beats PATH.
        let cu12 = make("site/nvidia/cuda_nvcc/bin/ptxas");
        assert_eq!(
            find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
            cu12
        );
        // A CUDA 13 wheel beats a CUDA 12 one.
        let cu13 = make("site/nvidia/cu13/bin/ptxas");
        assert_eq!(
            find_tool(&PTXAS, None, &site, path_var.clone()).unwrap(),
            cu13
        );
        // The environment variable beats everything.
        let custom = make("custom/ptxas");
        assert_eq!(
            find_tool(&PTXAS, Some(custom.clone().into()), &site, path_var).unwrap(),
            custom
        );
    }
}
