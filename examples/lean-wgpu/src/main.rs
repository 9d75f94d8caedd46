//! A wgpu application that depends on `wavekit` with default features only
//! (no runner, no LLVM, no CLI crates): it expands one op, composes a shader
//! that imports wavekit's subgroup library for the adapter's subgroup sizes,
//! emits it as WGSL and runs it through plain wgpu, then checks every value
//! against the CPU.
//!
//! `cargo run --manifest-path examples/lean-wgpu/Cargo.toml [adapter-name]`
//! (on a machine without a GPU: `llvmpipe`, Mesa's lavapipe).

use std::process::ExitCode;

use wavekit::compose::Composer;
use wavekit::emit::{Emitted, Language, emit};
use wavekit::{Backend, Library, SubgroupSize, Target};

/// Invocations per workgroup, and workgroups.
const WORKGROUP: u32 = 64;
const WORKGROUPS: u32 = 16;

/// Each invocation writes the inclusive prefix sum of its subgroup, its
/// subgroup's total and the subgroup size.
const SHADER: &str = "#import wavekit::subgroup as sg
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> prefix: array<u32>;
@group(0) @binding(2) var<storage, read_write> total: array<u32>;
@group(0) @binding(3) var<storage, read_write> width: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = input[id.x];
    prefix[id.x] = sg::inclusive_add<u32>(x);
    total[id.x] = sg::reduce_all_add<u32>(x);
    width[id.x] = sg::group_size();
}
";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let filter = std::env::args().nth(1).map(|s| s.to_lowercase());
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::PRIMARY;
    let instance = wgpu::Instance::new(descriptor);
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
    let adapter = adapters
        .into_iter()
        .find(|a| {
            let name = a.get_info().name.to_lowercase();
            let subgroups = a.features().contains(wgpu::Features::SUBGROUP);
            subgroups && filter.as_ref().is_none_or(|f| name.contains(f))
        })
        .ok_or("no adapter with subgroup operations (try `llvmpipe`)")?;
    let info = adapter.get_info();

    // The target: what wavekit expands for. An application without
    // wavekit's `wgpu` feature fills it from the adapter itself.
    let sizes = SubgroupSize::range(info.subgroup_min_size, info.subgroup_max_size)
        .map_err(|e| e.to_string())?;
    let target = Target::new(Backend::Vulkan, sizes);
    println!(
        "adapter: {} ({:?}), target {target}",
        info.name, info.backend
    );

    // One op expanded on its own: straight-line WGSL for the target.
    let expansion = Library::new(target.clone())
        .expand_strs(&["reduce_all_add<u32>"])
        .map_err(|e| e.to_string())?;
    println!(
        "expanded reduce_all_add<u32>: {} lines of WGSL",
        expansion.wgsl().lines().count()
    );

    // A shader with wavekit imports, composed, validated and written as WGSL.
    let composed = Composer::new(target)
        .compose(SHADER, "example.wgsl")
        .map_err(|e| e.to_string())?;
    let Emitted::Text(wgsl) =
        emit(&composed.module, Language::Wgsl, None).map_err(|e| e.to_string())?
    else {
        return Err("WGSL is text".into());
    };

    let n = (WORKGROUP * WORKGROUPS) as usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2654435761) % 1000)
        .collect();
    let (prefix, total, width) = dispatch(&adapter, &wgsl, &input)?;
    check(&input, &prefix, &total, width)?;
    println!("PASS: {n} invocations, subgroups of {width}, prefix sums and totals match the CPU");
    Ok(())
}

/// Runs the shader over `input`; returns the prefix sums, the totals and the
/// subgroup size the dispatch ran with.
fn dispatch(
    adapter: &wgpu::Adapter,
    wgsl: &str,
    input: &[u32],
) -> Result<(Vec<u32>, Vec<u32>, usize), String> {
    use wgpu::util::DeviceExt;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    }))
    .map_err(|e| e.to_string())?;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("example"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("example"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bytes = (input.len() * 4) as u64;
    let input_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("input"),
        contents: bytemuck::cast_slice(input),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let storage = |label| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    };
    let (prefix, total, width) = (storage("prefix"), storage("total"), storage("width"));
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: 3 * bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input_buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: prefix.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: total.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: width.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(WORKGROUPS, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&prefix, 0, &readback, 0, bytes);
    encoder.copy_buffer_to_buffer(&total, 0, &readback, bytes, bytes);
    encoder.copy_buffer_to_buffer(&width, 0, &readback, 2 * bytes, bytes);
    queue.submit([encoder.finish()]);
    let slice = readback.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| e.to_string())?;
    let bytes = slice
        .get_mapped_range()
        .map_err(|e| e.to_string())?
        .to_vec();
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
    let n = input.len();
    let (prefix, total, width) = (&words[..n], &words[n..2 * n], &words[2 * n..]);
    // One subgroup size for the whole dispatch (wavekit's contract).
    if width.iter().any(|&w| w != width[0]) {
        return Err("the dispatch ran with several subgroup sizes".into());
    }
    let width = width[0] as usize;
    Ok((prefix.to_vec(), total.to_vec(), width))
}

/// Every subgroup's prefix sums and total against the CPU.
fn check(input: &[u32], prefix: &[u32], total: &[u32], width: usize) -> Result<(), String> {
    if width == 0 || !width.is_power_of_two() || !(WORKGROUP as usize).is_multiple_of(width) {
        return Err(format!(
            "subgroups of {width} lanes: not a power of two dividing 64"
        ));
    }
    for (g, lanes) in input.chunks(width).enumerate() {
        let mut sum = 0u32;
        let expected_total: u32 = lanes.iter().sum();
        for (lane, &x) in lanes.iter().enumerate() {
            let i = g * width + lane;
            sum += x;
            if prefix[i] != sum || total[i] != expected_total {
                return Err(format!(
                    "invocation {i}: prefix {} total {}, expected {sum} and {expected_total}",
                    prefix[i], total[i]
                ));
            }
        }
    }
    Ok(())
}
