//! Machine-code budgets of the demos' hot kernels on the native CUDA back
//! end, checked without a GPU: each kernel is composed for CUDA (32 lanes,
//! the native tile shapes), lowered to PTX for sm_90 with the options it is
//! built with (the OneSweep kernels without bounds checks, as
//! `wavekit::device` and the demos build them on CUDA), assembled by `ptxas
//! -v` (registers, stack frame, spills, shared memory) and disassembled by
//! `nvdisasm` (local-memory accesses and the warp-level, barrier and atomic
//! instructions), and compared with `tests/data/kernel_budgets.tsv`. A
//! private array that falls out of registers (a stack frame, `LDL`/`STL`)
//! or a kernel that grows shows up here before it shows up on the H100.
//!
//! After a deliberate change, `WAVEKIT_BLESS_SASS=1 cargo test -p
//! wavekit-demos --test kernel_budgets` rewrites the table; review its diff
//! like code (and measure the change on the H100: `bench/focus-run.sh`).
//! `WAVEKIT_SASS_OUT=FILE` also writes the whole disassembly there, to read
//! the instructions behind a row, and `WAVEKIT_PTX_OUT=FILE` the PTX that
//! was assembled (what the CUDA driver's JIT compiles on the GPU).

#[path = "../../tests/support/mod.rs"]
#[allow(dead_code)]
mod support;

use wavekit::compose::Composer;
use wavekit::device::shaders::writable;
use wavekit::{Backend, ScalarFeatures, SubgroupSize, Target};
use wavekit_demos::harness::edited;
use wavekit_demos::radix_sort::onesweep::{self, PassConfig, Shape};
use wavekit_native::nvptx::{KernelRequest, compile_many_with};
use wavekit_native::tools;
use wavekit_native::{BoundsChecks, LowerOptions};

const SM: u32 = 90;
const TABLE: &str = "tests/data/kernel_budgets.tsv";
/// The SASS instructions counted: local memory, warp-level operations,
/// barriers, shared atomics, and all of them.
const TRACKED: [&str; 6] = ["LDL", "STL", "VOTE", "SHFL", "BAR", "ATOMS"];
/// TopK's entry points (`TopK::new` compiles each).
const TOP_K_ENTRIES: [&str; 3] = ["init", "select_pass", "finish_pass"];

/// A demo kernel: shader file, host edits, entry point, and a label.
struct DemoKernel {
    file: &'static str,
    source: String,
    entry: &'static str,
    label: String,
    /// How it is lowered.
    lower: LowerOptions,
}

fn kernels() -> Vec<DemoKernel> {
    // As wavekit::device builds them on CUDA: the plain look-back, without
    // the fallback's branch (`Context::needs_fallback`).
    let plain_look_back = ("const FALLBACK = true;", "const FALLBACK = false;");
    let plain = |file: &'static str, source: &str, entry: &'static str| DemoKernel {
        file,
        source: edited(source, file, &[plain_look_back]).expect("the host's edits apply"),
        entry,
        label: "-".into(),
        lower: LowerOptions::default(),
    };
    let mut all = vec![plain(
        "scan.wgsl",
        &wavekit::device::shaders::source("scan.wgsl").expect("a device shader"),
        "scan_lookback_plain",
    )];
    // The compaction as wavekit::device builds it on CUDA (`compaction.rs`):
    // the selections (Unique among them) 256 x 16 for 5 workgroups an SM
    // (`SELECT_RESIDENT`), the partition (both sides written) 256 x 20 for
    // 4 (`PARTITION_RESIDENT`).
    let compact = wavekit::device::shaders::source("compact.wgsl").expect("a device shader");
    for (partition, unique, items, label, resident) in [
        (false, false, 16, "-", 5),
        (false, true, 16, "unique", 5),
        (true, false, 20, "partition 256x20", 4),
    ] {
        let source = edited(
            &compact,
            "compact.wgsl",
            &[
                plain_look_back,
                (
                    "const PARTITION = false;",
                    &format!("const PARTITION = {partition};"),
                ),
                ("const ITEMS = 16u;", &format!("const ITEMS = {items}u;")),
                (
                    "const UNIQUE = false;",
                    &format!("const UNIQUE = {unique};"),
                ),
            ],
        )
        .expect("the host's edits apply");
        all.push(DemoKernel {
            file: "compact.wgsl",
            source,
            entry: "select_lookback_plain",
            label: label.into(),
            lower: LowerOptions {
                min_resident_workgroups: Some(resident),
                ..LowerOptions::default()
            },
        });
    }
    // Scan::with_operator's single pass as it builds on CUDA for the
    // inclusive u32 max (`scan.rs`): the sum's vec4 tiles with the
    // operator combined in tile order (`SUM` false, the look-back's
    // `ORDERED_WINDOW`), the look-back's own switch without the fallback.
    let scan_max = edited(
        &wavekit::device::shaders::source("scan.wgsl").expect("a device shader"),
        "scan.wgsl",
        &[
            plain_look_back,
            ("const SUM = true;", "const SUM = false;"),
            (
                "const ORDERED_WINDOW = false;",
                "const ORDERED_WINDOW = true;",
            ),
            ("const INCLUSIVE = false;", "const INCLUSIVE = true;"),
            (
                "fn scan_op(a: T, b: T) -> T { return a + b; }",
                "fn scan_op(a: T, b: T) -> T { return max(a, b); }",
            ),
        ],
    )
    .expect("the host's edits apply");
    all.push(DemoKernel {
        file: "scan.wgsl",
        source: scan_max,
        entry: "scan_lookback",
        label: "u32 max".into(),
        lower: LowerOptions::default(),
    });
    // The by-key kernels as ReduceByKey and ScanByKey build them on CUDA
    // for u32 keys and values under `+` (the shader's defaults), with the
    // window walk (`Context::look_back_params`) and the block scan in
    // workgroup memory, without bounds checks (`Context::pipelines_proven`):
    // the reduction 20 a thread with its run ends stashed (`STASHED_ENDS`)
    // and its full tiles loaded as lane-striped quads (`STRIPED`),
    // the scan 12 a thread, full tiles loaded as vec4s (`QUADS`).
    for (entry, items, lower, striped) in [
        ("reduce_by_key", 20, BoundsChecks::Unchecked.into(), true),
        ("scan_by_key", 12, BoundsChecks::Unchecked.into(), false),
    ] {
        let source = edited(
            &wavekit::device::shaders::source("by_key.wgsl").expect("a device shader"),
            "by_key.wgsl",
            &[
                plain_look_back,
                ("const WINDOW = false;", "const WINDOW = true;"),
                ("const ITEMS = 8u;", &format!("const ITEMS = {items}u;")),
                ("const STASHED_ENDS = false;", "const STASHED_ENDS = true;"),
                (
                    "const STRIPED = false;",
                    &format!("const STRIPED = {striped};"),
                ),
            ],
        )
        .expect("the host's edits apply");
        all.push(DemoKernel {
            file: "by_key.wgsl",
            source,
            entry,
            label: format!("256x{items}"),
            lower,
        });
    }
    // RadixSort's one-workgroup sort as wavekit::device builds it on CUDA
    // (`radix_sort/tile.rs`): u32 keys over all 32 bits, 256 x 5, bounds
    // clamped (`Context::pipelines`).
    let tile = wavekit::device::shaders::source("radix_tile.wgsl").expect("a device shader");
    for entry in ["sort_keys", "sort_pairs"] {
        all.push(DemoKernel {
            file: "radix_tile.wgsl",
            source: tile.clone(),
            entry,
            label: "256x5".into(),
            lower: LowerOptions::default(),
        });
    }
    // FixedSegmentedSort's kernel as wavekit::device builds it on CUDA for
    // f32 pairs (`fixed_segmented_sort.rs`): segments of 16 and 32, four
    // elements a thread (GRAIN) and its network, one group a workgroup.
    let contact = wavekit::device::shaders::source("contact_sort.wgsl").expect("a device shader");
    for (label, log2_seg, log2_tile) in [("seg16 grain4", 4, 2), ("seg32 grain4", 5, 3)] {
        all.push(DemoKernel {
            file: "contact_sort.wgsl",
            source: contact
                .replace(
                    "const LOG2_SEG = 5u;",
                    &format!("const LOG2_SEG = {log2_seg}u;"),
                )
                .replace(
                    "const LOG2_TILE = 5u;",
                    &format!("const LOG2_TILE = {log2_tile}u;"),
                )
                .replace("const GRAIN = 1u;", "const GRAIN = 4u;")
                .replace(
                    "fn sort_grains(q: u32, g: Grains) -> Grains { return g; }",
                    &wavekit::device::shaders::grain_network(1 << log2_seg, 4).expect("a network"),
                ),
            entry: "main",
            label: label.into(),
            lower: LowerOptions::default(),
        });
    }
    // SegmentedSort's short segments as wavekit::device builds them on CUDA
    // for f32 pairs (`segmented_sort.rs`): 8 pairs a lane, its network with
    // the subgroup's skips.
    let segmented =
        wavekit::device::shaders::source("segmented_sort.wgsl").expect("a device shader");
    let source = edited(
        &segmented,
        "segmented_sort.wgsl",
        &[
            ("const KEY_ORDER = 0u;", "const KEY_ORDER = 2u;"),
            (
                "fn sort_segment_grains(q: u32, lanes: u32, widest: u32, g: Grains) -> Grains { return looped_segment_grains(q, lanes, g); }",
                &wavekit::device::shaders::segmented_network(8, true).expect("a network"),
            ),
            (
                "fn subgroup_sorts(mine: bool) -> bool { return true; }",
                "fn subgroup_sorts(mine: bool) -> bool { return sg::any_true(mine); }",
            ),
            (
                "fn subgroup_widest(lanes: u32) -> u32 { return SHORT_LIMIT / GRAIN; }",
                "fn subgroup_widest(lanes: u32) -> u32 { return sg::reduce_all_max<u32>(lanes); }",
            ),
        ],
    )
    .expect("the host's edits apply");
    all.push(DemoKernel {
        file: "segmented_sort.wgsl",
        source,
        entry: "sort_short",
        label: "f32 pairs grain8".into(),
        lower: LowerOptions::default(),
    });
    // The merge sort's kernels as wavekit::device builds them on CUDA: the
    // default tile (256 x 17), pairs of u32 by `<`, every binding writable,
    // bounds clamped (`Context::pipelines`).
    let merge_sort =
        writable(&wavekit::device::shaders::source("merge_sort.wgsl").expect("a device shader"));
    for entry in ["sort_chunk", "merge_pass"] {
        all.push(DemoKernel {
            file: "merge_sort.wgsl",
            source: merge_sort.clone(),
            entry,
            label: "256x17 pairs".into(),
            lower: LowerOptions::default(),
        });
    }
    // SegmentedReduce and SegmentedScan over fixed-size segments as
    // wavekit::device builds them on CUDA for u32 under `+` (256 threads):
    // one workgroup per segment, the reduction by subgroup shares of vec4
    // quads, each lane keeping its own total (`+` commutes), in its short
    // form (4 quads a lane at once, 8 workgroups an SM) and its long (8
    // quads); the scan in tiles of 1024 (4 elements a thread) with every
    // binding writable (it may run in place); both without bounds checks or
    // zeroing (`Context::pipelines_proven`).
    let reduce =
        wavekit::device::shaders::source("segmented_reduce.wgsl").expect("a device shader");
    for (groups, resident, label) in [(4, Some(8), "short"), (8, None, "long")] {
        let source = edited(
            &reduce,
            "segmented_reduce.wgsl",
            &[
                ("const COMMUTATIVE = false;", "const COMMUTATIVE = true;"),
                ("const GROUPS = 4u;", &format!("const GROUPS = {groups}u;")),
            ],
        )
        .expect("the host's edits apply");
        all.push(DemoKernel {
            file: "segmented_reduce.wgsl",
            source,
            entry: "fixed_reduce",
            label: format!("256 u32 sum {label}"),
            lower: LowerOptions {
                min_resident_workgroups: resident,
                ..LowerOptions::proven()
            },
        });
    }
    let scan = wavekit::device::shaders::source("segmented.wgsl").expect("a device shader");
    all.push(DemoKernel {
        file: "segmented.wgsl",
        source: writable(&scan),
        entry: "fixed_scan",
        label: "256 quads u32 sum".into(),
        lower: LowerOptions::proven(),
    });
    // TopK's kernels as wavekit::device builds them on CUDA
    // (`TopK::new`): the default tuning, bounds clamped
    // (`Context::pipelines`); f32 pairs, the greatest (the benchmark's
    // case), and u32 keys alone, the least.
    let top_k = wavekit::device::shaders::source("top_k.wgsl").expect("a device shader");
    for (key_order, largest, pairs, sorted, label) in [
        ("2u", "true", "true", "true", "f32 pairs"),
        ("0u", "false", "false", "true", "u32 keys"),
        ("2u", "true", "true", "false", "f32 pairs unordered"),
    ] {
        let source = edited(
            &top_k,
            "top_k.wgsl",
            &[
                (
                    "const KEY_ORDER = 0u;",
                    &format!("const KEY_ORDER = {key_order};"),
                ),
                (
                    "const LARGEST = false;",
                    &format!("const LARGEST = {largest};"),
                ),
                ("const PAIRS = false;", &format!("const PAIRS = {pairs};")),
                ("const SORTED = true;", &format!("const SORTED = {sorted};")),
            ],
        )
        .expect("the host's edits apply");
        for entry in TOP_K_ENTRIES {
            // The host builds the pass over the keys from a module whose
            // SORT_MAX is PASS_STAGE (`TopK::with_output`).
            let source = if entry == "select_pass" {
                let stage = top_k
                    .lines()
                    .find_map(|line| line.strip_prefix("const PASS_STAGE = "))
                    .expect("top_k.wgsl declares PASS_STAGE");
                let sort_max = format!("const SORT_MAX = {stage}");
                edited(
                    &source,
                    "top_k.wgsl",
                    &[("const SORT_MAX = 1376u;", sort_max.as_str())],
                )
                .expect("the host's edit applies")
            } else {
                source.clone()
            };
            all.push(DemoKernel {
                file: "top_k.wgsl",
                source,
                entry,
                label: label.into(),
                lower: LowerOptions::default(),
            });
        }
    }
    for pairs in [false, true] {
        let shape = Shape::native();
        let config = PassConfig {
            shape,
            pairs,
            subgroups: 32..=32,
            spin_with_rmw: false,
            cuda: true,
            runtime_pass: false,
        };
        let edits = config.edits();
        let mut edits: Vec<(&str, &str)> = edits.iter().map(|(f, t)| (*f, t.as_str())).collect();
        edits.push(plain_look_back);
        let source = edited(&onesweep::SOURCE, "radix_onesweep.wgsl", &edits)
            .expect("the host's edits apply");
        let label = format!(
            "{}x{}{}{}",
            shape.block,
            shape.items,
            shape.resident.map(|r| format!("r{r}")).unwrap_or_default(),
            if pairs { " pairs" } else { " keys" }
        );
        let lower = LowerOptions {
            min_resident_workgroups: shape.resident,
            ..BoundsChecks::Unchecked.into()
        };
        all.push(DemoKernel {
            file: "radix_onesweep.wgsl",
            source: source.clone(),
            entry: "onesweep",
            label: label.clone(),
            lower,
        });
        if !pairs {
            all.push(DemoKernel {
                file: "radix_onesweep.wgsl",
                source,
                entry: "histogram",
                label,
                lower,
            });
        }
    }
    all
}

fn rows() -> Result<Vec<String>, String> {
    let mut target = Target::new(Backend::Cuda, SubgroupSize::fixed(32).expect("32 lanes"));
    target.scalars = ScalarFeatures::ALL;
    let composer = Composer::new(target);
    let kernels = kernels();
    let modules = kernels
        .iter()
        .map(|k| composer.compose(&k.source, k.file).map(|c| c.module))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let names: Vec<String> = (0..kernels.len()).map(|i| format!("k{i}")).collect();
    // One PTX module (one ptxas and nvdisasm run) per set of options the
    // kernels have.
    let mut options: Vec<LowerOptions> = Vec::new();
    for kernel in &kernels {
        if !options.contains(&kernel.lower) {
            options.push(kernel.lower);
        }
    }
    let mut usage = std::collections::BTreeMap::new();
    // Dynamic shared memory of each kernel (the native lowering's, past
    // the 48 KiB ptxas allows statically), by name.
    let mut dynamic = std::collections::BTreeMap::new();
    let mut sass = String::new();
    let mut ptx_text = String::new();
    for lower in options {
        let requests: Vec<KernelRequest> = kernels
            .iter()
            .zip(&modules)
            .zip(&names)
            .filter(|((k, _), _)| k.lower == lower)
            .map(|((k, module), name)| KernelRequest {
                module: &module.module,
                info: &module.info,
                entry: k.entry,
                name,
                source: None,
            })
            .collect();
        let (ptx, abis) = compile_many_with(&requests, SM, lower).map_err(|e| e.to_string())?;
        for (request, abi) in requests.iter().zip(&abis) {
            dynamic.insert(request.name.to_string(), abi.dynamic_workgroup_bytes);
        }
        ptx_text += &ptx;
        usage.extend(tools::resource_usage(&ptx, SM).map_err(|e| e.to_string())?);
        let cubin = tools::assemble(&ptx, SM).map_err(|e| e.to_string())?;
        sass += &tools::disassemble(&cubin).map_err(|e| e.to_string())?;
    }
    if let Ok(path) = std::env::var("WAVEKIT_SASS_OUT") {
        std::fs::write(&path, &sass).map_err(|e| format!("writing {path}: {e}"))?;
    }
    if let Ok(path) = std::env::var("WAVEKIT_PTX_OUT") {
        std::fs::write(&path, &ptx_text).map_err(|e| format!("writing {path}: {e}"))?;
    }
    let functions = tools::sass_functions(&sass);
    kernels
        .iter()
        .zip(&names)
        .map(|(k, name)| {
            let u = usage
                .get(name)
                .copied()
                .ok_or_else(|| format!("ptxas -v reported nothing for {}:{}", k.file, k.entry))?;
            let opcodes = functions.get(name).map_or(&[][..], Vec::as_slice);
            let counts = tools::count_mnemonics(opcodes);
            let tracked: Vec<String> = TRACKED
                .iter()
                .map(|m| format!("{m}={}", counts.get(*m).copied().unwrap_or(0)))
                .collect();
            let smem = match dynamic.get(name).copied().unwrap_or(0) {
                0 => u.shared.to_string(),
                bytes => format!("{}+{bytes}dynamic", u.shared),
            };
            Ok(format!(
                "sm_{SM}\t{}:{}\t{}\tregs={} frame={} spill={}/{} smem={} {} total={}",
                k.file,
                k.entry,
                k.label,
                u.registers,
                u.stack_frame,
                u.spill_stores,
                u.spill_loads,
                smem,
                tracked.join(" "),
                opcodes.len()
            ))
        })
        .collect()
}

#[test]
fn demo_kernels_meet_their_budgets() {
    let rows = rows().unwrap_or_else(|e| panic!("{e}"));
    for row in &rows {
        assert!(
            row.contains(" frame=0 spill=0/0 ") && row.contains("LDL=0 STL=0"),
            "a hot demo kernel uses local memory: {row}"
        );
    }
    support::check_table(
        &rows,
        TABLE,
        "# sm\tkernel\tshape\tptxas -v and nvdisasm of the native CUDA lowering (ptxas/nvdisasm 13.5.37)",
        "WAVEKIT_BLESS_SASS",
    );
}
