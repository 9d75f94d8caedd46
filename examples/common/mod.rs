//! What the `wavekit::device` examples share: a device opened as an
//! application opens its own (the first adapter with subgroup operations
//! whose name holds the command line's first argument, its limits and the
//! features its wavekit target needs), buffers, and the read-back of a
//! buffer's words after the recorded work. Each example uses what it needs.

#![allow(dead_code)]

use std::error::Error;

/// The adapter and its device and queue.
pub struct Gpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

/// Opens the first adapter with subgroup operations whose name holds the
/// first command-line argument (any, without one).
pub fn open() -> Result<Gpu, Box<dyn Error>> {
    let filter = std::env::args().nth(1).unwrap_or_default().to_lowercase();
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY))
        .into_iter()
        .find(|a| {
            a.features().contains(wgpu::Features::SUBGROUP)
                && a.get_info().name.to_lowercase().contains(&filter)
        })
        .ok_or("no adapter with subgroup operations")?;
    let target = wavekit::Target::from_adapter(&adapter)?;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: target.wgpu_features(),
        required_limits: adapter.limits(),
        ..Default::default()
    }))?;
    Ok(Gpu {
        adapter,
        device,
        queue,
    })
}

impl Gpu {
    /// A buffer of `bytes` for outputs and temp (`STORAGE`, readable back).
    pub fn storage(&self, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    }

    /// A `STORAGE` buffer holding `words`.
    pub fn upload<T: bytemuck::Pod>(&self, words: &[T]) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytemuck::cast_slice(words),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            })
    }

    /// Submits `encoder` with a copy of `buffer` after its work, and reads
    /// the copy's 4-byte words back.
    pub fn submit_and_read<T: bytemuck::Pod>(
        &self,
        mut encoder: wgpu::CommandEncoder,
        buffer: &wgpu::Buffer,
    ) -> Result<Vec<T>, Box<dyn Error>> {
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: buffer.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, buffer.size());
        self.queue.submit([encoder.finish()]);
        readback
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("maps"));
        self.device.poll(wgpu::PollType::wait_indefinitely())?;
        Ok(bytemuck::pod_collect_to_vec(
            &readback.slice(..).get_mapped_range()?,
        ))
    }

    /// Prints the example's line and turns a mismatch into an error.
    pub fn report(&self, what: &str, ok: bool) -> Result<(), Box<dyn Error>> {
        println!(
            "{}: {what}: {}",
            self.adapter.get_info().name,
            if ok { "matches the CPU" } else { "WRONG" }
        );
        if ok {
            Ok(())
        } else {
            Err(format!("{what}: differs from the CPU").into())
        }
    }
}
