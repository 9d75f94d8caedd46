//! The pre-expanded snippets in wgsl/ are fresh, and one of them works
//! pasted as-is into a plain wgpu program (no wavekit at run time).

use std::path::Path;

#[test]
fn snippets_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for snippet in wavekit::emit::snippets::snippets().expect("snippets generate") {
        let on_disk = std::fs::read_to_string(root.join(&snippet.path)).unwrap_or_default();
        assert!(
            on_disk == snippet.contents,
            "{} is stale: run `wavekit gen-snippets`",
            snippet.path
        );
    }
}

/// A plain wgpu program: the snippet for the adapter's subgroup size, an
/// entry point of ours, and wgpu's own WGSL front end.
#[test]
fn a_snippet_pasted_into_a_plain_wgpu_program() {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
        .into_iter()
        .find(|a| a.get_info().name.contains("llvmpipe"))
        .expect("lavapipe is installed by scripts/setup");
    let size = adapter.get_info().subgroup_min_size;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: wgpu::Features::SUBGROUP | wgpu::Features::SUBGROUP_BARRIER,
        ..Default::default()
    }))
    .expect("device");
    let snippet = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("wgsl/naga/s{size}-core.wgsl")),
    )
    .expect("a snippet for lavapipe's subgroup size");
    let shader = format!(
        "{snippet}
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) lanes: u32,
) {{
    wk_sg_init(lane, lanes);
    let x = data[id.x];
    data[id.x] = wk_sg_reduce_all_add__u32(x) * 1000u + wk_sg_inclusive_add_tiled__u32__2(x);
}}
"
    );
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(shader.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let input: Vec<u32> = (0..64u32).map(|i| i % 7).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    let data = wgpu::util::DeviceExt::create_buffer_init(
        &device,
        &wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        },
    );
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes.len() as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: data.as_entire_binding(),
        }],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&data, 0, &readback, 0, bytes.len() as u64);
    queue.submit([encoder.finish()]);
    readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let out: Vec<u32> = readback
        .slice(..)
        .get_mapped_range()
        .expect("mapped")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let s = size as usize;
    for (i, &got) in out.iter().enumerate() {
        let group = &input[i - i % s..i - i % s + s];
        let tile = &input[i - i % 4..=i];
        let want = group.iter().sum::<u32>() * 1000 + tile.iter().sum::<u32>();
        assert_eq!(got, want, "invocation {i}");
    }
}
