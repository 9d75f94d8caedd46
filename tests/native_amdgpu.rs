//! The native AMDGPU back end, statically (no AMD GPU here): for all five
//! architectures and both RDNA wave sizes (gfx1200 at wave32 only: its
//! wave64 code is gfx1100's), a representative instance of
//! every catalog op (each lowering) is compiled into a code object, linked
//! by `ld.lld`, checked with `llvm-readelf` (kernels, wave size, LDS) and
//! disassembled with `llvm-objdump`; the cross-lane, barrier and
//! cache-maintenance instructions each instance adds to an empty kernel are compared with
//! `tests/data/amdgpu_budgets.tsv`.
//!
//! After a deliberate change, `WAVEKIT_BLESS_AMDGPU=1 cargo test --test
//! native_amdgpu` rewrites the table; review its diff like code.

use std::collections::BTreeMap;

mod support;

use wavekit::conformance::{self, Representatives};
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target};
use wavekit_native::amdgpu::{Amdgpu, Arch, compile_many};
use wavekit_native::lower::KernelRequest;
use wavekit_native::tools;

const TABLE: &str = "tests/data/amdgpu_budgets.tsv";

/// Every (architecture, wave size) compiled, but gfx1200 at wave64: its
/// cross-lane code is gfx1100's (both gfx11+, `v_permlane64_b32` across
/// the halves; `Gather` in wavekit_native::amdgpu), and each configuration
/// cost `make test` about 18 s of LLVM on 2 cores. gfx1200 runs at wave32.
fn configurations() -> Vec<Amdgpu> {
    Arch::ALL
        .into_iter()
        .flat_map(|arch| {
            arch.wave_sizes()
                .iter()
                .filter(move |w| !(arch == Arch::Gfx1200 && **w == 64))
                .map(move |w| Amdgpu::new(arch, *w).expect("a supported wave size"))
        })
        .collect()
}

fn label(target: &Amdgpu) -> String {
    format!("{}-w{}", target.arch.name(), target.wave_size)
}

/// The instructions the budgets track, by normalised mnemonic.
fn tracked(mnemonic: &str) -> Option<String> {
    let base = mnemonic
        .strip_suffix("_e32")
        .or_else(|| mnemonic.strip_suffix("_e64"))
        .unwrap_or(mnemonic);
    if base.ends_with("_dpp") {
        return Some("dpp".into());
    }
    if base.starts_with("v_cmp_") || base.starts_with("v_cmpx_") {
        return Some("v_cmp".into());
    }
    [
        "ds_bpermute_b32",
        "ds_permute_b32",
        "v_permlane64_b32",
        "v_cndmask_b32",
        "v_readlane_b32",
        "v_readfirstlane_b32",
        "v_writelane_b32",
        "s_barrier",
        // Cache maintenance: what an agent-scope fence costs (a workgroup
        // or wavefront fence needs none).
        "buffer_wbl2",
        "buffer_invl2",
        "buffer_wbinvl1_vol",
        "buffer_inv",
        "buffer_gl0_inv",
        "buffer_gl1_inv",
        "global_inv",
        "global_wb",
        "ds_swizzle_b32",
    ]
    .contains(&base)
    .then(|| base.to_string())
}

fn wave_target(wave: u32) -> Target {
    let mut target = Target::new(
        Backend::Hip,
        SubgroupSize::fixed(wave).expect("a wave size"),
    );
    target.scalars = ScalarFeatures::ALL;
    target
}

/// Rows for one configuration: one code object holding every kernel.
fn rows(target: Amdgpu, representatives: &Representatives) -> Result<Vec<String>, String> {
    let batch = support::Batch::new(representatives);
    let requests: Vec<KernelRequest> = batch
        .modules
        .iter()
        .zip(&batch.names)
        .map(|(module, name)| KernelRequest {
            module: &module.module,
            info: &module.info,
            entry: "wk_conf_main",
            name,
            source: None,
        })
        .collect();
    let what = label(&target);
    let hsaco = compile_many(&requests, target).map_err(|e| format!("{what}: {e}"))?;
    let notes = tools::amdgpu_notes(&hsaco.bytes).map_err(|e| format!("{what}: {e}"))?;
    for name in &batch.names {
        if !notes.contains(&format!("{name}.kd")) {
            return Err(format!("{what}: no kernel descriptor for {name}"));
        }
    }
    if !notes.contains(&format!(".wavefront_size: {}", target.wave_size)) {
        return Err(format!(
            "{what}: the notes do not say .wavefront_size: {}",
            target.wave_size
        ));
    }
    if !notes.contains("AMDGPU - HSA") || !notes.contains(".group_segment_fixed_size") {
        return Err(format!("{what}: not an HSA code object:\n{notes}"));
    }
    let disassembly = tools::amdgpu_disassemble(&hsaco.bytes, target.arch.name())
        .map_err(|e| format!("{what}: {e}"))?;
    let functions = tools::amdgpu_functions(&disassembly);
    let counts: Vec<BTreeMap<String, i64>> = batch
        .names
        .iter()
        .map(|name| {
            let mut counts = BTreeMap::new();
            for mnemonic in functions.get(name).into_iter().flatten() {
                if let Some(m) = tracked(mnemonic) {
                    *counts.entry(m).or_default() += 1;
                }
            }
            counts
        })
        .collect();
    Ok(batch.rows(&what, &counts))
}

fn measure() -> Result<Vec<String>, String> {
    let by_wave: BTreeMap<u32, Representatives> = [32, 64]
        .into_iter()
        .map(|w| {
            conformance::representative_kernels(&wave_target(w))
                .map(|k| (w, k))
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    let configurations = configurations();
    let results: Vec<Result<Vec<String>, String>> = std::thread::scope(|scope| {
        let by_wave = &by_wave;
        let configurations = &configurations;
        let workers: Vec<_> = (0..2)
            .map(|worker| {
                scope.spawn(move || {
                    configurations
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % 2 == worker)
                        .map(|(i, c)| (i, rows(*c, &by_wave[&c.wave_size])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut rows = Vec::new();
    for result in results {
        rows.extend(result?);
    }
    Ok(rows)
}

#[test]
fn every_catalog_op_builds_for_every_architecture_within_budget() {
    let rows = measure().unwrap_or_else(|e| panic!("{e}"));
    support::check_table(
        &rows,
        TABLE,
        "# target\tinstance\tlowering\tcross-lane, barrier and cache instructions over an empty kernel \
         (LLVM 19 llvm-objdump; `-` = none)",
        "WAVEKIT_BLESS_AMDGPU",
    );
}

/// The sequences the issue names, spelled out: the table must keep them.
#[test]
fn the_named_sequences_hold() {
    let cross_half = "ds_bpermute_b32=2 v_cmp=1 v_cndmask_b32=1 v_permlane64_b32=1";
    support::assert_rows(
        TABLE,
        &[
            ("gfx1100-w64", "shuffle<u32>", "builtin", cross_half),
            ("gfx942-w64", "shuffle<u32>", "builtin", "ds_bpermute_b32=1"),
            ("gfx90a-w64", "shuffle<u32>", "builtin", "ds_bpermute_b32=1"),
            (
                "gfx1100-w32",
                "shuffle<u32>",
                "builtin",
                "ds_bpermute_b32=1",
            ),
            ("gfx942-w64", "ballot", "builtin", "v_cmp=1"),
            // The agent-scope fence writes back and invalidates L2 lines
            // on gfx942; the wavefront-scope one (sg::mem_fence) costs
            // nothing over the case's workgroup-memory barrier.
            (
                "gfx942-w64",
                "grid::mem_fence",
                "builtin",
                "buffer_inv=1 buffer_wbl2=1 s_barrier=1 v_cmp=1",
            ),
            ("gfx942-w64", "mem_fence", "builtin", "s_barrier=1 v_cmp=1"),
            (
                "gfx1030-w64",
                "broadcast<u32>",
                "builtin",
                "v_readlane_b32=1",
            ),
            (
                "gfx1100-w64",
                "broadcast_first<u32>",
                "builtin",
                "v_readfirstlane_b32=1",
            ),
        ],
    );
}
