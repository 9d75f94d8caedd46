//! Tests of the code-object checks: hand-made ELFs and offload bundles,
//! each malformation caught, and (where LLVM's `llc` and `ld.lld` are
//! installed) a real code object accepted with its kernels listed. The
//! images are shared with the HIP tests.

use std::env;

use super::*;

/// A minimal AMDGPU ELF64: a header, one `PT_LOAD` segment and two
/// sections (null and one 8-byte `PROGBITS`).
pub(crate) fn tiny_elf() -> Vec<u8> {
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
pub(crate) fn bundle(code: &[u8], claimed_size: u64) -> Vec<u8> {
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

/// Adds 1 to every u32 of buffer 0 (one thread per element, bounds
/// checked against the byte length) and stores the thread count (the
/// dispatch packet's grid size) in buffer 1: [`crate::driver::add_one`]'s kernel.
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
pub(crate) fn find_tool(names: &[&str]) -> Option<String> {
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
pub(crate) fn compile_add_one(arch: &str) -> Option<Vec<u8>> {
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
