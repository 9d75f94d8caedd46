//! The wgpu [`Api`]: pipelines compiled from the validated module (naga
//! IR, no WGSL round trip), and ops recorded into the caller's command
//! encoder as one compute pass.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::api::{Api, ApiKind};
use super::memory::{Memory, Range};
use super::op::{Checks, Op, Pipeline, grid};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

/// A wgpu compute pipeline and its bind group layout (every binding of
/// group 0 the module declares, in binding order).
pub(crate) struct WgpuPipeline {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    entry: String,
}

/// A wgpu device, as an algorithm holds it.
#[derive(Clone)]
pub(crate) struct WgpuServer {
    device: wgpu::Device,
    info: Arc<wgpu::AdapterInfo>,
    target: Target,
    /// `zero` of `shaders/zero.wgsl`: clears recorded as dispatches in the
    /// algorithm's compute pass; set by [`WgpuServer::set_zero`], once per
    /// server and the servers cloned from it.
    zero: Arc<OnceLock<WgpuPipeline>>,
}

impl WgpuServer {
    /// The server of `device`, created with
    /// [`Target::wgpu_features`](crate::Target::wgpu_features).
    pub fn new(device: &wgpu::Device) -> Result<Self, Error> {
        Ok(WgpuServer {
            device: device.clone(),
            info: Arc::new(device.adapter_info()),
            target: Target::from_device(device)?,
            zero: Arc::new(OnceLock::new()),
        })
    }

    /// The adapter's description.
    pub fn info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The device's limits.
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// Whether the zero pipeline is there ([`WgpuServer::set_zero`]).
    pub fn has_zero(&self) -> bool {
        self.zero.get().is_some()
    }

    /// Compiles entry `zero` of `module` (`shaders/zero.wgsl` composed for
    /// the device) as the pipeline [`Op::Clear`] dispatches.
    pub fn set_zero(&self, module: &ValidModule) -> Result<(), Error> {
        if self.has_zero() {
            return Ok(());
        }
        let pipeline = compile_all(&self.device, module, &["zero"])?.pop();
        // A clone racing here compiled the same pipeline: keep either.
        if let Some(pipeline) = pipeline {
            let _ = self.zero.set(pipeline);
        }
        Ok(())
    }
}

impl Api for WgpuServer {
    /// The caller's encoder, and the timestamps the call's pass writes
    /// ([`Queue::WgpuTimed`](super::Queue::WgpuTimed)).
    type Queue<'q> = (
        &'q mut wgpu::CommandEncoder,
        Option<wgpu::ComputePassTimestampWrites<'q>>,
    );
    const KIND: ApiKind = ApiKind::Wgpu;

    fn target(&self) -> &Target {
        &self.target
    }

    fn bind_limits(&self) -> (u64, u64) {
        let limits = self.device.limits();
        (
            u64::from(limits.min_storage_buffer_offset_alignment),
            limits.max_storage_buffer_binding_size,
        )
    }

    fn max_workgroups(&self) -> u32 {
        self.device
            .limits()
            .max_compute_workgroups_per_dimension
            .min(65535)
    }

    /// wgpu keeps its bounds checks whatever `checks` says, and leaves
    /// the registers to the driver whatever `resident` says.
    fn pipelines(
        &self,
        module: &ValidModule,
        entries: &[&str],
        _checks: Checks,
        _resident: Option<u32>,
    ) -> Result<Vec<Pipeline>, Error> {
        Ok(compile_all(&self.device, module, entries)?
            .into_iter()
            .map(Pipeline::new)
            .collect())
    }

    /// Records `ops` as one compute pass (wgpu orders the dispatches of a
    /// pass), clears as dispatches of the zero pipeline: a `clear_buffer`
    /// would end the pass and add a transfer barrier (H100 through Vulkan:
    /// 4–6 µs a call more, docs/benchmarks/2026-11-25i-h100-cuda-library).
    /// The pass writes `timestamp_writes` ([`Queue::WgpuTimed`](super::Queue::WgpuTimed)).
    fn record(
        &self,
        (encoder, timestamp_writes): Self::Queue<'_>,
        ops: &[Op<'_>],
    ) -> Result<(), Error> {
        let zero = self.zero.get();
        if zero.is_none() && ops.iter().any(|op| matches!(op, Op::Clear(_))) {
            return Err(Error::Gpu(
                "wavekit::device: a clear on a wgpu server without its zero pipeline".into(),
            ));
        }
        if let Some(writes) = &timestamp_writes {
            check_timestamp_writes(writes)?;
        }
        // Calls check their slices, and temp by its regions
        // (`TempLayout::check`); a range over the limit here would be
        // wgpu's validation error, which panics by default.
        let max_binding = self.bind_limits().1;
        for op in ops {
            let ranges = match op {
                Op::Clear(range) => std::slice::from_ref(range),
                Op::Dispatch(_, ranges, _) => ranges.as_slice(),
            };
            if let Some(range) = ranges.iter().find(|range| range.size > max_binding) {
                return Err(Error::Usage(format!(
                    "wavekit::device: a binding of {} bytes exceeds the device's \
                     max_storage_buffer_binding_size {max_binding}",
                    range.size
                )));
            }
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wavekit::device"),
            timestamp_writes,
        });
        for op in ops {
            let (pipeline, ranges, grid) = match op {
                Op::Clear(range) => (
                    zero.unwrap_or_else(|| unreachable!("checked above")),
                    std::slice::from_ref(range),
                    grid((range.size / 4).div_ceil(256) as u32, self.max_workgroups()),
                ),
                Op::Dispatch(pipeline, ranges, grid) => (
                    pipeline.of::<WgpuPipeline>().ok_or_else(|| {
                        Error::Gpu(
                            "wavekit::device: a native pipeline recorded on a wgpu device".into(),
                        )
                    })?,
                    ranges.as_slice(),
                    *grid,
                ),
            };
            let entries = ranges
                .iter()
                .enumerate()
                .map(|(i, range)| {
                    Ok(wgpu::BindGroupEntry {
                        binding: i as u32,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: buffer(range)?,
                            offset: range.offset,
                            size: std::num::NonZeroU64::new(range.size.max(4)),
                        }),
                    })
                })
                .collect::<Result<Vec<_>, Error>>()?;
            let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&pipeline.entry),
                layout: &pipeline.layout,
                entries: &entries,
            });
            pass.set_pipeline(&pipeline.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid[0], grid[1], grid[2]);
        }
        Ok(())
    }
}

/// The caller's pass timestamps ([`Queue::WgpuTimed`](super::Queue::WgpuTimed))
/// as wgpu validates them, before anything is recorded: a query set of
/// timestamps, at least one index, each within the set, two different.
/// wgpu's own validation error would come at submission and panic by
/// default.
fn check_timestamp_writes(writes: &wgpu::ComputePassTimestampWrites<'_>) -> Result<(), Error> {
    let fail = |why: String| {
        Err(Error::Usage(format!(
            "wavekit::device: the call's timestamp writes: {why}"
        )))
    };
    let set = writes.query_set;
    if !matches!(set.ty(), wgpu::QueryType::Timestamp) {
        return fail(format!(
            "the query set holds {:?} queries, not timestamps",
            set.ty()
        ));
    }
    let indices = [
        writes.beginning_of_pass_write_index,
        writes.end_of_pass_write_index,
    ];
    if indices == [None, None] {
        return fail("neither index is given".into());
    }
    if let Some(index) = indices.into_iter().flatten().find(|&i| i >= set.count()) {
        return fail(format!(
            "index {index} is outside the query set of {} queries",
            set.count()
        ));
    }
    if let [Some(begin), Some(end)] = indices
        && begin == end
    {
        return fail(format!("the beginning and the end are both index {begin}"));
    }
    Ok(())
}

/// The wgpu buffer of a range (slices are checked to be of the algorithm's
/// API before anything is recorded).
fn buffer<'a>(range: &Range<'a>) -> Result<&'a wgpu::Buffer, Error> {
    match range.buffer {
        Memory::Wgpu(buffer) => Ok(buffer),
        #[cfg(feature = "native")]
        _ => Err(Error::Gpu(
            "wavekit::device: native memory bound on a wgpu device".into(),
        )),
    }
}

/// Compiles `entries` of `module` on a wgpu device, without wgpu's loop
/// bounding (see the safety note) and with its bounds checks, sharing one
/// shader module and one layout.
fn compile_all(
    device: &wgpu::Device,
    module: &ValidModule,
    entries: &[&str],
) -> Result<Vec<WgpuPipeline>, Error> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let descriptor = wgpu::ShaderModuleDescriptor {
        label: Some("wavekit::device"),
        source: wgpu::ShaderSource::Naga(Cow::Owned(module.module.clone())),
    };
    let checks = wgpu::ShaderRuntimeChecks {
        force_loop_bounding: false,
        ..wgpu::ShaderRuntimeChecks::checked()
    };
    // SAFETY: every loop of the device shaders terminates: item loops
    // are counted, and the look-back's spins are bounded (a walk that
    // waits SPINS rounds falls back, `shaders/look_back.wgsl`) or, without
    // the fallback (`Context::needs_fallback`: devices that keep started
    // workgroups running, or the `debug` switch), end once the earlier
    // tiles publish. wgpu's loop bounding kept the item loops rolled on
    // NVIDIA's Vulkan driver, their private arrays in local memory (H100,
    // 2^24: scan 67 against 244 G items/s).
    let shader = unsafe { device.create_shader_module_trusted(descriptor, checks) };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("wavekit::device"),
        entries: &layout_entries(&module.module),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("wavekit::device"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let built = entries
        .iter()
        .map(|&entry| WgpuPipeline {
            pipeline: device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &shader,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            }),
            layout: layout.clone(),
            entry: entry.to_string(),
        })
        .collect();
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(Error::Gpu(format!(
            "wavekit::device pipelines {entries:?}: {error}"
        )));
    }
    Ok(built)
}

/// Layout entries for the buffers a module declares in group 0 (storage and
/// uniform), in binding order: an explicit layout keeps every declared
/// binding, used or not, so callers can bind buffers by position.
pub(crate) fn layout_entries(module: &naga::Module) -> Vec<wgpu::BindGroupLayoutEntry> {
    let mut entries: Vec<wgpu::BindGroupLayoutEntry> = module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let binding = var.binding.as_ref().filter(|b| b.group == 0)?;
            let ty = match var.space {
                naga::AddressSpace::Storage { access } => wgpu::BufferBindingType::Storage {
                    read_only: !access.contains(naga::StorageAccess::STORE),
                },
                naga::AddressSpace::Uniform => wgpu::BufferBindingType::Uniform,
                _ => return None,
            };
            Some(wgpu::BindGroupLayoutEntry {
                binding: binding.binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
        })
        .collect();
    entries.sort_by_key(|e| e.binding);
    entries
}
