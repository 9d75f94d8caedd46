//! What every device algorithm shares: the caller's device and its target,
//! composing a shader for it, compiling pipelines once, laying out temp
//! storage, and recording clears and dispatches into the caller's encoder.

use super::ScanAlgorithm;
use super::debug::LookBackDebug;
use super::shader::Shader;
use super::slice::{Slice, SliceLimits};
use crate::backend::{Checks, Device, Queue, Range, Server, grid};
use crate::compose::Composer;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Strategy, Target};

pub(crate) use crate::backend::{Op, Pipeline};

/// PCI vendor ids of wgpu adapters.
const NVIDIA: u32 = 0x10de;
const AMD: u32 = 0x1002;
const INTEL: u32 = 0x8086;

/// The caller's device (its API's [`Server`]), its target and its limits.
#[derive(Clone)]
pub(crate) struct Context {
    pub server: Server,
    pub target: Target,
    pub limits: SliceLimits,
    /// The look-back switches in force where the context was made.
    pub look_back: LookBackDebug,
}

impl Context {
    /// The context of `device`: a wgpu device must have been created with
    /// [`Target::wgpu_features`] (subgroups).
    pub fn new(device: Device<'_>) -> Result<Self, Error> {
        let server = Server::open(device)?;
        Ok(Context {
            target: server.target().clone(),
            limits: SliceLimits::of(&server),
            server,
            look_back: LookBackDebug::current(),
        })
    }

    /// The context, ready to record [`Op::Clear`]: on wgpu its zero
    /// pipeline compiled (once; natively clears are memsets). Every
    /// algorithm that records clears builds its context with this.
    pub fn with_clears(self) -> Result<Self, Error> {
        if let Some(wgpu) = self.server.wgpu()
            && !wgpu.has_zero()
        {
            let module = self.compose(&Shader::new("zero.wgsl")?)?;
            wgpu.set_zero(&module)?;
        }
        Ok(self)
    }

    /// The scan algorithm for the device ([`ScanAlgorithm::for_adapter`];
    /// natively the single pass).
    pub fn scan_algorithm(&self) -> ScanAlgorithm {
        match self.server.wgpu() {
            Some(wgpu) => ScanAlgorithm::for_adapter(wgpu.info()),
            None => ScanAlgorithm::DecoupledLookBack,
        }
    }

    /// The parameters of a shader with the look-back protocol
    /// (`shaders/look_back.wgsl`): its walk (`WINDOW`: one subgroup
    /// reading S predecessors a round; false on emulated subgroups, thread
    /// 0 alone) and [`Context::look_back_switches`].
    pub fn look_back_params(&self) -> Vec<(&'static str, String)> {
        let window = !self.target.is_emulated();
        let mut params = vec![("WINDOW", window.to_string())];
        params.extend(self.look_back_switches());
        params
    }

    /// The look-back's `FALLBACK`, `STALL_EVERY` and `SPINS` parameters:
    /// the fallback where the device needs it ([`Context::needs_fallback`]),
    /// and the context's debugging switches ([`LookBackDebug`]).
    pub fn look_back_switches(&self) -> Vec<(&'static str, String)> {
        self.look_back.params(self.needs_fallback())
    }

    /// Whether the look-back shaders are built with the fallback: the
    /// device's need, unless the debugging switches say otherwise. Without
    /// it, the scan and the compaction run their `_plain` entry points.
    pub fn fallback(&self) -> bool {
        self.look_back.fallback.unwrap_or(self.needs_fallback())
    }

    /// Whether the look-back needs its fallback here: everywhere but where
    /// the scheduler keeps started workgroups running while others spin
    /// (CUDA, HIP; NVIDIA, AMD and Intel GPUs through wgpu, discrete or
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
        match self.server.wgpu() {
            Some(wgpu) => {
                let info = wgpu.info();
                let gpu = matches!(
                    info.device_type,
                    wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu
                );
                !(gpu && [NVIDIA, AMD, INTEL].contains(&info.vendor))
            }
            // CUDA and HIP: NVIDIA's and AMD's schedulers.
            None => false,
        }
    }

    /// Whether the device is native (CUDA, HIP), not a wgpu device: where
    /// algorithms pick their native shapes and forms.
    pub fn is_native(&self) -> bool {
        self.server.wgpu().is_none()
    }

    /// Whether the device is a CPU adapter (lavapipe, WARP).
    pub fn is_cpu(&self) -> bool {
        self.server
            .wgpu()
            .is_some_and(|wgpu| wgpu.info().device_type == wgpu::DeviceType::Cpu)
    }

    /// `shader` with its parameters set, composed for the device.
    pub fn compose(&self, shader: &Shader) -> Result<ValidModule, Error> {
        self.compose_text(&shader.text()?, shader.name())
    }

    /// WGSL `text` (named `file_name` in errors) composed for the device.
    pub fn compose_text(&self, text: &str, file_name: &str) -> Result<ValidModule, Error> {
        compose_for(self.target.clone(), text, file_name)
    }

    /// `shader` composed as [`Context::compose`] does, its subgroup ops
    /// lowered as `strategy` says rather than as the device's target does.
    pub fn compose_lowered(
        &self,
        shader: &Shader,
        strategy: Strategy,
    ) -> Result<ValidModule, Error> {
        let mut target = self.target.clone();
        target.strategy = strategy;
        compose_for(target, &shader.text()?, shader.name())
    }

    /// Whether the device is an NVIDIA GPU through Vulkan, with hardware
    /// subgroups, whose target lowers subgroup ops by default: no tune
    /// profile of the adapter is stored ([`crate::target::profile`]), and
    /// the caller set no strategy.
    pub fn is_untuned_nvidia_vulkan(&self) -> bool {
        self.server.wgpu().is_some_and(|wgpu| {
            let info = wgpu.info();
            info.vendor == NVIDIA && info.backend == wgpu::Backend::Vulkan
        }) && !self.target.is_emulated()
            && self.target.strategy == Strategy::default()
    }

    /// Compiles `entries` of `module`, with bounds checks (wgpu: without
    /// its loop bounding, see [`crate::backend`]'s wgpu server).
    pub fn pipelines<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
    ) -> Result<[Pipeline; N], Error> {
        self.pipelines_resident(module, entries, None)
    }

    /// [`Context::pipelines`], natively for `resident` workgroups a
    /// multiprocessor at once where given (as
    /// [`Context::pipelines_proven_resident`]).
    pub fn pipelines_resident<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        resident: Option<u32>,
    ) -> Result<[Pipeline; N], Error> {
        self.server
            .pipelines(module, entries, Checks::Bounded, resident)
    }

    /// [`Context::pipelines`], and natively without bounds checks. wgpu
    /// keeps its checks and its zeroing of workgroup memory: without either
    /// or both, the OneSweep sort ran 1–4 % slower through Vulkan, and on
    /// CUDA without the zeroing 10 % slower (H100,
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
        self.server.pipelines(module, entries, Checks::Proven, None)
    }

    /// [`Context::pipelines_proven`], natively for `workgroups` workgroups
    /// a multiprocessor at once (as CUDA's `__launch_bounds__(threads,
    /// workgroups)`: the registers capped to fit them); wgpu leaves the
    /// registers to the driver.
    ///
    /// # Safety
    ///
    /// As [`Context::pipelines_proven`]'s.
    pub unsafe fn pipelines_proven_resident<const N: usize>(
        &self,
        module: &ValidModule,
        entries: [&str; N],
        workgroups: u32,
    ) -> Result<[Pipeline; N], Error> {
        self.server
            .pipelines(module, entries, Checks::Proven, Some(workgroups))
    }

    /// Workgroups of a dispatch of at least `count`: one-dimensional up to
    /// the device's limit per dimension (at most 65535), then spilling into
    /// y (shaders take the linear index `wid.x + wid.y * nwg.x` and return
    /// past `count`).
    pub fn grid(&self, count: u32) -> [u32; 3] {
        grid(count, self.server.max_workgroups())
    }

    /// The wgpu device's limits; `None` natively.
    pub fn wgpu_limits(&self) -> Option<wgpu::Limits> {
        self.server.wgpu().map(|wgpu| wgpu.limits())
    }
}

/// WGSL `text` (named `file_name` in errors) composed for `target`.
fn compose_for(target: Target, text: &str, file_name: &str) -> Result<ValidModule, Error> {
    Ok(Composer::new(target).compose(text, file_name)?.module)
}

/// Puts `ops` in `queue`, which must be of `ctx`'s API.
pub(crate) fn record(ctx: &Context, queue: Queue<'_>, ops: &[Op<'_>]) -> Result<(), Error> {
    ctx.server.record(queue, ops)
}

/// Byte offsets of the regions of a temp slice, each aligned for binding.
pub(crate) struct TempLayout {
    alignment: u64,
    end: u64,
    /// The largest region's bytes: what a kernel binds of temp at most.
    largest: u64,
}

impl TempLayout {
    pub fn new(limits: &SliceLimits) -> Self {
        TempLayout {
            alignment: limits.alignment.max(4),
            end: 0,
            largest: 0,
        }
    }

    /// Places a region of `bytes` (at least 4), returning its offset.
    pub fn place(&mut self, bytes: u64) -> (u64, u64) {
        let offset = self.end.next_multiple_of(self.alignment);
        let bytes = bytes.max(4).next_multiple_of(4);
        self.end = offset + bytes;
        self.largest = self.largest.max(bytes);
        (offset, bytes)
    }

    /// Total bytes.
    pub fn bytes(&self) -> u64 {
        self.end
    }

    /// `temp` checked as [`SliceLimits::check`] checks a slice to hold
    /// [`TempLayout::bytes`], except that the whole may exceed the
    /// device's largest binding: kernels bind temp's regions, never all of
    /// it, so each region must fit one (a radix sort of 2^28 pairs through
    /// wgpu takes 2.2 GB of temp in regions of 1 GiB).
    pub fn check<'a>(
        &self,
        limits: &SliceLimits,
        algorithm: &str,
        temp: Slice<'a>,
    ) -> Result<Range<'a>, Error> {
        if self.largest > limits.max_binding {
            return Err(Error::Usage(format!(
                "{algorithm}: `temp`: a region of {} bytes exceeds the device's \
                 max_storage_buffer_binding_size {}",
                self.largest, limits.max_binding
            )));
        }
        let whole = SliceLimits {
            max_binding: u64::MAX,
            ..*limits
        };
        whole.check(algorithm, "temp", temp, self.bytes())
    }
}
