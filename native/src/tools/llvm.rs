//! LLVM's tools for the AMDGPU target: `ld.lld` links an object into a
//! loadable code object (HSACO), `llvm-objdump` disassembles it and
//! `llvm-readelf` shows its notes; [`amdgpu_mnemonics`] reads one kernel's
//! instructions back. Found as `ld.lld-19`, `llvm-objdump-19` and
//! `llvm-readelf-19` on `PATH` (Debian's LLVM 19 packages) unless
//! `WAVEKIT_LD_LLD`, `WAVEKIT_LLVM_OBJDUMP` or `WAVEKIT_LLVM_READELF` say
//! otherwise.

use std::collections::BTreeMap;

use super::{PathLookup, TempDir, ToolSpec, locate, run};
use crate::error::NativeError;

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
/// output (`ds_bpermute_b32`, `v_cndmask_b32_e64`, `s_endpgm`, ...). For
/// many functions of one listing, [`amdgpu_functions`] reads it once.
pub fn amdgpu_mnemonics(disassembly: &str, function: &str) -> Vec<String> {
    amdgpu_functions(disassembly)
        .remove(function)
        .unwrap_or_default()
}

/// Every function's mnemonics in [`amdgpu_disassemble`]'s output, by
/// function name (each `<NAME>:` header), as [`amdgpu_mnemonics`] gives
/// them, in one pass over the listing.
pub fn amdgpu_functions(disassembly: &str) -> BTreeMap<String, Vec<String>> {
    let mut functions = BTreeMap::new();
    // The function being read, until an empty line or the next header; a
    // name listed twice keeps its first body.
    let mut current: Option<(&str, Vec<String>)> = None;
    let mut finish = |current: Option<(&str, Vec<String>)>| {
        if let Some((name, mnemonics)) = current {
            functions.entry(name.to_string()).or_insert(mnemonics);
        }
    };
    for line in disassembly.lines() {
        let trimmed = line.trim();
        if let Some(head) = trimmed.strip_suffix(">:") {
            finish(current.take());
            current = head.rsplit_once('<').map(|(_, name)| (name, Vec::new()));
        } else if trimmed.is_empty() {
            finish(current.take());
        } else if let Some((_, mnemonics)) = current.as_mut()
            && let Some(mnemonic) = trimmed.split_whitespace().next()
            && !mnemonic.starts_with("//")
            && mnemonic != "s_code_end"
        {
            mnemonics.push(mnemonic.to_string());
        }
    }
    finish(current);
    functions
}
