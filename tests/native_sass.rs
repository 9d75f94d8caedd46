//! SASS budgets of the native CUDA back end, checked without a GPU: for
//! every catalog op (a representative instance under each lowering), the
//! PTX is assembled by ptxas for sm_80 and sm_90 and disassembled by
//! nvdisasm, and the warp-level and arithmetic instructions it adds to an
//! empty kernel are compared with `tests/data/sass_budgets.tsv`.
//!
//! After a deliberate change, `WAVEKIT_BLESS_SASS=1 cargo test --test
//! native_sass` rewrites the table; review its diff like code.

use std::collections::BTreeMap;

mod support;

use wavekit::conformance;
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target, ValidModule};
use wavekit_native::nvptx::{KernelRequest, compile_many};
use wavekit_native::tools;

/// The instructions the budgets track: warp-level ones, barriers, shared
/// atomics and floating-point arithmetic (integer arithmetic moves with
/// every ptxas scheduling decision, these do not).
const TRACKED: [&str; 14] = [
    "SHFL", "VOTE", "REDUX", "MATCH", "BAR", "WARPSYNC", "MEMBAR", "ATOMS", "FADD", "FMUL",
    "FMNMX", "DADD", "DMUL", "HADD2",
];
const SMS: [u32; 2] = [80, 90];
const TABLE: &str = "tests/data/sass_budgets.tsv";

fn cuda_target() -> Target {
    let mut target = Target::new(Backend::Cuda, SubgroupSize::fixed(32).expect("32 lanes"));
    target.scalars = ScalarFeatures::ALL;
    target
}

/// The compile requests of named conformance kernels (entry `wk_conf_main`).
fn requests<'a>(kernels: &'a [(String, &'a ValidModule)]) -> Vec<KernelRequest<'a>> {
    kernels
        .iter()
        .map(|(name, module)| KernelRequest {
            module: &module.module,
            info: &module.info,
            entry: "wk_conf_main",
            name,
            source: None,
        })
        .collect()
}

/// Tracked mnemonic counts of every kernel, compiled as one PTX module
/// for `sm`: one ptxas and one nvdisasm run (nvdisasm alone takes most of
/// a second to start).
fn counts(
    kernels: &[(String, &ValidModule)],
    sm: u32,
) -> Result<Vec<BTreeMap<String, i64>>, String> {
    let (ptx, _) = compile_many(&requests(kernels), sm).map_err(|e| e.to_string())?;
    let cubin = tools::assemble(&ptx, sm).map_err(|e| e.to_string())?;
    let sass = tools::disassemble(&cubin).map_err(|e| e.to_string())?;
    let functions = tools::sass_functions(&sass);
    Ok(kernels
        .iter()
        .map(|(name, _)| {
            tools::count_mnemonics(functions.get(name).map_or(&[][..], Vec::as_slice))
                .into_iter()
                .filter(|(m, _)| TRACKED.contains(&m.as_str()))
                .map(|(m, n)| (m, n as i64))
                .collect()
        })
        .collect())
}

/// Table rows (`sm_90<TAB>instance<TAB>lowering<TAB>SHFL=5 FADD=5`) for
/// every representative kernel, one thread per SM.
fn measure() -> Result<Vec<String>, String> {
    let kernels = conformance::representative_kernels(&cuda_target()).map_err(|e| e.to_string())?;
    let batch = support::Batch::new(&kernels);
    let all: Vec<(String, &ValidModule)> = batch
        .names
        .iter()
        .cloned()
        .zip(batch.modules.iter().copied())
        .collect();
    let per_sm: Vec<Result<Vec<BTreeMap<String, i64>>, String>> = std::thread::scope(|scope| {
        let all = &all;
        let handles: Vec<_> = SMS
            .iter()
            .map(|sm| scope.spawn(move || counts(all, *sm)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let mut rows = Vec::new();
    for (sm, counts) in SMS.iter().zip(per_sm) {
        rows.extend(batch.rows(&format!("sm_{sm}"), &counts?));
    }
    Ok(rows)
}

#[test]
fn every_catalog_op_meets_its_sass_budget() {
    let rows = measure().unwrap_or_else(|e| panic!("{e}"));
    support::check_table(
        &rows,
        TABLE,
        "# sm\tinstance\tlowering\tSASS instructions over an empty kernel \
         (ptxas/nvdisasm 13.5.37; `-` = none)",
        "WAVEKIT_BLESS_SASS",
    );
}

/// The budgets the issue names, spelled out: the table must keep them.
#[test]
fn the_named_budgets_hold() {
    support::assert_rows(
        TABLE,
        &[
            (
                "sm_90",
                "reduce_add_tiled<f32, 5>",
                "shuffle",
                "FADD=5 SHFL=5",
            ),
            (
                "sm_80",
                "reduce_add_tiled<f32, 5>",
                "shuffle",
                "FADD=5 SHFL=5",
            ),
            ("sm_90", "all_true", "builtin", "VOTE=1"),
            ("sm_90", "reduce_add<u32>", "builtin", "REDUX=1"),
            ("sm_80", "reduce_add<u32>", "builtin", "REDUX=1"),
            (
                "sm_90",
                "bitonic_sort_kv_tiled<f32, u32, 5>",
                "shuffle",
                "SHFL=30",
            ),
            ("sm_90", "all_equal<u32>", "builtin", "MATCH=1"),
            ("sm_90", "match_any<u32>", "builtin", "MATCH=1"),
            ("sm_90", "block::sync_count_nonzero", "builtin", "BAR=3"),
        ],
    );
}

/// The fused bodies of the NVPTX layer (`native/src/nvptx/fused.rs`), by
/// their full SASS mnemonics: each block vote of the case (called twice)
/// is a `BAR.RED` and no shared atomic is left; `match_any` is one
/// `MATCH.ANY` and no ballot loop. And the device fence is the
/// acquire-release `MEMBAR.ALL.GPU`, never the sequentially consistent
/// `MEMBAR.SC.GPU` of `membar.gl`.
#[test]
fn the_fused_bodies_reach_sass() {
    let representatives = conformance::representative_kernels(&cuda_target()).unwrap();
    let expected = [
        ("block::sync_all_nonzero", "BAR.RED.AND"),
        ("block::sync_any_nonzero", "BAR.RED.OR"),
        ("block::sync_count_nonzero", "BAR.RED.POPC"),
        ("match_any<u32>", "MATCH.ANY"),
        ("match_any<f32>", "MATCH.ANY"),
        ("grid::mem_fence", "MEMBAR.ALL.GPU"),
    ];
    let kernels: Vec<(String, &ValidModule)> = expected
        .iter()
        .map(|(instance, _)| {
            let kernel = representatives
                .kernels
                .iter()
                .find(|k| k.instance == *instance)
                .unwrap_or_else(|| panic!("no representative kernel for {instance}"));
            (
                format!("fused_{}", instance.replace([':', '<', '>'], "_")),
                &kernel.module,
            )
        })
        .collect();
    let requests = requests(&kernels);
    for sm in SMS {
        let (ptx, _) = compile_many(&requests, sm).unwrap();
        let sass = tools::disassemble(&tools::assemble(&ptx, sm).unwrap()).unwrap();
        let functions = tools::sass_functions(&sass);
        for ((name, _), (instance, mnemonic)) in kernels.iter().zip(expected) {
            let opcodes = functions.get(name).cloned().unwrap_or_default();
            let fused = opcodes.iter().filter(|o| o.starts_with(mnemonic)).count();
            let calls = if instance.starts_with("block::") {
                2
            } else {
                1
            };
            assert_eq!(fused, calls, "sm_{sm} {instance}: {opcodes:?}");
            for absent in ["ATOMS", "VOTE", "MEMBAR.SC"] {
                assert!(
                    !opcodes.iter().any(|o| o.starts_with(absent)),
                    "sm_{sm} {instance} still has {absent}: {opcodes:?}"
                );
            }
        }
    }
}
