//! Issue 19, part 3: does the SPIR-V naga writes cost time on a Vulkan
//! driver, against the same kernel optimised by `spirv-opt` or written as
//! GLSL and compiled by `glslc`? Two kernels, composed for fixed subgroups
//! of 32 as `wavekit::device` composes them on NVIDIA: the scan's
//! `scan_lookback` and the OneSweep sort's pass kernel `onesweep` (run as
//! pass 0, keys only, 512 threads × 10 keys staged whole in the counter
//! rows: the wgpu shape when the probe ran, which 2026-11-27v replaced by
//! 512 × 12 staged in two parts). Each is timed alone with GPU timestamps
//! in each form, its output checked against the CPU.
//!
//! Here (no GPU needed), write the forms the tools start from:
//!
//!   wavekit-codegen-probe emit DIR
//!
//! writes `DIR/KERNEL.spv` and `DIR/KERNEL-plain.spv` (without the look-back's
//! fallback, `const FALLBACK = false;`: the form the library runs on NVIDIA) (naga's SPIR-V with the options wgpu's Vulkan
//! back end uses on a device with `robustBufferAccess2`: indices clamped,
//! buffers left to the driver, workgroup memory zeroed by the driver, no
//! loop bounding, as the library asks) and `DIR/KERNEL.comp` (naga's GLSL
//! 450 of the same module, the same bounds policies, workgroup memory
//! zeroed by the shader) for KERNEL `scan` and `onesweep`. Then, for each,
//!
//!   spirv-opt -O --target-env=vulkan1.3 DIR/scan.spv -o DIR/scan-opt.spv
//!   glslc --target-env=vulkan1.3 -O -fshader-stage=comp DIR/scan.comp -o DIR/scan-glslc.spv
//!
//! and on the GPU:
//!
//!   wavekit-codegen-probe run --kernel scan --log2 24 naga=DIR/scan.spv opt=DIR/scan-opt.spv glslc=DIR/scan-glslc.spv@main
//!
//! which times `wgpu` (the module handed to wgpu as the library hands it)
//! and each SPIR-V file (through `create_shader_module_passthrough`), one
//! JSON line per form. For `onesweep` only the pass kernel comes from the
//! file; the histogram and digit offsets before it are wgpu's.

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;
use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupSize, Target};
use wavekit_demos::harness::edited;
use wavekit_demos::radix_sort::onesweep::{self, PassConfig, Shape};

/// The OneSweep pass shape the library used through wgpu on NVIDIA when
/// the probe ran (2026-11-25k; the keys' is now 512 × 12 in two parts,
/// `wavekit::device`'s `Shape::for_context`).
const SHAPE: Shape = Shape {
    block: 512,
    items: 10,
    resident: None,
    stage_in_counters: true,
    stage_parts: 1,
};

/// A kernel the probe times.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Kernel {
    /// `scan_lookback` of scan.wgsl (tiles of 8192 u32, 256 threads).
    Scan,
    /// `onesweep` of radix_onesweep.wgsl, run as pass 0 of a keys-only sort.
    Onesweep,
}

impl Kernel {
    fn name(self) -> &'static str {
        match self {
            Kernel::Scan => "scan",
            Kernel::Onesweep => "onesweep",
        }
    }

    fn entry(self) -> &'static str {
        match self {
            Kernel::Scan => "scan_lookback",
            Kernel::Onesweep => "onesweep",
        }
    }

    /// Whether workgroup memory is zeroed (natively for SPIR-V, by the
    /// shader in GLSL): the scan's is, as the library builds it; the
    /// OneSweep pass writes every workgroup word before reading it
    /// (`radix_onesweep.wgsl`), so no form zeroes it, and naga's GLSL
    /// zeroing (thread 0 alone stores every word) cannot weigh on one form.
    fn zeroed(self) -> bool {
        matches!(self, Kernel::Scan)
    }

    fn block(self) -> u32 {
        match self {
            Kernel::Scan => 256,
            Kernel::Onesweep => SHAPE.block,
        }
    }

    /// Elements per tile (and workgroup).
    fn tile(self) -> usize {
        match self {
            Kernel::Scan => 8192,
            Kernel::Onesweep => (SHAPE.block * SHAPE.items) as usize,
        }
    }

    /// Storage bindings, read-only or not, in binding order.
    fn bindings(self) -> &'static [bool] {
        match self {
            Kernel::Scan => &[true, false, false, false],
            Kernel::Onesweep => &[true, false, true, false, false, false, false, true],
        }
    }

    /// The entry point of the form without the look-back's fallback
    /// (`const FALLBACK = false;`), the one the library runs where the
    /// device keeps started workgroups running (NVIDIA, AMD, Intel, CUDA).
    fn plain_entry(self) -> &'static str {
        match self {
            Kernel::Scan => "scan_lookback_plain",
            Kernel::Onesweep => "onesweep",
        }
    }

    /// The module, composed as the library composes it on NVIDIA; `plain`:
    /// without the look-back's fallback.
    fn module(self, plain: bool) -> Result<wavekit::expand::ValidModule, String> {
        let target = Target::new(
            Backend::Vulkan,
            SubgroupSize::fixed(32).map_err(|e| e.to_string())?,
        );
        let source = match self {
            Kernel::Scan => {
                wavekit::device::shaders::source("scan.wgsl").map_err(|e| e.to_string())?
            }
            Kernel::Onesweep => {
                let config = PassConfig {
                    shape: SHAPE,
                    pairs: false,
                    subgroups: 32..=32,
                    spin_with_rmw: false,
                    cuda: false,
                    runtime_pass: true,
                };
                let edits = config.edits();
                let edits: Vec<(&str, &str)> =
                    edits.iter().map(|(f, t)| (*f, t.as_str())).collect();
                edited(&onesweep::SOURCE, "radix_onesweep.wgsl", &edits)
                    .map_err(|e| e.to_string())?
            }
        };
        let source = if plain {
            edited(
                &source,
                self.name(),
                &[("const FALLBACK = true;", "const FALLBACK = false;")],
            )
            .map_err(|e| e.to_string())?
        } else {
            source
        };
        Composer::new(target)
            .compose(&source, self.name())
            .map(|composed| composed.module)
            .map_err(|e| e.to_string())
    }
}

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write KERNEL.spv and KERNEL.comp into DIR for both kernels.
    Emit { dir: PathBuf },
    /// Time each form on the first GPU adapter (or `--adapter`).
    Run {
        #[arg(long, value_enum, default_value_t = Kernel::Scan)]
        kernel: Kernel,
        #[arg(long, default_value_t = 24)]
        log2: u32,
        #[arg(long, default_value_t = 20)]
        runs: usize,
        #[arg(long, default_value_t = 5)]
        warmup: usize,
        /// A substring of the adapter's name.
        #[arg(long)]
        adapter: Option<String>,
        /// NAME=FILE.spv forms to time next to `wgpu` (NAME=FILE.spv@ENTRY
        /// when the entry point is not the kernel's: glslc names it
        /// `main`).
        forms: Vec<String>,
    },
}

fn emit(dir: &PathBuf) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for kernel in [Kernel::Scan, Kernel::Onesweep] {
        emit_kernel(dir, kernel, false)?;
        emit_kernel(dir, kernel, true)?;
    }
    Ok(())
}

/// Writes `DIR/KERNEL.spv` and `.comp`, or with `plain` (no look-back
/// fallback) `DIR/KERNEL-plain.spv` and `.comp` of the plain entry point.
fn emit_kernel(dir: &std::path::Path, kernel: Kernel, plain: bool) -> Result<(), String> {
    let valid = kernel.module(plain)?;
    let entry = if plain {
        kernel.plain_entry()
    } else {
        kernel.entry()
    };
    let policies = naga::proc::BoundsCheckPolicies {
        index: naga::proc::BoundsCheckPolicy::Restrict,
        buffer: naga::proc::BoundsCheckPolicy::Unchecked,
        image_load: naga::proc::BoundsCheckPolicy::Unchecked,
        binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
    };
    let spv_options = naga::back::spv::Options {
        lang_version: (1, 6),
        bounds_check_policies: policies,
        zero_initialize_workgroup_memory:
            naga::back::spv::ZeroInitializeWorkgroupMemoryMode::Native,
        force_loop_bounding: false,
        ..Default::default()
    };
    let pipeline = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.into(),
    };
    let words =
        naga::back::spv::write_vec(&valid.module, &valid.info, &spv_options, Some(&pipeline))
            .map_err(|e| format!("SPIR-V: {e}"))?;
    let name = format!("{}{}", kernel.name(), if plain { "-plain" } else { "" });
    std::fs::write(
        dir.join(format!("{name}.spv")),
        bytemuck::cast_slice::<u32, u8>(&words),
    )
    .map_err(|e| e.to_string())?;
    let mut binding_map = naga::back::glsl::BindingMap::default();
    for binding in 0..kernel.bindings().len() as u32 {
        binding_map.insert(naga::ResourceBinding { group: 0, binding }, binding as u8);
    }
    let glsl_options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(450),
        binding_map,
        zero_initialize_workgroup_memory: kernel.zeroed(),
        ..Default::default()
    };
    let glsl_pipeline = naga::back::glsl::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.into(),
        multiview: None,
    };
    let mut text = String::new();
    naga::back::glsl::Writer::new(
        &mut text,
        &valid.module,
        &valid.info,
        &glsl_options,
        &glsl_pipeline,
        policies,
    )
    .and_then(|mut w| w.write())
    .map_err(|e| format!("GLSL: {e}"))?;
    std::fs::write(dir.join(format!("{name}.comp")), text).map_err(|e| e.to_string())
}

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    name: String,
}

fn open(adapter_name: Option<&str>) -> Result<Gpu, String> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    let adapter = adapters
        .into_iter()
        .find(|a| {
            let info = a.get_info();
            match adapter_name {
                Some(name) => info.name.contains(name),
                None => info.device_type != wgpu::DeviceType::Cpu,
            }
        })
        .ok_or("no such Vulkan adapter")?;
    let name = adapter.get_info().name;
    let features = wgpu::Features::SUBGROUP
        | wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::PASSTHROUGH_SHADERS;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("codegen probe"),
        required_features: features & adapter.features(),
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| e.to_string())?;
    Ok(Gpu {
        device,
        queue,
        name,
    })
}

fn storage(read_only: bool, binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn pipeline(
    gpu: &Gpu,
    shader: &wgpu::ShaderModule,
    layout: &wgpu::BindGroupLayout,
    entry: &str,
    zeroed: bool,
) -> wgpu::ComputePipeline {
    let pipeline_layout = gpu
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(entry),
            bind_group_layouts: &[Some(layout)],
            immediate_size: 0,
        });
    gpu.device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: Some(&pipeline_layout),
            module: shader,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                zero_initialize_workgroup_memory: zeroed,
                ..Default::default()
            },
            cache: None,
        })
}

fn buffer(gpu: &Gpu, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage,
        mapped_at_creation: false,
    })
}

fn read(gpu: &Gpu, source: &wgpu::Buffer, bytes: u64) -> Vec<u8> {
    let staging = buffer(
        gpu,
        bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(source, 0, &staging, 0, bytes);
    gpu.queue.submit([encoder.finish()]);
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("polls");
    staging
        .slice(..)
        .get_mapped_range()
        .expect("mapped")
        .to_vec()
}

/// The buffers of one kernel's dispatch and the untimed work before it.
struct Setup {
    bind_group: wgpu::BindGroup,
    /// Cleared before each run.
    clears: Vec<wgpu::Buffer>,
    /// Read back and checked after the runs.
    output: wgpu::Buffer,
    grid: u32,
}

fn setup(gpu: &Gpu, kernel: Kernel, layout: &wgpu::BindGroupLayout, input: &[u32]) -> Setup {
    let n = input.len();
    let tiles = n.div_ceil(kernel.tile());
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let input_buffer = buffer(gpu, 4 * n as u64, usage);
    gpu.queue
        .write_buffer(&input_buffer, 0, bytemuck::cast_slice(input));
    let output = buffer(gpu, 4 * n as u64, usage);
    let (buffers, clears) = match kernel {
        Kernel::Scan => {
            let state = buffer(gpu, 8 * tiles as u64, usage);
            let counter = buffer(gpu, 4, usage);
            (
                vec![input_buffer, output.clone(), state.clone(), counter.clone()],
                vec![state, counter],
            )
        }
        // keys_in, keys_out, values_in, values_out (unused: keys only),
        // digits (cleared; the histogram adds into it), tile_state and
        // tile_counter (the histogram kernel zeroes them), pass_info (one
        // word: pass 0).
        Kernel::Onesweep => {
            let digits = buffer(gpu, 4 * 256 * 4, usage);
            (
                vec![
                    input_buffer,
                    output.clone(),
                    buffer(gpu, 4, usage),
                    buffer(gpu, 4, usage),
                    digits.clone(),
                    buffer(gpu, 4 * 256 * tiles as u64, usage),
                    buffer(gpu, 16, usage),
                    buffer(gpu, 4, usage),
                ],
                vec![digits],
            )
        }
    };
    let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout,
        entries: &buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect::<Vec<_>>(),
    });
    Setup {
        bind_group,
        clears,
        output,
        grid: tiles as u32,
    }
}

/// Whether `got` is `kernel`'s result on `input`: the exclusive scan, or
/// the keys stably ordered by their low byte (pass 0).
fn check(kernel: Kernel, input: &[u32], got: &[u32]) -> bool {
    match kernel {
        Kernel::Scan => {
            let mut sum = 0u32;
            input.iter().zip(got).all(|(&x, &y)| {
                let before = sum;
                sum = sum.wrapping_add(x);
                y == before
            })
        }
        Kernel::Onesweep => {
            let mut want = input.to_vec();
            want.sort_by_key(|k| k & 0xff);
            want == got
        }
    }
}

/// Median and minimum ms of `runs` timed dispatches of `timed` (each after
/// `before`, untimed, in its own pass; all in one submission) after at
/// least `warmup` runs and 2 s of them, and whether the output matched the
/// CPU's.
#[allow(clippy::too_many_arguments)]
fn time(
    gpu: &Gpu,
    kernel: Kernel,
    before: &[(wgpu::ComputePipeline, u32)],
    timed: &wgpu::ComputePipeline,
    setup: &Setup,
    input: &[u32],
    runs: usize,
    warmup: usize,
) -> (f64, f64, bool) {
    let queries = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2 * runs as u32,
    });
    let stamp_bytes = 16 * runs as u64;
    let period = f64::from(gpu.queue.get_timestamp_period());
    let resolved = buffer(
        gpu,
        stamp_bytes,
        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
    );
    // One run: the clears, the untimed kernels, then the timed one in its
    // own pass (with timestamps `2 k` and `2 k + 1` when `stamp` is `k`).
    let record = |encoder: &mut wgpu::CommandEncoder, stamp: Option<u32>| {
        for clear in &setup.clears {
            encoder.clear_buffer(clear, 0, None);
        }
        if !before.is_empty() {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for (pipeline, grid) in before {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &setup.bind_group, &[]);
                pass.dispatch_workgroups(*grid, 1, 1);
            }
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: stamp.map(|k| wgpu::ComputePassTimestampWrites {
                query_set: &queries,
                beginning_of_pass_write_index: Some(2 * k),
                end_of_pass_write_index: Some(2 * k + 1),
            }),
        });
        pass.set_pipeline(timed);
        pass.set_bind_group(0, &setup.bind_group, &[]);
        pass.dispatch_workgroups(setup.grid, 1, 1);
    };
    // Warm-up: `warmup` runs, then back-to-back runs for at least 2 s, so
    // that the timed runs start after the driver's ramp to full speed
    // (about 200 ms of load, docs/benchmarks/2026-11-25b-h100-vulkan).
    let start = std::time::Instant::now();
    let mut done = 0;
    while done < warmup || start.elapsed() < std::time::Duration::from_secs(2) {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        for _ in 0..10 {
            record(&mut encoder, None);
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("polls");
        done += 10;
    }
    // The timed runs, back to back in one submission.
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for k in 0..runs as u32 {
        record(&mut encoder, Some(k));
    }
    encoder.resolve_query_set(&queries, 0..2 * runs as u32, &resolved, 0);
    gpu.queue.submit([encoder.finish()]);
    let stamps: Vec<u64> = bytemuck::cast_slice(&read(gpu, &resolved, stamp_bytes)).to_vec();
    let mut times: Vec<f64> = stamps
        .chunks_exact(2)
        .map(|pair| (pair[1] - pair[0]) as f64 * period / 1e6)
        .collect();
    times.sort_by(f64::total_cmp);
    let got: Vec<u32> =
        bytemuck::cast_slice(&read(gpu, &setup.output, 4 * input.len() as u64)).to_vec();
    (times[times.len() / 2], times[0], check(kernel, input, &got))
}

fn run(
    kernel: Kernel,
    log2: u32,
    runs: usize,
    warmup: usize,
    adapter: Option<&str>,
    forms: &[String],
) -> Result<bool, String> {
    let gpu = open(adapter)?;
    let entries: Vec<wgpu::BindGroupLayoutEntry> = kernel
        .bindings()
        .iter()
        .enumerate()
        .map(|(i, &read_only)| storage(read_only, i as u32))
        .collect();
    let layout = gpu
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(kernel.name()),
            entries: &entries,
        });
    let n = 1usize << log2;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| match kernel {
            Kernel::Scan => i.wrapping_mul(2_654_435_761) >> 24,
            Kernel::Onesweep => i.wrapping_mul(2_654_435_761) ^ (i >> 7),
        })
        .collect();
    // The library's way: the composed naga module, wgpu's bounds checks,
    // no loop bounding (src/device/context.rs).
    // SAFETY: the kernels' loops terminate (the look-back spins end once
    // earlier tiles publish, which they do on this GPU); the library
    // builds them so.
    let shader = unsafe {
        gpu.device.create_shader_module_trusted(
            wgpu::ShaderModuleDescriptor {
                label: Some("wgpu"),
                source: wgpu::ShaderSource::Naga(Cow::Owned(kernel.module(false)?.module)),
            },
            wgpu::ShaderRuntimeChecks {
                force_loop_bounding: false,
                ..wgpu::ShaderRuntimeChecks::checked()
            },
        )
    };
    // One set of buffers for every form.
    let buffers = setup(&gpu, kernel, &layout, &input);
    let before: Vec<(wgpu::ComputePipeline, u32)> = match kernel {
        Kernel::Scan => Vec::new(),
        Kernel::Onesweep => vec![
            (
                pipeline(&gpu, &shader, &layout, "histogram", true),
                buffers.grid.min(1024),
            ),
            (pipeline(&gpu, &shader, &layout, "digit_offsets", true), 1),
        ],
    };
    let mut all_ok = true;
    let mut report = |form: &str, timed: wgpu::ComputePipeline| {
        let (median, min, ok) = time(
            &gpu, kernel, &before, &timed, &buffers, &input, runs, warmup,
        );
        all_ok &= ok;
        println!(
            "{}",
            json!({"probe": "codegen", "kernel": kernel.entry(), "form": form, "device": gpu.name,
                   "n": n, "median_ms": median, "min_ms": min, "runs": runs, "ok": ok})
        );
    };
    report(
        "wgpu",
        pipeline(&gpu, &shader, &layout, kernel.entry(), kernel.zeroed()),
    );
    for form in forms {
        let (name, file) = form
            .split_once('=')
            .ok_or(format!("`{form}`: NAME=FILE.spv"))?;
        let (path, entry) = file.split_once('@').unwrap_or((file, kernel.entry()));
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // SAFETY: the SPIR-V is the same kernel, with the bindings of
        // `layout`; its loops terminate as above.
        let shader = unsafe {
            gpu.device
                .create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                    label: Some(name),
                    entry_points: Cow::Owned(vec![wgpu::PassthroughShaderEntryPoint {
                        name: Cow::Borrowed(entry),
                        workgroup_size: (kernel.block(), 1, 1),
                    }]),
                    spirv: Some(Cow::Owned(words)),
                    ..Default::default()
                })
        };
        report(
            name,
            pipeline(&gpu, &shader, &layout, entry, kernel.zeroed()),
        );
    }
    Ok(all_ok)
}

fn main() -> ExitCode {
    env_logger::init();
    let result = match Args::parse().command {
        Command::Emit { dir } => emit(&dir).map(|()| true),
        Command::Run {
            kernel,
            log2,
            runs,
            warmup,
            adapter,
            forms,
        } => run(kernel, log2, runs, warmup, adapter.as_deref(), &forms),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("a form's output differs from the CPU's");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("wavekit-codegen-probe: {e}");
            ExitCode::FAILURE
        }
    }
}
