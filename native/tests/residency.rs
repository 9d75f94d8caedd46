//! `LowerOptions::min_resident_workgroups`, checked without a GPU: a
//! kernel that keeps more values live than four 256-thread workgroups leave
//! registers for takes more registers without the option, and with it the
//! code generator fits four workgroups per multiprocessor. NVPTX: the PTX
//! says `.minnctapersm 4` and `ptxas -v` reports at most 64 registers (an
//! SM's 65536 over 1024 threads); AMDGPU (gfx942, wave64): the code
//! object's VGPR count fits 4 waves per SIMD (16 waves over 4 SIMDs, 512
//! VGPRs each).

mod support;

use support::{hsaco_gfx942, ptx_sm90};
use wavekit_native::{LowerOptions, tools};

/// Values each thread keeps live: more than 64 (NVPTX) and 128 (AMDGPU)
/// registers hold.
const LIVE: usize = 160;

/// Reads `LIVE` words by atomic adds (which a code generator cannot repeat
/// later, as it may a plain load), folds their products into one word,
/// then stores every word read plus that fold: each word is live from its
/// read to its store, across the whole fold.
fn source() -> String {
    let mut text = String::from(
        "@group(0) @binding(0) var<storage, read_write> data: array<atomic<u32>>;\n\
         @compute @workgroup_size(256)\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n",
    );
    text += &format!("    let base = id.x * {LIVE}u;\n");
    for i in 0..LIVE {
        text += &format!("    let a{i} = atomicAdd(&data[base + {i}u], 1u);\n");
    }
    text += "    var fold = 0u;\n";
    for i in 0..LIVE {
        let j = (i * 37 + 11) % LIVE;
        text += &format!("    fold = (fold ^ (a{i} * a{j})) + (fold >> 3u);\n");
    }
    for i in 0..LIVE {
        text += &format!(
            "    atomicStore(&data[base + {i}u], a{} + fold);\n",
            (i * 7 + 3) % LIVE
        );
    }
    text + "}\n"
}

fn options(min_resident: Option<u32>) -> LowerOptions {
    LowerOptions {
        min_resident_workgroups: min_resident,
        ..LowerOptions::default()
    }
}

/// The PTX and `ptxas -v`'s registers of the kernel.
fn ptx(min_resident: Option<u32>) -> (String, u32) {
    let ptx = ptx_sm90(&source(), "residency.wgsl", options(min_resident));
    let usage = tools::resource_usage(&ptx.text, 90).unwrap_or_else(|e| panic!("{e}"));
    let registers = usage[&ptx.entry].registers;
    (ptx.text, registers)
}

#[test]
fn nvptx_fits_the_resident_workgroups_asked_for() {
    let (free, free_registers) = ptx(None);
    let (bound, bound_registers) = ptx(Some(4));
    assert!(!free.contains(".minnctapersm"), "{free}");
    assert!(bound.contains(".minnctapersm 4"), "{bound}");
    assert!(
        free_registers > 64,
        "the kernel should need more than 64 registers unbounded, not {free_registers}"
    );
    assert!(
        bound_registers <= 64,
        "four 256-thread blocks per SM leave 64 registers, not {bound_registers}"
    );
}

/// The `.vgpr_count` of the kernel's code object metadata.
fn amdgpu_vgprs(min_resident: Option<u32>) -> u32 {
    let hsaco = hsaco_gfx942(&source(), options(min_resident));
    let notes = tools::amdgpu_notes(&hsaco.bytes).unwrap_or_else(|e| panic!("{e}"));
    let line = notes
        .lines()
        .find(|line| line.trim_start().starts_with(".vgpr_count:"))
        .unwrap_or_else(|| panic!("no .vgpr_count in\n{notes}"));
    line.split(':')
        .nth(1)
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("a count in `{line}`"))
}

#[test]
fn amdgpu_fits_the_resident_workgroups_asked_for() {
    let free = amdgpu_vgprs(None);
    let bound = amdgpu_vgprs(Some(4));
    assert!(
        free > 128,
        "the kernel should need more than 128 VGPRs unbounded, not {free}"
    );
    assert!(
        bound <= 128,
        "4 waves per SIMD leave 128 VGPRs, not {bound}"
    );
}
