//! Per-adapter lowering choice (feature `runner`): times the builtin and the
//! shuffle lowering of every subgroup op that has both, on one device, and
//! writes the faster into a [`Profile`] that [`Target::from_adapter`] then
//! uses on that adapter and driver.
//!
//! Each op runs in a dependent chain per thread, micro-benchmark style (as
//! `wavekit-micro` does): `trips × 8` steps of `x = op(x) * s + k`, `s` and
//! `k` read from a buffer so nothing folds, one write per thread at the end.
//! The time of one step, per subgroup of the dispatch, is the figure
//! compared; an op's choice is the lowering with the smaller sum over the
//! dtypes timed. `_tiled` ops and block ops of the same name follow the op
//! (see [`Profile::strategy`]).
//!
//! ```no_run
//! # use wavekit::runner::{AdapterChoice, Gpu};
//! # use wavekit::tune::{TuneOptions, tune};
//! let gpu = Gpu::open(&AdapterChoice::default())?;
//! let profile = tune(&gpu, &TuneOptions::default())?;
//! let path = profile.write(&wavekit::target::profile::Profile::dir().unwrap())?;
//! # Ok::<(), wavekit::Error>(())
//! ```

use std::collections::BTreeMap;

use crate::catalog::{Arg, Primitive, Ret};
use crate::compose::Composer;
use crate::dtype::Dtype;
use crate::error::Error;
use crate::runner::{Binding, Gpu};
use crate::target::profile::{Measurement, Profile};
use crate::target::{Lowering, Strategy, Target};

/// Threads per workgroup of the chain kernels.
const BLOCK: u32 = 256;
/// Steps per loop trip (unrolled in the kernel).
const STEPS_PER_TRIP: u32 = 8;

/// What to time and how long.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Ops to tune (catalog names); empty: every tunable op.
    pub ops: Vec<String>,
    /// Dtypes to time each op with (those the op allows).
    pub dtypes: Vec<Dtype>,
    /// Loop trips per thread (each `STEPS_PER_TRIP` steps).
    pub trips: u32,
    /// Workgroups per dispatch.
    pub workgroups: u32,
    /// Untimed dispatches first.
    pub warmup: usize,
    /// Timed dispatches (the median is kept).
    pub runs: usize,
}

impl Default for TuneOptions {
    /// Sized for a discrete GPU: about a millisecond per timed dispatch.
    fn default() -> Self {
        TuneOptions {
            ops: Vec::new(),
            dtypes: vec![Dtype::U32, Dtype::F32],
            trips: 64,
            workgroups: 1024,
            warmup: 3,
            runs: 10,
        }
    }
}

/// The ops `tune` can choose for ([`catalog::tunable_ops`]).
pub use crate::catalog::tunable_ops;

/// Times every tunable op (or `options.ops`) with both lowerings on `gpu`
/// and returns the profile of the faster ones.
pub fn tune(gpu: &Gpu, options: &TuneOptions) -> Result<Profile, Error> {
    let selected: Vec<&Primitive> = if options.ops.is_empty() {
        tunable_ops().collect()
    } else {
        options
            .ops
            .iter()
            .map(|name| {
                tunable_ops().find(|p| p.name == name).ok_or_else(|| {
                    Error::Usage(format!(
                        "`{name}` is not a subgroup op with both lowerings; tunable: {}",
                        tunable_ops().map(|p| p.name).collect::<Vec<_>>().join(", ")
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let adapter = gpu
        .wgpu()
        .ok_or_else(|| Error::Usage("tune profiles are for wgpu adapters".into()))?
        .info();
    let target = gpu.target().clone();
    let mut profile = Profile::new(
        &adapter.name,
        &Profile::driver_key(adapter),
        target.backend,
        target.subgroup_size.to_string(),
    );
    for primitive in selected {
        let mut totals: BTreeMap<Lowering, f64> = BTreeMap::new();
        for &dtype in &options.dtypes {
            if !primitive.dtypes.contains(&dtype) || !target.dtypes().any(|d| d == dtype) {
                continue;
            }
            for lowering in Lowering::ALL {
                let ns_per_op = time_chain(gpu, &target, primitive, dtype, lowering, options)?;
                *totals.entry(lowering).or_default() += ns_per_op;
                profile.measurements.push(Measurement {
                    op: primitive.name.into(),
                    dtype: dtype.to_string(),
                    lowering,
                    ns_per_op,
                });
            }
        }
        if let Some((&lowering, _)) = totals.iter().min_by(|a, b| a.1.total_cmp(b.1)) {
            profile.ops.insert(primitive.name.into(), lowering);
        }
    }
    Ok(profile)
}

/// The chain kernel of one op, dtype and lowering, composed for `target`;
/// nanoseconds per subgroup operation.
fn time_chain(
    gpu: &Gpu,
    target: &Target,
    primitive: &Primitive,
    dtype: Dtype,
    lowering: Lowering,
    options: &TuneOptions,
) -> Result<f64, Error> {
    let source = chain_source(primitive, dtype)?;
    let lowered = target
        .clone()
        .with_strategy(Strategy::default().with_op(primitive.name, lowering));
    let composed = Composer::new(lowered).compose(&source, "tune.wgsl")?;
    let kernel = gpu.kernel(&composed.module, "main")?;
    let params: Vec<u8> = match dtype {
        Dtype::F32 => [1.0f32, 0.5].iter().flat_map(|v| v.to_le_bytes()).collect(),
        _ => [3u32, 1].iter().flat_map(|v| v.to_le_bytes()).collect(),
    };
    let trips = options.trips.to_le_bytes();
    let threads = u64::from(options.workgroups) * u64::from(BLOCK);
    let bindings = [
        (0, Binding::Input(&params)),
        (1, Binding::Input(&trips)),
        (2, Binding::Output { size: 4 * threads }),
    ];
    let mut times = gpu.time_at(
        &kernel,
        &bindings,
        [options.workgroups, 1, 1],
        options.warmup,
        options.runs.max(1),
    )?;
    times.sort_by(f64::total_cmp);
    let median_ms = times[times.len() / 2];
    let width = u64::from(target.subgroup_size.max());
    let subgroup_ops =
        threads.div_ceil(width) * u64::from(options.trips) * u64::from(STEPS_PER_TRIP);
    Ok(median_ms * 1e6 / subgroup_ops as f64)
}

/// The WGSL of the chain kernel: `x = step(x)` `trips × 8` times.
fn chain_source(primitive: &Primitive, dtype: Dtype) -> Result<String, Error> {
    let op = primitive.name;
    let call = match (primitive.args, primitive.ret) {
        ([Arg::Value], Ret::Value) => format!("sg::{op}<T>(x) * s + k"),
        ([Arg::Value], Ret::Bool) => format!("x * s + select(k, k + T(1), sg::{op}<T>(x))"),
        ([Arg::Predicate], Ret::Bool) => {
            format!("x * s + select(k, k + T(1), sg::{op}(x > k))")
        }
        _ => {
            return Err(Error::Usage(format!(
                "`{op}`: tune has no chain for this signature"
            )));
        }
    };
    let step = format!("        x = {call};\n").repeat(STEPS_PER_TRIP as usize);
    Ok(format!(
        "#import wavekit::subgroup as sg
alias T = {dtype};
@group(0) @binding(0) var<storage, read> params: array<T>;
@group(0) @binding(1) var<storage, read> trips: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;
@compute @workgroup_size({BLOCK})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let s = params[0];
    let k = params[1] + T(gid.x & 31u);
    var x = k;
    for (var t = 0u; t < trips[0]; t++) {{
{step}    }}
    out[gid.x] = x;
}}
"
    ))
}
