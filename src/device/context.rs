//! What every device algorithm shares: the caller's device and its target,
//! composing a shader for it, compiling pipelines once, laying out temp
//! storage, and recording clears and dispatches into the caller's encoder.

use std::borrow::Cow;

use super::slice::{Range, SliceLimits};
use crate::compose::Composer;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

/// The caller's device, its target and its limits.
#[derive(Clone)]
pub(crate) struct Context {
    pub device: wgpu::Device,
    pub target: Target,
    pub info: wgpu::AdapterInfo,
    pub limits: SliceLimits,
}

/// A compiled entry point and its bind group layout (every binding of
/// group 0 the module declares, in binding order).
pub(crate) struct Pipeline {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    entry: String,
}

impl Context {
    /// The context of `device`, which must have been created with
    /// [`Target::wgpu_features`] (subgroups).
    pub fn new(device: &wgpu::Device) -> Result<Self, Error> {
        let target = Target::from_device(device)?;
        Ok(Context {
            device: device.clone(),
            target,
            info: device.adapter_info(),
            limits: SliceLimits::of(device),
        })
    }

    /// `source` with each `from` of `edits` (a declaration such as
    /// `alias T = f32;`, which must occur exactly once) replaced by its
    /// `to`, composed for the device.
    pub fn compose(
        &self,
        source: &str,
        file_name: &str,
        edits: &[(&str, &str)],
    ) -> Result<ValidModule, Error> {
        let mut text = source.to_string();
        for (from, to) in edits {
            match text.matches(from).count() {
                1 => {}
                0 => {
                    return Err(Error::Usage(format!(
                        "{file_name}: the declaration `{from}` to edit is not there"
                    )));
                }
                // A comment quoting the declaration would take the edit.
                count => {
                    return Err(Error::Usage(format!(
                        "{file_name}: the declaration `{from}` to edit is there {count} times"
                    )));
                }
            }
            text = text.replacen(from, to, 1);
        }
        Ok(Composer::new(self.target.clone())
            .compose(&text, file_name)?
            .module)
    }

    /// Compiles `entries` of `module`, without wgpu's loop bounding (see
    /// the safety note) and with its bounds checks.
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
    ) -> Result<[Pipeline; N], Error> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some("wavekit::device"),
            source: wgpu::ShaderSource::Naga(Cow::Owned(module.module.clone())),
        };
        let checks = wgpu::ShaderRuntimeChecks {
            force_loop_bounding: false,
            ..wgpu::ShaderRuntimeChecks::checked()
        };
        // SAFETY: every loop of the device shaders terminates: item loops
        // are counted, and the look-back spin loops end once the earlier
        // tiles publish, which they do where look-back is chosen (devices
        // that keep started workgroups running, `ScanAlgorithm::for_adapter`,
        // or a caller's explicit override). wgpu's loop bounding kept the
        // item loops rolled on NVIDIA's Vulkan driver, their private arrays
        // in local memory (H100, 2^24: scan 67 against 244 G items/s).
        let shader = unsafe { self.device.create_shader_module_trusted(descriptor, checks) };
        let layout = self
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("wavekit::device"),
                entries: &layout_entries(&module.module),
            });
        let pipeline_layout = self
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("wavekit::device"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let built = entries.map(|entry| Pipeline {
            pipeline: self
                .device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &shader,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                }),
            layout: layout.clone(),
            entry: entry.to_string(),
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(format!(
                "wavekit::device pipelines {:?}: {error}",
                entries
            )));
        }
        Ok(built)
    }

    /// Workgroups of a dispatch of at least `count`: one-dimensional up to
    /// the device's limit per dimension, then spilling into y (shaders take
    /// the linear index `wid.x + wid.y * nwg.x` and return past `count`).
    pub fn grid(&self, count: u32) -> [u32; 3] {
        let max = self
            .device
            .limits()
            .max_compute_workgroups_per_dimension
            .min(65535);
        if count <= max {
            [count.max(1), 1, 1]
        } else {
            [max, count.div_ceil(max), 1]
        }
    }
}

/// `source` with every read-only storage binding declared `read_write`:
/// wgpu refuses a buffer bound read-only and read-write in one dispatch,
/// so an algorithm whose inputs may share a buffer with its outputs or its
/// temp (the radix sort's ping-pong keys live in temp) declares them all
/// writable. The shader's code is unchanged.
pub(crate) fn writable(source: &str) -> String {
    source.replace("var<storage, read> ", "var<storage, read_write> ")
}

/// One command of an algorithm.
pub(crate) enum Op<'a> {
    /// `clear_buffer` of a range (outside compute passes).
    Clear(Range<'a>),
    /// A dispatch with bindings 0, 1, ... of group 0.
    Dispatch(&'a Pipeline, Vec<Range<'a>>, [u32; 3]),
}

/// Records `ops` into `encoder`: clears as `clear_buffer`, each run of
/// dispatches as one compute pass (wgpu orders dispatches within a pass).
pub(crate) fn record(device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, ops: &[Op<'_>]) {
    let mut at = 0;
    while at < ops.len() {
        match &ops[at] {
            Op::Clear(range) => {
                encoder.clear_buffer(range.buffer, range.offset, Some(range.size));
                at += 1;
            }
            Op::Dispatch(..) => {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("wavekit::device"),
                    timestamp_writes: None,
                });
                while let Some(Op::Dispatch(pipeline, ranges, grid)) = ops.get(at) {
                    let entries: Vec<wgpu::BindGroupEntry<'_>> = ranges
                        .iter()
                        .enumerate()
                        .map(|(i, range)| wgpu::BindGroupEntry {
                            binding: i as u32,
                            resource: range.binding(),
                        })
                        .collect();
                    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some(&pipeline.entry),
                        layout: &pipeline.layout,
                        entries: &entries,
                    });
                    pass.set_pipeline(&pipeline.pipeline);
                    pass.set_bind_group(0, &bind_group, &[]);
                    pass.dispatch_workgroups(grid[0], grid[1], grid[2]);
                    at += 1;
                }
            }
        }
    }
}

/// Byte offsets of the regions of a temp slice, each aligned for binding.
pub(crate) struct TempLayout {
    alignment: u64,
    end: u64,
}

impl TempLayout {
    pub fn new(limits: &SliceLimits) -> Self {
        TempLayout {
            alignment: limits.alignment.max(4),
            end: 0,
        }
    }

    /// Places a region of `bytes` (at least 4), returning its offset.
    pub fn place(&mut self, bytes: u64) -> (u64, u64) {
        let offset = self.end.next_multiple_of(self.alignment);
        let bytes = bytes.max(4).next_multiple_of(4);
        self.end = offset + bytes;
        (offset, bytes)
    }

    /// Total bytes.
    pub fn bytes(&self) -> u64 {
        self.end
    }
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
