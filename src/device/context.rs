//! What every device algorithm shares: the caller's device and its target,
//! composing a shader for it, compiling pipelines once, laying out temp
//! storage, and recording clears and dispatches into the caller's encoder.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::ScanAlgorithm;
use super::backend::{Device, Queue};
use super::debug::LookBackDebug;
use super::slice::{Memory, Range, SliceLimits};
use crate::compose::Composer;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

/// The caller's device, its target and its limits.
#[derive(Clone)]
pub(crate) struct Context {
    pub api: Api,
    pub target: Target,
    pub limits: SliceLimits,
    /// The look-back switches in force where the context was made.
    pub look_back: LookBackDebug,
}

/// The API a context's device is on.
#[derive(Clone)]
pub(crate) enum Api {
    /// A wgpu device and its adapter.
    Wgpu {
        device: wgpu::Device,
        info: Box<wgpu::AdapterInfo>,
        /// `shaders/zero.wgsl`: clears recorded as dispatches in the
        /// algorithm's compute pass; compiled by [`Context::with_clears`],
        /// once per context and the contexts cloned from it.
        zero: Arc<OnceLock<Pipeline>>,
    },
    /// A CUDA context.
    #[cfg(feature = "native")]
    Cuda(std::sync::Arc<super::cuda::CudaApi>),
}

/// A compiled entry point: a wgpu pipeline and its bind group layout
/// (every binding of group 0 the module declares, in binding order), or a
/// loaded CUDA kernel.
pub(crate) enum Pipeline {
    Wgpu {
        pipeline: wgpu::ComputePipeline,
        layout: wgpu::BindGroupLayout,
        entry: String,
    },
    #[cfg(feature = "native")]
    Cuda(super::cuda::CudaPipeline),
}

impl Context {
    /// The context of `device`: a wgpu device must have been created with
    /// [`Target::wgpu_features`] (subgroups).
    pub fn new(device: Device<'_>) -> Result<Self, Error> {
        match device {
            Device::Wgpu(device) => {
                let target = Target::from_device(device)?;
                Ok(Context {
                    api: Api::Wgpu {
                        device: device.clone(),
                        info: Box::new(device.adapter_info()),
                        zero: Arc::new(OnceLock::new()),
                    },
                    target,
                    limits: SliceLimits::of(device),
                    look_back: LookBackDebug::current(),
                })
            }
            #[cfg(feature = "native")]
            Device::Cuda(context) => super::cuda::CudaApi::context(context),
        }
    }

    /// The context, ready to record [`Op::Clear`]: on wgpu its zero
    /// pipeline compiled (once; CUDA clears with a memset). Every algorithm
    /// that records clears builds its context with this.
    pub fn with_clears(self) -> Result<Self, Error> {
        if let Api::Wgpu { device, zero, .. } = &self.api
            && zero.get().is_none()
        {
            let module = self.compose(super::shaders::ZERO, "zero.wgsl", &[])?;
            let [pipeline] = wgpu_pipelines(device, &module, ["zero"])?;
            // A clone racing here compiled the same pipeline: keep either.
            let _ = zero.set(pipeline);
        }
        Ok(self)
    }

    /// The scan algorithm for the device ([`ScanAlgorithm::for_adapter`];
    /// the single pass on CUDA too).
    pub fn scan_algorithm(&self) -> ScanAlgorithm {
        match &self.api {
            Api::Wgpu { info, .. } => ScanAlgorithm::for_adapter(info),
            #[cfg(feature = "native")]
            Api::Cuda(_) => ScanAlgorithm::DecoupledLookBack,
        }
    }

    /// The edits of a shader with the look-back protocol
    /// (`shaders/look_back.wgsl`): its walk (`const WINDOW = true;`, one
    /// subgroup reading S predecessors a round, false on emulated
    /// subgroups: thread 0 alone) and [`Context::look_back_switches`].
    pub fn look_back_edits(&self) -> Vec<(&'static str, String)> {
        let window = !self.target.is_emulated();
        let mut edits = vec![("const WINDOW = true;", format!("const WINDOW = {window};"))];
        edits.extend(self.look_back_switches());
        edits
    }

    /// The look-back's `FALLBACK`, `STALL_EVERY` and `SPINS` edits: the
    /// fallback where the device needs it ([`Context::needs_fallback`]),
    /// and the context's debugging switches ([`LookBackDebug`]).
    pub fn look_back_switches(&self) -> Vec<(&'static str, String)> {
        self.look_back.edits(self.needs_fallback())
    }

    /// Whether the look-back shaders are built with the fallback: the
    /// device's need, unless the debugging switches say otherwise. Without
    /// it, the scan and the compaction run their `_plain` entry points.
    pub fn fallback(&self) -> bool {
        self.look_back.fallback.unwrap_or(self.needs_fallback())
    }

    /// Whether the look-back needs its fallback here: everywhere but where
    /// the scheduler keeps started workgroups running while others spin
    /// (CUDA; NVIDIA, AMD and Intel GPUs through wgpu, discrete or
    /// integrated, with hardware subgroups). There the plain look-back's code is faster (H100:
    /// the fallback's shape cost 2-13 % in the OneSweep sort and up to
    /// 2.8x in the Vulkan compaction,
    /// docs/benchmarks/2026-11-26a-h100-look-back-fallback), and it has
    /// never failed a checked run.
    pub fn needs_fallback(&self) -> bool {
        // The plain look-back's walk is one subgroup's: not on emulated
        // subgroups, whatever the device.
        if self.target.is_emulated() {
            return true;
        }
        match &self.api {
            Api::Wgpu { info, .. } => {
                let gpu = matches!(
                    info.device_type,
                    wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu
                );
                !(gpu && [0x10de, 0x1002, 0x8086].contains(&info.vendor))
            }
            #[cfg(feature = "native")]
            Api::Cuda(_) => false,
        }
    }

    /// Whether the device is a CPU adapter (lavapipe, WARP).
    pub fn is_cpu(&self) -> bool {
        match &self.api {
            Api::Wgpu { info, .. } => info.device_type == wgpu::DeviceType::Cpu,
            #[cfg(feature = "native")]
            Api::Cuda(_) => false,
        }
    }

    /// The wgpu device's limits, or `None` on CUDA.
    pub fn wgpu_limits(&self) -> Option<wgpu::Limits> {
        match &self.api {
            Api::Wgpu { device, .. } => Some(device.limits()),
            #[cfg(feature = "native")]
            Api::Cuda(_) => None,
        }
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

    /// Compiles `entries` of `module`, with bounds checks (wgpu: without
    /// its loop bounding, see the safety note).
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
    ) -> Result<[Pipeline; N], Error> {
        match &self.api {
            Api::Wgpu { device, .. } => wgpu_pipelines(device, module, entries),
            #[cfg(feature = "native")]
            Api::Cuda(cuda) => cuda.pipelines(
                module,
                entries,
                wavekit_native::BoundsChecks::Restrict.into(),
            ),
        }
    }

    /// [`Context::pipelines`], and on CUDA without bounds checks. wgpu keeps
    /// its checks and its zeroing of workgroup memory: without either or
    /// both, the OneSweep sort ran 1–4 % slower through Vulkan, and on CUDA
    /// without the zeroing 10 % slower (H100,
    /// docs/benchmarks/2026-11-25j-h100-workgroup-zeroing).
    ///
    /// # Safety
    ///
    /// Every array access of the entries stays in bounds for every input
    /// the algorithm accepts (the shader proves it in its comments).
    pub unsafe fn pipelines_proven<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
    ) -> Result<[Pipeline; N], Error> {
        match &self.api {
            #[cfg(feature = "native")]
            Api::Cuda(cuda) => cuda.pipelines(
                module,
                entries,
                wavekit_native::BoundsChecks::Unchecked.into(),
            ),
            _ => self.pipelines(module, entries),
        }
    }

    /// Workgroups of a dispatch of at least `count`: one-dimensional up to
    /// the device's limit per dimension (at most 65535), then spilling into
    /// y (shaders take the linear index `wid.x + wid.y * nwg.x` and return
    /// past `count`).
    pub fn grid(&self, count: u32) -> [u32; 3] {
        let max = self
            .wgpu_limits()
            .map_or(65535, |limits| limits.max_compute_workgroups_per_dimension)
            .min(65535);
        if count <= max {
            [count.max(1), 1, 1]
        } else {
            [max, count.div_ceil(max), 1]
        }
    }
}

/// Compiles `entries` of `module` on a wgpu device, without wgpu's loop
/// bounding (see the safety note) and with its bounds checks.
fn wgpu_pipelines<const N: usize>(
    device: &wgpu::Device,
    module: &ValidModule,
    entries: [&str; N],
) -> Result<[Pipeline; N], Error> {
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
    // tiles publish. wgpu's loop
    // bounding kept the item loops rolled on NVIDIA's Vulkan driver, their
    // private arrays in local memory (H100, 2^24: scan 67 against 244 G
    // items/s).
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
    let built = entries.map(|entry| Pipeline::Wgpu {
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
    });
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(Error::Gpu(format!(
            "wavekit::device pipelines {:?}: {error}",
            entries
        )));
    }
    Ok(built)
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
    /// Zeroes a range: on wgpu a dispatch of `shaders/zero.wgsl` in the
    /// algorithm's compute pass, on CUDA `cuMemsetD8Async`.
    Clear(Range<'a>),
    /// A dispatch with bindings 0, 1, ... of group 0.
    Dispatch(&'a Pipeline, Vec<Range<'a>>, [u32; 3]),
}

/// Puts `ops` in `queue`, which must be of `ctx`'s API.
pub(crate) fn record(ctx: &Context, queue: Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error> {
    match (&ctx.api, queue) {
        (Api::Wgpu { device, zero, .. }, Queue::Wgpu(encoder)) => {
            if zero.get().is_none() && ops.iter().any(|op| matches!(op, Op::Clear(_))) {
                return Err(Error::Gpu(
                    "wavekit::device: a clear on a context built without Context::with_clears"
                        .into(),
                ));
            }
            record_wgpu(ctx, device, zero.get(), encoder, ops);
            Ok(())
        }
        #[cfg(feature = "native")]
        (Api::Cuda(cuda), Queue::Cuda(stream)) => cuda.queue(stream, ops),
        #[cfg(feature = "native")]
        (Api::Wgpu { .. }, Queue::Cuda(_)) => Err(Error::Usage(
            "wavekit::device: an algorithm built on a wgpu device called on a CUDA stream".into(),
        )),
        #[cfg(feature = "native")]
        (Api::Cuda(_), Queue::Wgpu(_)) => Err(Error::Usage(
            "wavekit::device: an algorithm built on CUDA called on a wgpu command encoder".into(),
        )),
    }
}

/// Records `ops` into `encoder` as one compute pass (wgpu orders the
/// dispatches of a pass), clears as dispatches of `zero`: a
/// `clear_buffer` would end the pass and add a transfer barrier (H100
/// through Vulkan: 4–6 µs a call more, docs/benchmarks/2026-11-25i-h100-cuda-library).
fn record_wgpu(
    ctx: &Context,
    device: &wgpu::Device,
    zero: Option<&Pipeline>,
    encoder: &mut wgpu::CommandEncoder,
    ops: &[Op<'_>],
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("wavekit::device"),
        timestamp_writes: None,
    });
    for op in ops {
        let (pipeline, ranges, grid) = match op {
            Op::Clear(range) => (
                zero.unwrap_or_else(|| unreachable!("`record` checks the zero pipeline")),
                std::slice::from_ref(range),
                ctx.grid((range.size / 4).div_ceil(256) as u32),
            ),
            Op::Dispatch(pipeline, ranges, grid) => (*pipeline, ranges.as_slice(), *grid),
        };
        let Pipeline::Wgpu {
            pipeline,
            layout,
            entry,
        } = pipeline
        else {
            unreachable!("a wgpu context builds wgpu pipelines")
        };
        let entries: Vec<wgpu::BindGroupEntry<'_>> = ranges
            .iter()
            .enumerate()
            .map(|(i, range)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: wgpu_buffer(range),
                    offset: range.offset,
                    size: std::num::NonZeroU64::new(range.size.max(4)),
                }),
            })
            .collect();
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(entry),
            layout,
            entries: &entries,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(grid[0], grid[1], grid[2]);
    }
}

/// The wgpu buffer of a range of a wgpu algorithm's call.
fn wgpu_buffer<'a>(range: &Range<'a>) -> &'a wgpu::Buffer {
    match range.buffer {
        Memory::Wgpu(buffer) => buffer,
        #[cfg(feature = "native")]
        Memory::Cuda { .. } => unreachable!("slices are checked to be of the algorithm's API"),
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
