//! `wavekit adapters`: the wgpu adapters with the subgroups and lowering
//! each gets, then the CUDA and HIP devices of the native back ends. A
//! missing driver or runtime is a line saying so, not an error: the
//! command lists what there is.

use std::process::ExitCode;

use wavekit::Error;
use wavekit::target::profile::Profile;

/// Prints every wgpu adapter, then the CUDA and HIP devices.
pub fn run() -> Result<ExitCode, Error> {
    let adapters = wavekit::runner::list_adapter_modes();
    if adapters.is_empty() {
        println!(
            "wgpu (Vulkan, Metal, DX12): none found ({})",
            wavekit::runner::NO_DRIVER
        );
    }
    for (info, mode) in adapters {
        let driver = Profile::driver_key(&info);
        let lowering = match Profile::stored_for(&info)? {
            Some(profile) => format!("lowering: tuned ({})", profile.strategy()),
            None => "lowering: default (builtin where available)".into(),
        };
        let subgroups = if mode == wavekit::SubgroupMode::Hardware {
            format!(
                "subgroups: hardware, size {}..={}",
                info.subgroup_min_size, info.subgroup_max_size
            )
        } else {
            format!(
                "subgroups: emulated in workgroup memory (no SUBGROUP feature), size {}",
                wavekit::EMULATED_DEFAULT_SIZE
            )
        };
        println!(
            "{} ({:?}, {:?}, {driver}), {subgroups}, {lowering}",
            info.name, info.backend, info.device_type,
        );
    }
    for line in native_lines() {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Without the `native` feature there are no CUDA or HIP back ends to ask.
#[cfg(not(feature = "native"))]
fn native_lines() -> Vec<String> {
    vec![
        "CUDA, HIP: not built in (this wavekit was built without the `native` feature)".to_string(),
    ]
}

/// One line per CUDA device, then one per HIP device; where there is none,
/// one line each saying why.
#[cfg(feature = "native")]
fn native_lines() -> Vec<String> {
    let mut lines = cuda_lines();
    lines.extend(hip_lines());
    lines
}

/// `CUDA device N: NAME, compute capability X.Y (--backend cuda --device N)`
/// for each device the driver reports, or `CUDA: none found (...)`.
#[cfg(feature = "native")]
fn cuda_lines() -> Vec<String> {
    use wavekit_native::cuda::Cuda;
    use wavekit_native::cudarc::driver::CudaContext;
    use wavekit_native::driver::Driver;

    // `Cuda::open` loads and initialises the driver without panicking
    // when it is missing; only after it succeeded is the count asked for.
    let first = match Cuda::open(0) {
        Ok(cuda) => cuda,
        Err(e) => return vec![format!("CUDA: none found ({e})")],
    };
    let count = CudaContext::device_count()
        .ok()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(1)
        .max(1);
    let mut lines = vec![cuda_line(0, &first)];
    drop(first);
    for ordinal in 1..count {
        lines.push(match Cuda::open(ordinal) {
            Ok(cuda) => cuda_line(ordinal, &cuda),
            Err(e) => format!("CUDA device {ordinal}: cannot be opened ({e})"),
        });
    }
    return lines;

    fn cuda_line(ordinal: usize, cuda: &Cuda) -> String {
        let name = cuda
            .name()
            .unwrap_or_else(|e| format!("(name unknown: {e})"));
        let capability = match cuda.compute_capability() {
            Ok((major, minor)) => format!("compute capability {major}.{minor}"),
            Err(e) => format!("compute capability unknown ({e})"),
        };
        format!("CUDA device {ordinal}: {name}, {capability} (--backend cuda --device {ordinal})")
    }
}

/// `HIP device N: NAME (--backend hip --device N --arch ...)` for each
/// device the runtime reports, or `HIP: none found (...)`. HIP has no
/// stable call for a device's architecture, so the line says where to
/// find it.
#[cfg(feature = "native")]
fn hip_lines() -> Vec<String> {
    use wavekit_native::driver::Driver;
    use wavekit_native::hip::{Hip, is_no_runtime};

    let mut lines = Vec::new();
    for ordinal in 0.. {
        match Hip::open(ordinal) {
            Ok(hip) => {
                let name = hip
                    .name()
                    .unwrap_or_else(|e| format!("(name unknown: {e})"));
                lines.push(format!(
                    "HIP device {ordinal}: {name} (--backend hip --device {ordinal} --arch \
                     ARCH: `rocminfo` or `amdgpu-arch` print its gfx name)"
                ));
            }
            Err(e) if ordinal == 0 => {
                lines.push(format!("HIP: none found ({e})"));
                break;
            }
            // Past the last device the runtime answers "there is no HIP
            // device N", the same kind of error as a missing runtime.
            Err(e) if is_no_runtime(&e) => break,
            Err(e) => {
                lines.push(format!("HIP device {ordinal}: cannot be opened ({e})"));
                break;
            }
        }
    }
    lines
}
