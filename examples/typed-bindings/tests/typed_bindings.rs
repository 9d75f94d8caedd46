//! The build-time composed shader, dispatched on lavapipe through the typed
//! bindings wgsl_to_wgpu generated for it.

use wavekit_example_typed_bindings::normalise;
use wgpu::util::DeviceExt;

#[test]
fn normalise_through_typed_bindings() {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
        .into_iter()
        .find(|a| a.get_info().name.contains("llvmpipe"))
        .expect("lavapipe is installed by scripts/setup");
    let subgroup = adapter.get_info().subgroup_min_size as usize;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    }))
    .expect("device");
    let n = 256usize;
    let input: Vec<f32> = (0..n).map(|i| (i % 9 + 1) as f32).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let storage = |size: usize| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: size as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    };
    let input_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &bytes,
        usage: wgpu::BufferUsages::STORAGE,
    });
    let (normalised, prefix) = (storage(4 * n), storage(4 * n));
    let bind_group = normalise::bind_groups::BindGroup0::from_bindings(
        &device,
        normalise::bind_groups::BindGroupLayout0 {
            input: input_buffer.as_entire_buffer_binding(),
            normalised: normalised.as_entire_buffer_binding(),
            prefix_1: prefix.as_entire_buffer_binding(),
        },
    );
    let pipeline = normalise::compute::create_main_pipeline(&device);
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 8 * n as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        bind_group.set(&mut pass);
        let [x, _, _] = normalise::compute::MAIN_WORKGROUP_SIZE;
        pass.dispatch_workgroups(n as u32 / x, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&normalised, 0, &readback, 0, 4 * n as u64);
    encoder.copy_buffer_to_buffer(&prefix, 0, &readback, 4 * n as u64, 4 * n as u64);
    queue.submit([encoder.finish()]);
    readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let words: Vec<u32> = readback
        .slice(..)
        .get_mapped_range()
        .expect("mapped")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for i in 0..n {
        let group = &input[i - i % subgroup..i - i % subgroup + subgroup];
        let want = input[i] / group.iter().sum::<f32>();
        let got = f32::from_bits(words[i]);
        assert!(
            (got - want).abs() <= 1e-6,
            "normalised[{i}] = {got}, want {want}"
        );
        let block = i - i % 128;
        let want_prefix: u32 = input[block..i].iter().map(|&x| x as u32).sum();
        assert_eq!(words[n + i], want_prefix, "prefix[{i}]");
    }
}
