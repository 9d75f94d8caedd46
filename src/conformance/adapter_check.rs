//! The adapter check: does the adapter run subgroups as wide as it says?
//!
//! Some drivers report one width and execute another (lavapipe with
//! `LP_NATIVE_VECTOR_WIDTH=1024` reports 32 lanes and runs 16). Every op
//! result would then be wrong for a reason that is not the op's, so the
//! suite checks the width first and reports a failed adapter instead.

use crate::error::Error;
use crate::expand::validate_wgsl;
use crate::runner::{Binding, Gpu};

use super::layout::{self, Dispatch, META_WORDS};

/// Words each invocation writes: the layout metadata, then the number of
/// lanes `subgroupAdd(1u)` counts, the ballot's population and `max(lane) + 1`.
const WORDS: u32 = META_WORDS + 4;

/// The verdict of the adapter check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AdapterCheck {
    /// Whether the adapter behaves as reported.
    pub passed: bool,
    /// Subgroup sizes the adapter reports (`min..=max`).
    pub reported: (u32, u32),
    /// Distinct `subgroup_size` values the kernel read.
    pub observed_sizes: Vec<u32>,
    /// Distinct numbers of lanes that took part in a subgroup operation.
    pub observed_lanes: Vec<u32>,
    /// What went wrong, if anything.
    pub problems: Vec<String>,
}

const KERNEL: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn wk_adapter_check(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
    @builtin(subgroup_id) subgroup: u32,
    @builtin(local_invocation_index) thread: u32,
) {
    let at = gid.x * WORDSu;
    let ballot = subgroupBallot(true);
    out[at] = lane;
    out[at + 1u] = size;
    out[at + 2u] = subgroup;
    out[at + 3u] = subgroupAdd(1u);
    out[at + 4u] = countOneBits(ballot.x) + countOneBits(ballot.y)
        + countOneBits(ballot.z) + countOneBits(ballot.w);
    out[at + 5u] = subgroupMax(lane) + 1u;
    out[at + 6u] = select(0u, 1u, thread == subgroup * size + lane);
}
";

/// Runs the check on `gpu` with the suite's dispatch shape. Emulated
/// subgroups are as wide as the emulation makes them, whatever the
/// adapter: the check passes without a kernel (it would need the subgroup
/// builtins the emulation replaces).
pub fn check_adapter(gpu: &Gpu, dispatch: Dispatch) -> Result<AdapterCheck, Error> {
    let target = gpu.target();
    if target.is_emulated() {
        let size = target.subgroup_size.min();
        return Ok(AdapterCheck {
            passed: true,
            reported: (size, size),
            observed_sizes: Vec::new(),
            observed_lanes: Vec::new(),
            problems: Vec::new(),
        });
    }
    let source = KERNEL
        .replace("WORKGROUP_SIZE", &dispatch.workgroup_size.to_string())
        .replace("WORDS", &WORDS.to_string());
    let module = validate_wgsl(&source, "wavekit-adapter-check.wgsl", target)?;
    let kernel = gpu.kernel(&module, "wk_adapter_check")?;
    let n = dispatch.invocations();
    let out = gpu.run(
        &kernel,
        &[Binding::Output {
            size: u64::from(n * WORDS) * 4,
        }],
        [dispatch.workgroups, 1, 1],
    )?;
    let words = crate::runner::words(&out[0]);
    let (min, max) = (target.subgroup_size.min(), target.subgroup_size.max());
    let mut check = AdapterCheck {
        passed: true,
        reported: (min, max),
        observed_sizes: Vec::new(),
        observed_lanes: Vec::new(),
        problems: Vec::new(),
    };
    let mut meta = Vec::with_capacity((n * META_WORDS) as usize);
    for g in 0..n as usize {
        let w = &words[g * WORDS as usize..][..WORDS as usize];
        meta.extend_from_slice(&w[..META_WORDS as usize]);
        let size = w[1];
        insert_sorted(&mut check.observed_sizes, size);
        for lanes in [w[3], w[4], w[5]] {
            insert_sorted(&mut check.observed_lanes, lanes);
        }
    }
    for &size in &check.observed_sizes {
        if size < min || size > max {
            check.problems.push(format!(
                "subgroup_size reads {size}, outside the reported {min}..={max}"
            ));
        }
    }
    if check.observed_lanes != check.observed_sizes {
        check.problems.push(format!(
            "the adapter reports subgroup size {} but subgroup operations see {} lanes \
             (subgroupAdd(1), ballot population, max lane id + 1)",
            join(&check.observed_sizes),
            join(&check.observed_lanes)
        ));
    }
    let nonlinear = (0..n as usize)
        .filter(|g| words[g * WORDS as usize + 6] == 0)
        .count();
    if nonlinear > 0 {
        check.problems.push(format!(
            "{nonlinear} invocations have local_invocation_index != subgroup_id * size + lane: \
             subgroups do not tile workgroups in index order, which block scans assume"
        ));
    }
    if let Err(problem) = layout::subgroups(&meta, dispatch) {
        check.problems.push(problem);
    }
    check.passed = check.problems.is_empty();
    Ok(check)
}

fn insert_sorted(values: &mut Vec<u32>, v: u32) {
    if let Err(at) = values.binary_search(&v) {
        values.insert(at, v);
    }
}

fn join(values: &[u32]) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" / ")
}
