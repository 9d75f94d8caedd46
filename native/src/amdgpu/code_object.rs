//! AMDGPU code objects as the HIP runtime takes them: just enough ELF and
//! clang offload-bundle reading to check that a loader reading an image in
//! place stays inside it ([`check_image`]), and to list its kernels in
//! errors ([`image_kernels`]).
//!
//! A code object is a little-endian ELF64 for AMDGPU (machine 224), as
//! `ld.lld -shared` writes it, or an uncompressed clang offload bundle
//! (`hipcc --genco`) of such ELFs. Compressed (`CCOB`) bundles are refused:
//! their contents cannot be checked without decompressing them.

use std::ffi::CStr;

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

/// Why `image` cannot be handed to a loader that reads it in place
/// (`hipModuleLoadData`, which takes no size), completing "the code object
/// ...": it must be an AMDGPU ELF64 whose headers, sections and segments
/// lie within it, or an uncompressed offload bundle whose entries do.
pub fn check_image(image: &[u8]) -> Result<(), String> {
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

/// The kernels a code object (an ELF or an offload bundle) defines, for "no
/// such kernel" errors: the names of its kernel descriptor symbols
/// (`name.kd`) without the suffix. Tolerates malformed input (returns fewer
/// names).
pub fn image_kernels(image: &[u8]) -> Vec<String> {
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
pub(crate) mod tests;
