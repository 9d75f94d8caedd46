//! The wgpu back end of the runner: pipelines from naga modules, storage
//! and uniform buffers bound by group and number, dispatch and read-back.

use std::borrow::Cow;
use std::mem::ManuallyDrop;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use wgpu::util::DeviceExt;

use super::wgpu_layout::{check_groups, group_entries};
use super::{AdapterChoice, Binding, KernelOptions, Slot, buffer_bindings};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{SubgroupChoice, Target};

/// An opened wgpu device.
pub struct WgpuDevice {
    /// Dropped unless a wait timed out ([`Drop`]).
    device: ManuallyDrop<wgpu::Device>,
    queue: ManuallyDrop<wgpu::Queue>,
    info: wgpu::AdapterInfo,
    target: Target,
    /// How long a wait may take (`None`: for ever).
    wait_limit: Mutex<Option<Duration>>,
    /// Whether a wait ran past the limit: the device may still be running
    /// the work it waited for.
    timed_out: AtomicBool,
}

impl Drop for WgpuDevice {
    /// Drops the device, unless a wait timed out: wgpu's queue waits for
    /// the device to go idle when dropped, and a kernel that never ends
    /// would hang the host there, so the device and queue are leaked (the
    /// process's exit ends the work).
    fn drop(&mut self) {
        if !self.timed_out.load(Ordering::Relaxed) {
            // SAFETY: dropped once, here, and never used after.
            unsafe {
                ManuallyDrop::drop(&mut self.queue);
                ManuallyDrop::drop(&mut self.device);
            }
        }
    }
}

/// A compute pipeline ready to dispatch.
pub struct WgpuKernel {
    pipeline: wgpu::ComputePipeline,
    entry: String,
    /// Bind group layouts of the pipeline: groups `0..groups`.
    groups: u32,
}

impl WgpuKernel {
    /// The pipeline.
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    /// The entry point's name.
    pub fn entry(&self) -> &str {
        &self.entry
    }
}

impl WgpuDevice {
    /// Opens the adapter `choice` selects, with the features its target needs.
    pub fn open(choice: &AdapterChoice) -> Result<WgpuDevice, Error> {
        let adapter = choice.select()?;
        let info = adapter.get_info();
        let target = match choice.subgroups {
            SubgroupChoice::Auto => Target::from_adapter(&adapter)?,
            SubgroupChoice::Emulated(size) => Target::from_adapter_emulated(&adapter, size)?,
        };
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("wavekit"),
            // Timestamp queries, where the adapter has them, time dispatches
            // on the GPU (`Gpu::time`); inside encoders, they bracket a
            // program's recorded steps (`Step::Record`).
            required_features: target.wgpu_features()
                | (adapter.features()
                    & (wgpu::Features::TIMESTAMP_QUERY
                        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)),
            required_limits: limits,
            ..Default::default()
        }))
        .map_err(|e| Error::Gpu(format!("cannot open `{}`: {e}", info.name)))?;
        Ok(WgpuDevice {
            device: ManuallyDrop::new(device),
            queue: ManuallyDrop::new(queue),
            info,
            target,
            wait_limit: Mutex::new(None),
            timed_out: AtomicBool::new(false),
        })
    }

    /// The adapter's description.
    pub fn info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The target the adapter offers.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Sets how long a wait for the device may take (`None`: for ever).
    pub fn set_wait_limit(&self, limit: Option<Duration>) {
        *self.wait_limit.lock().unwrap_or_else(|e| e.into_inner()) = limit;
    }

    /// Waits for everything submitted, within the wait limit; `what` names
    /// what is waited for in the error.
    pub(super) fn wait(&self, what: &str) -> Result<(), Error> {
        let limit = *self.wait_limit.lock().unwrap_or_else(|e| e.into_inner());
        let poll = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: limit,
        });
        match (poll, limit) {
            (Ok(_), _) => Ok(()),
            (Err(wgpu::PollError::Timeout), Some(limit)) => {
                self.timed_out.store(true, Ordering::Relaxed);
                Err(Error::Timeout {
                    what: what.to_string(),
                    limit,
                })
            }
            (Err(e), _) => Err(Error::Gpu(format!("{what}: {e}"))),
        }
    }

    /// The wgpu device, for callers that build their own pipelines.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Builds a compute pipeline for entry point `entry` of `module`.
    pub fn kernel(
        &self,
        module: &ValidModule,
        entry: &str,
        options: KernelOptions,
    ) -> Result<WgpuKernel, Error> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some(entry),
            source: wgpu::ShaderSource::Naga(Cow::Owned(module.module.clone())),
        };
        let shader = if options == KernelOptions::default() {
            self.device.create_shader_module(descriptor)
        } else {
            let checks = wgpu::ShaderRuntimeChecks {
                force_loop_bounding: options.loop_bounding(),
                bounds_checks: options.bounds_checks(),
                ..wgpu::ShaderRuntimeChecks::checked()
            };
            // SAFETY: `KernelOptions::without_loop_bounding` and
            // `without_bounds_checks`, the only ways to turn a check off,
            // are unsafe: their callers promised that every loop of the
            // module terminates, or that every access is in bounds.
            unsafe { self.device.create_shader_module_trusted(descriptor, checks) }
        };
        // Explicit layouts keep every declared binding, used or not, so
        // callers can always bind buffers by slot.
        let declared = buffer_bindings(&module.module);
        check_groups(entry, &declared, self.device.limits().max_bind_groups)?;
        let bind_group_layouts: Vec<wgpu::BindGroupLayout> = group_entries(&declared)
            .iter()
            .map(|entries| {
                self.device
                    .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: Some(entry),
                        entries,
                    })
            })
            .collect();
        let layouts: Vec<Option<&wgpu::BindGroupLayout>> =
            bind_group_layouts.iter().map(Some).collect();
        let pipeline_layout = self
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(entry),
                bind_group_layouts: &layouts,
                immediate_size: 0,
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &shader,
                entry_point: Some(entry),
                // SAFETY of `false`: `KernelOptions::without_workgroup_zeroing`
                // is unsafe; its caller promised every workgroup word is
                // written before it is read.
                compilation_options: wgpu::PipelineCompilationOptions {
                    zero_initialize_workgroup_memory: options.workgroup_zeroing(),
                    ..Default::default()
                },
                cache: None,
            });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!("pipeline `{entry}`: {error}")));
        }
        Ok(WgpuKernel {
            pipeline,
            entry: entry.to_string(),
            groups: bind_group_layouts.len() as u32,
        })
    }

    /// Dispatches `kernel` over `workgroups` with buffers bound by
    /// `@binding` number (group 0); returns the contents of the buffers
    /// read back, in list order. The host-side checks are
    /// [`super::Gpu::run_at`]'s.
    pub fn run_at(
        &self,
        kernel: &WgpuKernel,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let bound: Vec<(Slot, Binding<'_>)> = numbered
            .iter()
            .map(|(binding, b)| (Slot::new(0, *binding), *b))
            .collect();
        self.run_slots(kernel, &bound, workgroups)
    }

    /// Dispatches `kernel` over `workgroups` with buffers bound at their
    /// slots; returns the contents of the buffers read back
    /// ([`Binding::Output`], [`Binding::ReadWrite`]), in the order of
    /// `bound`. The host-side checks are [`super::Gpu::run_slots`]'s.
    pub fn run_slots(
        &self,
        kernel: &WgpuKernel,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (buffers, bind_groups) = self.bind(kernel, bound);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&kernel.pipeline);
            for (group, bind_group) in bind_groups.iter().enumerate() {
                pass.set_bind_group(group as u32, bind_group, &[]);
            }
            pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        }
        let staging: Vec<(wgpu::Buffer, u64)> = buffers
            .iter()
            .zip(bound)
            .filter(|(_, (_, binding))| binding.read_back())
            .map(|(buffer, (_, binding))| (buffer, binding.bytes()))
            .map(|(buffer, wanted)| {
                let size = buffer.size();
                let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("wavekit readback"),
                    size,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, size);
                (readback, wanted)
            })
            .collect();
        self.queue.submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!(
                "dispatch of `{}`: {error}",
                kernel.entry
            )));
        }
        for (buffer, _) in &staging {
            buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        self.wait(&format!("running `{}`", kernel.entry))?;
        staging
            .into_iter()
            .map(|(buffer, wanted)| {
                let data = buffer
                    .slice(..)
                    .get_mapped_range()
                    .map_err(|e| Error::Gpu(format!("reading back `{}`: {e}", kernel.entry)))?
                    .to_vec();
                buffer.unmap();
                Ok(data[..wanted as usize].to_vec())
            })
            .collect()
    }

    /// The buffers of `bound` (inputs, read-write buffers and uniforms
    /// uploaded, outputs zeroed), in list order, and a bind group for each
    /// of the pipeline's groups, in group order.
    fn bind(
        &self,
        kernel: &WgpuKernel,
        bound: &[(Slot, Binding<'_>)],
    ) -> (Vec<wgpu::Buffer>, Vec<wgpu::BindGroup>) {
        let storage = wgpu::BufferUsages::STORAGE;
        let read_back = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
            self.device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents: padded(data).as_ref(),
                    usage,
                })
        };
        let buffers: Vec<wgpu::Buffer> = bound
            .iter()
            .map(|(_, binding)| match binding {
                Binding::Input(data) => init("wavekit input", data, storage),
                Binding::ReadWrite(data) => init("wavekit read-write", data, read_back),
                Binding::Uniform(data) => {
                    init("wavekit uniform", data, wgpu::BufferUsages::UNIFORM)
                }
                Binding::Output { size } => self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("wavekit output"),
                    size: (*size).max(4).next_multiple_of(4),
                    usage: read_back,
                    mapped_at_creation: false,
                }),
            })
            .collect();
        let bind_groups = (0..kernel.groups)
            .map(|group| {
                let layout = kernel.pipeline.get_bind_group_layout(group);
                let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
                    .iter()
                    .zip(bound)
                    .filter(|(_, (slot, _))| slot.group == group)
                    .map(|(buffer, (slot, _))| wgpu::BindGroupEntry {
                        binding: slot.binding,
                        resource: buffer.as_entire_binding(),
                    })
                    .collect();
                self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some(&kernel.entry),
                    layout: &layout,
                    entries: &entries,
                })
            })
            .collect();
        (buffers, bind_groups)
    }

    /// Times `runs` dispatches (after `warmup` untimed ones) with GPU
    /// timestamps written at the start and end of each compute pass;
    /// returns each run's milliseconds. The buffers stay on the GPU.
    pub fn time_at(
        &self,
        kernel: &WgpuKernel,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let bound: Vec<(Slot, Binding<'_>)> = numbered
            .iter()
            .map(|(binding, b)| (Slot::new(0, *binding), *b))
            .collect();
        self.time_slots(kernel, &bound, workgroups, warmup, runs)
    }

    /// Like [`WgpuDevice::time_at`], with buffers bound at their slots.
    pub fn time_slots(
        &self,
        kernel: &WgpuKernel,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        self.require_timestamps()?;
        let runs = runs.max(1);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (_buffers, bind_groups) = self.bind(kernel, bound);
        let count = 2 * runs as u32;
        let queries = self.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("wavekit timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        for run in 0..warmup + runs {
            let timed = run.checked_sub(warmup).map(|i| 2 * i as u32);
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: timed.map(|at| wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(at),
                    end_of_pass_write_index: Some(at + 1),
                }),
            });
            pass.set_pipeline(&kernel.pipeline);
            for (group, bind_group) in bind_groups.iter().enumerate() {
                pass.set_bind_group(group as u32, bind_group, &[]);
            }
            pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        }
        self.queue.submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!("timing `{}`: {error}", kernel.entry)));
        }
        self.resolve_timestamps(&queries, count)
    }

    /// Fails unless the device was opened with timestamp queries.
    pub(super) fn require_timestamps(&self) -> Result<(), Error> {
        if self
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            Ok(())
        } else {
            Err(Error::Gpu(format!(
                "`{}` has no timestamp queries, so dispatches cannot be timed on the GPU",
                self.info.name
            )))
        }
    }

    /// Waits for the queue and returns the milliseconds between timestamps
    /// `2i` and `2i + 1` of `queries`, for each `i`.
    pub(super) fn resolve_timestamps(
        &self,
        queries: &wgpu::QuerySet,
        count: u32,
    ) -> Result<Vec<f64>, Error> {
        let bytes = 8 * u64::from(count);
        let resolved = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wavekit timestamps"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wavekit timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.resolve_query_set(queries, 0..count, &resolved, 0);
        encoder.copy_buffer_to_buffer(&resolved, 0, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        self.wait("reading timestamps")?;
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(
            &readback
                .slice(..)
                .get_mapped_range()
                .map_err(|e| Error::Gpu(format!("reading timestamps: {e}")))?,
        );
        // wgpu resolves a query nothing wrote as 0: a recorded step that
        // recorded no pass (a call with nothing to do) leaves its run
        // untimed.
        if ticks.contains(&0) {
            return Err(Error::Usage(
                "timing a program: a run wrote no timestamps (a recorded step that recorded \
                 nothing, as a call on 0 elements does, cannot be timed alone)"
                    .into(),
            ));
        }
        let period_ns = f64::from(self.queue.get_timestamp_period());
        Ok(ticks
            .chunks_exact(2)
            .map(|pair| pair[1].saturating_sub(pair[0]) as f64 * period_ns / 1e6)
            .collect())
    }
}

/// Storage and uniform buffers must be a non-zero multiple of 4 bytes.
fn padded(data: &[u8]) -> Cow<'_, [u8]> {
    if !data.is_empty() && data.len().is_multiple_of(4) {
        Cow::Borrowed(data)
    } else {
        let mut v = data.to_vec();
        v.resize(data.len().max(4).next_multiple_of(4), 0);
        Cow::Owned(v)
    }
}
