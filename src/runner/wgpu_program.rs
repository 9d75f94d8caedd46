//! Programs of several dispatches on the wgpu back end: buffers that stay
//! on the GPU, one compute pass per dispatch (so wgpu orders each dispatch
//! after the writes of the ones before it), timestamps around a run.

use super::program::{Buffer, BufferInner, Step, foreign, leading_zeros};
use super::wgpu_device::WgpuDevice;
use crate::backend::Queue;
use crate::error::Error;

impl WgpuDevice {
    /// A storage buffer of `size` bytes (rounded up to a non-zero multiple of
    /// 4, as storage bindings must be), zeroed or holding `data`.
    pub(super) fn buffer(&self, size: u64, data: Option<&[u8]>) -> Result<wgpu::Buffer, Error> {
        let padded = size.max(4).next_multiple_of(4);
        let scope = self
            .device()
            .push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self
            .device()
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let buffer = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("wavekit resident"),
            size: padded,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: data.is_some(),
        });
        if let Some(data) = data {
            let mut mapped = buffer
                .slice(..)
                .get_mapped_range_mut()
                .map_err(|e| Error::Gpu(format!("filling a buffer of {size} bytes: {e}")))?;
            mapped.slice(..data.len()).copy_from_slice(data);
            drop(mapped);
            buffer.unmap();
        }
        for scope in [validation, scope] {
            if let Some(error) = pollster::block_on(scope.pop()) {
                return Err(Error::Gpu(format!("a buffer of {size} bytes: {error}")));
            }
        }
        Ok(buffer)
    }

    /// Waits for the queue and copies `size` bytes of `buffer` back.
    pub(super) fn read(&self, buffer: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, Error> {
        let readback = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("wavekit readback"),
            size: buffer.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device().create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, buffer.size());
        self.queue().submit([encoder.finish()]);
        readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        self.wait("a read-back")?;
        let data = readback
            .slice(..)
            .get_mapped_range()
            .map_err(|e| Error::Gpu(format!("reading back: {e}")))?[..size as usize]
            .to_vec();
        Ok(data)
    }

    /// Runs `steps` and waits for them.
    pub(super) fn execute(&self, steps: &[Step<'_>]) -> Result<(), Error> {
        let scope = self
            .device()
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let bind_groups = self.bind_groups(steps)?;
        let mut encoder = self.device().create_command_encoder(&Default::default());
        self.encode(&mut encoder, steps, &bind_groups, None)?;
        self.queue().submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!("running a program: {error}")));
        }
        self.wait("running a program")?;
        Ok(())
    }

    /// Runs `steps` `warmup + runs` times; each of the last `runs` is timed
    /// from a timestamp before its first step after the leading zeros to one
    /// after its last step.
    pub(super) fn time_program(
        &self,
        steps: &[Step<'_>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        self.require_timestamps()?;
        let runs = runs.max(1);
        let scope = self
            .device()
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let bind_groups = self.bind_groups(steps)?;
        let count = 2 * runs as u32;
        let queries = self.device().create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("wavekit program timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        // One submission per run keeps command buffers small for long
        // programs (a radix sort is tens of dispatches).
        for run in 0..warmup + runs {
            let mut encoder = self.device().create_command_encoder(&Default::default());
            let timed = run.checked_sub(warmup).map(|i| (&queries, 2 * i as u32));
            self.encode(&mut encoder, steps, &bind_groups, timed)?;
            self.queue().submit([encoder.finish()]);
        }
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!("timing a program: {error}")));
        }
        self.resolve_timestamps(&queries, count)
    }

    /// Encodes the steps; with `timed`, writes timestamps `at` and `at + 1`
    /// around the steps after the leading zeros, on the first and last
    /// dispatch's passes, or on empty passes where a clear, copy or
    /// recorded step stands there.
    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        steps: &[Step<'_>],
        bind_groups: &[Option<wgpu::BindGroup>],
        timed: Option<(&wgpu::QuerySet, u32)>,
    ) -> Result<(), Error> {
        let first = leading_zeros(steps);
        let last = steps.len().saturating_sub(1);
        // The timestamp writes of a pass that opens and / or closes the span.
        let stamps = |begin: bool, end: bool| {
            timed
                .filter(|_| begin || end)
                .map(|(query_set, at)| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: begin.then_some(at),
                    end_of_pass_write_index: end.then_some(at + 1),
                })
        };
        // Where a clear, copy or recorded step stands: the timestamps
        // written in the encoder where the device can, else an empty pass
        // carrying them (on an H100 through Vulkan those cost 1.5–2 µs a
        // run more: docs/benchmarks/2026-11-25i-h100-cuda-library).
        let inside = self
            .device()
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS);
        let marker = |encoder: &mut wgpu::CommandEncoder,
                      writes: Option<wgpu::ComputePassTimestampWrites<'_>>| {
            match writes {
                Some(w) if inside => {
                    for index in [w.beginning_of_pass_write_index, w.end_of_pass_write_index]
                        .into_iter()
                        .flatten()
                    {
                        encoder.write_timestamp(w.query_set, index);
                    }
                }
                Some(w) => drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("wavekit timestamp"),
                    timestamp_writes: Some(w),
                })),
                None => {}
            }
        };
        for (i, (step, bind_group)) in steps.iter().zip(bind_groups).enumerate() {
            if matches!(step, Step::Dispatch { .. }) {
                let writes = stamps(i == first, i == last);
                self.encode_step(encoder, step, bind_group.as_ref(), writes)?;
            } else if let Step::Record(record) = step
                && i == first
                && i == last
                && let Some(writes) = stamps(true, true)
            {
                // A recorded step that is the whole span (a library call):
                // its compute pass writes the timestamps, as a dispatch's
                // does. Timestamps written by the encoder would also time
                // wgpu's reset of the end query and the pass's barriers
                // (H100 through Vulkan: 4.5-4.8 µs a run,
                // docs/benchmarks/2026-11-28a-vulkan-pass-timestamps).
                record(Queue::WgpuTimed(encoder, writes))?;
            } else {
                marker(encoder, stamps(i == first, false));
                self.encode_step(encoder, step, None, None)?;
                marker(encoder, stamps(false, i == last && i >= first));
            }
        }
        if first == steps.len() {
            // Nothing but clears: an empty span.
            marker(encoder, stamps(true, true));
        }
        Ok(())
    }

    fn encode_step(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        step: &Step<'_>,
        bind_group: Option<&wgpu::BindGroup>,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) -> Result<(), Error> {
        match step {
            Step::Dispatch {
                kernel, workgroups, ..
            } => {
                let kernel = kernel.wgpu().ok_or_else(|| foreign("a dispatch"))?;
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes,
                });
                pass.set_pipeline(kernel.pipeline());
                pass.set_bind_group(0, bind_group, &[]);
                pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
            }
            Step::Zero(buffer) => encoder.clear_buffer(wgpu_buffer(buffer)?, 0, None),
            Step::Record(record) => record(Queue::Wgpu(encoder))?,
            Step::Copy { src, dst } => {
                let bytes = src.size().min(dst.size()).next_multiple_of(4);
                let (src, dst) = (wgpu_buffer(src)?, wgpu_buffer(dst)?);
                encoder.copy_buffer_to_buffer(
                    src,
                    0,
                    dst,
                    0,
                    bytes.min(src.size()).min(dst.size()),
                );
            }
        }
        Ok(())
    }

    /// A bind group for each dispatch (group 0, buffer `i` at binding `i`).
    fn bind_groups(&self, steps: &[Step<'_>]) -> Result<Vec<Option<wgpu::BindGroup>>, Error> {
        steps
            .iter()
            .map(|step| {
                let Step::Dispatch {
                    kernel, buffers, ..
                } = step
                else {
                    return Ok(None);
                };
                let kernel = kernel.wgpu().ok_or_else(|| foreign("a dispatch"))?;
                let entries = buffers
                    .iter()
                    .enumerate()
                    .map(|(i, buffer)| {
                        Ok(wgpu::BindGroupEntry {
                            binding: i as u32,
                            resource: wgpu_buffer(buffer)?.as_entire_binding(),
                        })
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                Ok(Some(self.device().create_bind_group(
                    &wgpu::BindGroupDescriptor {
                        label: Some(kernel.entry()),
                        layout: &kernel.pipeline().get_bind_group_layout(0),
                        entries: &entries,
                    },
                )))
            })
            .collect()
    }
}

fn wgpu_buffer(buffer: &Buffer) -> Result<&wgpu::Buffer, Error> {
    match &buffer.inner {
        BufferInner::Wgpu(b) => Ok(b),
        #[cfg(feature = "native")]
        _ => Err(foreign("a wgpu step")),
    }
}
