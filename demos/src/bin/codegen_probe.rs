//! Issue 19, part 3: does the SPIR-V naga writes cost time on a Vulkan
//! driver, against the same kernel optimised by `spirv-opt` or written as
//! GLSL and compiled by `glslc`? One kernel, the device scan's
//! `scan_lookback` (`wavekit::device`'s shader, composed for fixed
//! subgroups of 32 as the library composes it on NVIDIA), timed alone with
//! GPU timestamps in each form, its output checked against the CPU.
//!
//! Here (no GPU needed), write the forms the tools start from:
//!
//!   wavekit-codegen-probe emit DIR
//!
//! writes `DIR/naga.spv` (naga's SPIR-V with the options wgpu's Vulkan
//! back end uses on a device with `robustBufferAccess2`: indices clamped,
//! buffers left to the driver, workgroup memory zeroed by the driver, no
//! loop bounding, as the library asks) and `DIR/naga.comp` (naga's GLSL 450
//! of the same module, the same bounds policies, workgroup memory zeroed by
//! the shader). Then
//!
//!   spirv-opt -O --target-env=vulkan1.3 DIR/naga.spv -o DIR/opt.spv
//!   glslc --target-env=vulkan1.3 -O -fshader-stage=comp DIR/naga.comp -o DIR/glslc.spv
//!
//! and on the GPU:
//!
//!   wavekit-codegen-probe run --log2 24 --runs 20 naga=DIR/naga.spv opt=DIR/opt.spv glslc=DIR/glslc.spv@main
//!
//! which times `wgpu` (the module handed to wgpu as the library hands it)
//! and each SPIR-V file (through `create_shader_module_passthrough`), one
//! JSON line per form.

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;
use wavekit::compose::Composer;
use wavekit::{Backend, SubgroupSize, Target};

/// Scan tile: 8192 u32 (scan.wgsl's TILE_QUADS vec4s).
const TILE: usize = 8192;
const ENTRY: &str = "scan_lookback";
const BLOCK: u32 = 256;

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write naga.spv and naga.comp into DIR.
    Emit { dir: PathBuf },
    /// Time each form on the first GPU adapter (or `--adapter`).
    Run {
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
        /// when the entry point is not `scan_lookback`: glslc names it
        /// `main`).
        forms: Vec<String>,
    },
}

fn module(target: Target) -> Result<wavekit::expand::ValidModule, String> {
    Composer::new(target)
        .compose(wavekit::device::shaders::SCAN, "scan.wgsl")
        .map(|composed| composed.module)
        .map_err(|e| e.to_string())
}

fn emit(dir: &PathBuf) -> Result<(), String> {
    let target = Target::new(
        Backend::Vulkan,
        SubgroupSize::fixed(32).map_err(|e| e.to_string())?,
    );
    let valid = module(target)?;
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
        entry_point: ENTRY.into(),
    };
    let words =
        naga::back::spv::write_vec(&valid.module, &valid.info, &spv_options, Some(&pipeline))
            .map_err(|e| format!("SPIR-V: {e}"))?;
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(
        dir.join("naga.spv"),
        bytemuck::cast_slice::<u32, u8>(&words),
    )
    .map_err(|e| e.to_string())?;
    let mut binding_map = naga::back::glsl::BindingMap::default();
    for binding in 0..4 {
        binding_map.insert(naga::ResourceBinding { group: 0, binding }, binding as u8);
    }
    let glsl_options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(450),
        binding_map,
        zero_initialize_workgroup_memory: true,
        ..Default::default()
    };
    let glsl_pipeline = naga::back::glsl::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: ENTRY.into(),
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
    std::fs::write(dir.join("naga.comp"), text).map_err(|e| e.to_string())?;
    Ok(())
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
) -> wgpu::ComputePipeline {
    let pipeline_layout = gpu
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(ENTRY),
            bind_group_layouts: &[Some(layout)],
            immediate_size: 0,
        });
    gpu.device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(ENTRY),
            layout: Some(&pipeline_layout),
            module: shader,
            entry_point: Some(entry),
            compilation_options: Default::default(),
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

/// Median and minimum ms of `runs` timed dispatches after `warmup`, and
/// whether the output matched the CPU's exclusive scan.
fn time(
    gpu: &Gpu,
    pipeline: &wgpu::ComputePipeline,
    layout: &wgpu::BindGroupLayout,
    input: &[u32],
    runs: usize,
    warmup: usize,
) -> (f64, f64, bool) {
    let n = input.len();
    let tiles = n.div_ceil(TILE);
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let input_buffer = buffer(gpu, 4 * n as u64, usage);
    gpu.queue
        .write_buffer(&input_buffer, 0, bytemuck::cast_slice(input));
    let output = buffer(gpu, 4 * n as u64, usage);
    let state = buffer(gpu, 8 * tiles as u64, usage);
    let counter = buffer(gpu, 4, usage);
    let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout,
        entries: &[&input_buffer, &output, &state, &counter]
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect::<Vec<_>>(),
    });
    let queries = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2,
    });
    let resolved = buffer(
        gpu,
        16,
        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
    );
    let period = f64::from(gpu.queue.get_timestamp_period());
    let mut times = Vec::new();
    for run in 0..warmup + runs {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&state, 0, None);
        encoder.clear_buffer(&counter, 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: Some(1),
                }),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(tiles as u32, 1, 1);
        }
        encoder.resolve_query_set(&queries, 0..2, &resolved, 0);
        gpu.queue.submit([encoder.finish()]);
        let stamps: Vec<u64> = bytemuck::cast_slice(&read(gpu, &resolved, 16)).to_vec();
        if run >= warmup {
            times.push((stamps[1] - stamps[0]) as f64 * period / 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    let got: Vec<u32> = bytemuck::cast_slice(&read(gpu, &output, 4 * n as u64)).to_vec();
    let mut sum = 0u32;
    let ok = input.iter().zip(&got).all(|(&x, &y)| {
        let before = sum;
        sum = sum.wrapping_add(x);
        y == before
    });
    (times[times.len() / 2], times[0], ok)
}

fn run(
    log2: u32,
    runs: usize,
    warmup: usize,
    adapter: Option<&str>,
    forms: &[String],
) -> Result<bool, String> {
    let gpu = open(adapter)?;
    let layout = gpu
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(ENTRY),
            entries: &[
                storage(true, 0),
                storage(false, 1),
                storage(false, 2),
                storage(false, 3),
            ],
        });
    let n = 1usize << log2;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 24)
        .collect();
    let mut all_ok = true;
    let mut report = |form: &str, pipeline: wgpu::ComputePipeline| {
        let (median, min, ok) = time(&gpu, &pipeline, &layout, &input, runs, warmup);
        all_ok &= ok;
        println!(
            "{}",
            json!({"probe": "codegen", "kernel": ENTRY, "form": form, "device": gpu.name, "n": n,
                   "median_ms": median, "min_ms": min, "runs": runs, "ok": ok})
        );
    };
    // The library's way: the composed naga module, wgpu's bounds checks,
    // no loop bounding (src/device/context.rs).
    let target = Target::new(
        Backend::Vulkan,
        SubgroupSize::fixed(32).map_err(|e| e.to_string())?,
    );
    let valid = module(target)?;
    // SAFETY: the scan's loops terminate (its spin ends once earlier
    // tiles publish, which they do on this GPU); the library builds it so.
    let shader = unsafe {
        gpu.device.create_shader_module_trusted(
            wgpu::ShaderModuleDescriptor {
                label: Some("wgpu"),
                source: wgpu::ShaderSource::Naga(Cow::Owned(valid.module)),
            },
            wgpu::ShaderRuntimeChecks {
                force_loop_bounding: false,
                ..wgpu::ShaderRuntimeChecks::checked()
            },
        )
    };
    report("wgpu", pipeline(&gpu, &shader, &layout, ENTRY));
    for form in forms {
        let (name, file) = form
            .split_once('=')
            .ok_or(format!("`{form}`: NAME=FILE.spv"))?;
        let (path, entry) = file.split_once('@').unwrap_or((file, ENTRY));
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // SAFETY: the SPIR-V is the same scan, with the bindings of
        // `layout`; its loops terminate as above.
        let shader = unsafe {
            gpu.device
                .create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                    label: Some(name),
                    entry_points: Cow::Owned(vec![wgpu::PassthroughShaderEntryPoint {
                        name: Cow::Borrowed(entry),
                        workgroup_size: (BLOCK, 1, 1),
                    }]),
                    spirv: Some(Cow::Owned(words)),
                    ..Default::default()
                })
        };
        report(name, pipeline(&gpu, &shader, &layout, entry));
    }
    Ok(all_ok)
}

fn main() -> ExitCode {
    env_logger::init();
    let result = match Args::parse().command {
        Command::Emit { dir } => emit(&dir).map(|()| true),
        Command::Run {
            log2,
            runs,
            warmup,
            adapter,
            forms,
        } => run(log2, runs, warmup, adapter.as_deref(), &forms),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("a form's output differs from the CPU's scan");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("wavekit-codegen-probe: {e}");
            ExitCode::FAILURE
        }
    }
}
