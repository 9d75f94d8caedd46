//! External tools the static checks run, and how they are found and run.
//!
//! wavekit assembles the code it generates and reads the machine code back
//! ("does this reduction really become one `REDUX.SUM`?"): NVIDIA's
//! `ptxas`, `nvdisasm` and libdevice for the CUDA target (re-exported from
//! the `nvidia` part), LLVM's `ld.lld`, `llvm-objdump` and `llvm-readelf`
//! for the AMDGPU one (from the `llvm` part). Neither needs a GPU.
//!
//! Each tool is looked up, in order, from
//! 1. its environment variable (`WAVEKIT_PTXAS`, `WAVEKIT_NVDISASM`,
//!    `WAVEKIT_LIBDEVICE`, `WAVEKIT_LD_LLD`, `WAVEKIT_LLVM_OBJDUMP`,
//!    `WAVEKIT_LLVM_READELF`), which must then name an existing file;
//! 2. for NVIDIA's tools, the pip wheels' layout under Python's
//!    site-packages;
//! 3. `PATH` (for libdevice: `<dir on PATH>/../nvvm/libdevice/`, the layout of
//!    a CUDA toolkit whose `bin` is on `PATH`).
//!
//! Every run gets a scratch directory of its own, removed afterwards, and a
//! failing tool's error carries its output.

mod llvm;
mod nvidia;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::NativeError;

pub use llvm::{amdgpu_disassemble, amdgpu_functions, amdgpu_mnemonics, amdgpu_notes, link_hsaco};
pub use nvidia::{
    ResourceUsage, assemble, count_mnemonics, disassemble, libdevice_path, nvdisasm_path,
    ptxas_path, resource_usage, sass_functions, sass_opcodes,
};

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
#[cfg(test)]
mod tests;
