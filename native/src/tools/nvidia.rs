//! NVIDIA's offline tools: `ptxas`, `nvdisasm` and libdevice, and reading
//! what they report (SASS opcodes, resource usage).
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
//! They are found through `WAVEKIT_PTXAS`, `WAVEKIT_NVDISASM` and
//! `WAVEKIT_LIBDEVICE`, then the wheels' layout under Python's
//! site-packages (`nvidia/cu13/...` for CUDA 13 wheels,
//! `nvidia/cuda_nvcc/...` and `nvidia/cuda_nvdisasm/...` for CUDA 12 ones),
//! then `PATH`.
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
use std::path::PathBuf;

use super::{PathLookup, TempDir, ToolSpec, locate, run};
use crate::error::NativeError;

pub(super) const PTXAS: ToolSpec = ToolSpec {
    name: "ptxas",
    env: "WAVEKIT_PTXAS",
    wheel_paths: &["nvidia/cu13/bin/ptxas", "nvidia/cuda_nvcc/bin/ptxas"],
    path_lookup: PathLookup::Executable("ptxas"),
    install_hint: "pip install nvidia-cuda-nvcc",
};

pub(super) const NVDISASM: ToolSpec = ToolSpec {
    name: "nvdisasm",
    env: "WAVEKIT_NVDISASM",
    wheel_paths: &[
        "nvidia/cu13/bin/nvdisasm",
        "nvidia/cuda_nvdisasm/bin/nvdisasm",
    ],
    path_lookup: PathLookup::Executable("nvdisasm"),
    install_hint: "pip install nvidia-cuda-nvdisasm",
};

pub(super) const LIBDEVICE: ToolSpec = ToolSpec {
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
/// unknown function gives an empty list. For many functions of one
/// listing, [`sass_functions`] reads it once.
pub fn sass_opcodes(sass: &str, function: &str) -> Vec<String> {
    sass_functions(sass).remove(function).unwrap_or_default()
}

/// Every function's opcodes in [`disassemble`]'s output, by function name
/// (the `NAME` of each `.text.NAME` section), as [`sass_opcodes`] gives
/// them, in one pass over the listing.
pub fn sass_functions(sass: &str) -> BTreeMap<String, Vec<String>> {
    let mut functions = BTreeMap::new();
    // The section being read: its function's name and opcodes, the label
    // directly before the current instruction (to spot the self-loop:
    // `.L_x_4:` then `BRA `(.L_x_4);`) and where self-loops were.
    let mut current: Option<(&str, Vec<String>)> = None;
    let mut label: Option<&str> = None;
    let mut self_loops = Vec::new();
    let mut finish = |section: Option<(&str, Vec<String>)>, self_loops: &mut Vec<usize>| {
        if let Some((name, mut opcodes)) = section {
            // Only drop a self-loop that ends the function: one in the
            // middle would be a real (if odd) infinite loop.
            if self_loops.last().is_some_and(|&i| i + 1 == opcodes.len()) {
                opcodes.pop();
            }
            functions
                .entry(name.to_string())
                .or_insert_with(Vec::new)
                .extend(opcodes);
        }
        self_loops.clear();
    };

    for raw in sass.lines() {
        let line = raw.trim();
        if line.starts_with("//-----") {
            // nvdisasm's banner before every section (and before SYMBOLS).
            finish(current.take(), &mut self_loops);
            continue;
        }
        // `.section NAME,...` starts a section; match the whole directive
        // word, since sm_80 listings follow it with `.sectioninfo`.
        if let Some(rest) = line.strip_prefix(".section")
            && rest.starts_with(char::is_whitespace)
        {
            finish(current.take(), &mut self_loops);
            let name = rest.split_whitespace().next().unwrap_or("");
            current = name
                .split(',')
                .next()
                .and_then(|section| section.strip_prefix(".text."))
                .map(|function| (function, Vec::new()));
            label = None;
            continue;
        }
        let Some((_, opcodes)) = current.as_mut() else {
            continue;
        };
        if line.is_empty() {
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
                log::debug!("sass_functions: skipping unrecognised line {line:?}");
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
    finish(current.take(), &mut self_loops);
    functions
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

#[cfg(test)]
mod tests;
