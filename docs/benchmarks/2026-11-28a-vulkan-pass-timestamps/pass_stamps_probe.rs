//! The probe of call 4 (2026-11-28a): the GPU time of 0-3 dispatches in one
//! wgpu compute pass, timed by the pass's own timestamps and by timestamps
//! the encoder writes around the pass (as the demos' runner timed a library
//! call until this record), and wavekit::device's Reduce and Scan timed the
//! second way. Not part of the build: it ran as `demos/src/bin/floor_tmp.rs`
//! (`cargo build --release --features native -p wavekit-demos --bin
//! floor_tmp`, stripped into the pack as `floor_tmp`). Call 3 ran its first
//! version: pass timestamps alone, one pipeline, 0-4 dispatches of 4 and of
//! 4096 workgroups.
use std::borrow::Cow;
use wavekit::device::{Reduce, ReduceOp, ReduceType, Scan};

type Rec<'a> = dyn Fn(&mut wgpu::CommandEncoder, Option<(&wgpu::QuerySet, u32)>) + 'a;

fn time(device: &wgpu::Device, queue: &wgpu::Queue, label: &str, rec: &Rec<'_>) {
    let runs = 200u32;
    let qs = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2 * runs,
    });
    for r in 0..runs + 20 {
        let mut enc = device.create_command_encoder(&Default::default());
        rec(&mut enc, (r >= 20).then(|| (&qs, 2 * (r - 20))));
        queue.submit([enc.finish()]);
    }
    let bytes = 16 * u64::from(runs);
    let resolve = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let read = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = device.create_command_encoder(&Default::default());
    enc.resolve_query_set(&qs, 0..2 * runs, &resolve, 0);
    enc.copy_buffer_to_buffer(&resolve, 0, &read, 0, bytes);
    queue.submit([enc.finish()]);
    read.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let data = read.slice(..).get_mapped_range().unwrap();
    let ts: &[u64] = bytemuck::cast_slice(&data);
    let period = queue.get_timestamp_period() as f64;
    let mut us: Vec<f64> = ts
        .chunks(2)
        .map(|c| (c[1].wrapping_sub(c[0])) as f64 * period / 1000.0)
        .collect();
    us.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{label}: median {:.2} us, min {:.2}, p90 {:.2}",
        us[us.len() / 2],
        us[0],
        us[us.len() * 9 / 10]
    );
}

fn pass_writes(t: Option<(&wgpu::QuerySet, u32)>) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
    t.map(|(q, i)| wgpu::ComputePassTimestampWrites {
        query_set: q,
        beginning_of_pass_write_index: Some(i),
        end_of_pass_write_index: Some(i + 1),
    })
}

fn main() {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default())).unwrap();
    println!("{:?}", adapter.get_info().name);
    let target = wavekit::Target::from_adapter(&adapter).unwrap();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: target.wgpu_features()
            | wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .unwrap();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(
            "@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
             @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
                 if g.x < arrayLength(&buf) { buf[g.x] = buf[g.x] + 1u; }
             }",
        )),
    });
    let pipe = |_: u32| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        })
    };
    let pipes = [pipe(0), pipe(1)];
    let storage = |bytes: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    };
    let bufs = [storage(4096), storage(4096)];
    let bgs: Vec<wgpu::BindGroup> = (0..2)
        .map(|i| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipes[i].get_bind_group_layout(0),
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: bufs[i].as_entire_binding(),
                }],
            })
        })
        .collect();
    for k in 0..=3u32 {
        time(&device, &queue, &format!("pass stamps, {k} dispatches, one pipeline"), &|enc, t| {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: pass_writes(t),
            });
            pass.set_pipeline(&pipes[0]);
            pass.set_bind_group(0, &bgs[0], &[]);
            for _ in 0..k {
                pass.dispatch_workgroups(4, 1, 1);
            }
        });
        time(&device, &queue, &format!("encoder stamps, {k} dispatches, one pipeline"), &|enc, t| {
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i);
            }
            {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipes[0]);
                pass.set_bind_group(0, &bgs[0], &[]);
                for _ in 0..k {
                    pass.dispatch_workgroups(4, 1, 1);
                }
            }
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i + 1);
            }
        });
        time(&device, &queue, &format!("pass stamps, {k} dispatches, two pipelines and buffers"), &|enc, t| {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: pass_writes(t),
            });
            for j in 0..k as usize {
                pass.set_pipeline(&pipes[j % 2]);
                pass.set_bind_group(0, &bgs[j % 2], &[]);
                pass.dispatch_workgroups(4, 1, 1);
            }
        });
    }
    for log2 in [10u32, 20] {
        let n = 1u32 << log2;
        let input = storage(4 * u64::from(n));
        let output = storage(4 * u64::from(n));
        let result = storage(4);
        let reduce = Reduce::new(&device, ReduceOp::Sum, ReduceType::F32).unwrap();
        let temp = storage(reduce.temp_storage_bytes(n).max(4));
        time(&device, &queue, &format!("encoder stamps, Reduce 2^{log2}"), &|enc, t| {
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i);
            }
            reduce
                .record(&mut *enc, (&input).into(), (&result).into(), n, (&temp).into())
                .unwrap();
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i + 1);
            }
        });
        let scan = Scan::exclusive_sum(&device, wavekit::Dtype::U32).unwrap();
        let temp = storage(scan.temp_storage_bytes(n).max(4));
        time(&device, &queue, &format!("encoder stamps, Scan 2^{log2}"), &|enc, t| {
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i);
            }
            scan.record(&mut *enc, (&input).into(), (&output).into(), n, (&temp).into())
                .unwrap();
            if let Some((q, i)) = t {
                enc.write_timestamp(q, i + 1);
            }
        });
    }
}
