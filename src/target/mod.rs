//! What expansion and lowering depend on: the back end, the subgroup size,
//! the optional scalar types and the lowering strategy of each op.

#[cfg(feature = "wgpu")]
mod adapter;
#[cfg(feature = "wgpu")]
pub mod profile;
mod strategy;

pub use strategy::{Lowering, Strategy};

use std::fmt;

use crate::dtype::{Dtype, ScalarFeature};
use crate::error::Error;

/// The API or native back end a module is produced for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// Vulkan through wgpu (SPIR-V).
    Vulkan,
    /// Metal through wgpu (MSL).
    Metal,
    /// Direct3D 12 through wgpu (HLSL).
    Dx12,
    /// OpenGL (ES) through wgpu (GLSL).
    Gl,
    /// The browser's WebGPU (WGSL).
    WebGpu,
    /// CUDA, natively (PTX).
    Cuda,
    /// HIP, natively (AMDGPU code objects).
    Hip,
}

impl Backend {
    /// Lower-case name, as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::Metal => "metal",
            Backend::Dx12 => "dx12",
            Backend::Gl => "gl",
            Backend::WebGpu => "webgpu",
            Backend::Cuda => "cuda",
            Backend::Hip => "hip",
        }
    }

    /// Every back end, in the order the CLI lists them.
    pub const ALL: [Backend; 7] = [
        Backend::Vulkan,
        Backend::Metal,
        Backend::Dx12,
        Backend::Gl,
        Backend::WebGpu,
        Backend::Cuda,
        Backend::Hip,
    ];
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == s.to_ascii_lowercase())
            .ok_or_else(|| Error::UnknownBackend(s.to_string()))
    }
}

/// The number of lanes in a subgroup: one size, or a range the device may
/// pick from per pipeline. Both bounds are powers of two in `4..=128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct SubgroupSize {
    min: u32,
    max: u32,
}

impl SubgroupSize {
    /// Smallest subgroup size wavekit supports.
    pub const MIN: u32 = 4;
    /// Largest subgroup size wavekit supports (Vulkan's limit).
    pub const MAX: u32 = 128;

    /// A fixed size `S`.
    pub fn fixed(size: u32) -> Result<Self, Error> {
        Self::range(size, size)
    }

    /// A range `min..=max`.
    pub fn range(min: u32, max: u32) -> Result<Self, Error> {
        for size in [min, max] {
            if !size.is_power_of_two() || !(Self::MIN..=Self::MAX).contains(&size) {
                return Err(Error::BadSubgroupSize(size));
            }
        }
        if min > max {
            return Err(Error::EmptySubgroupRange { min, max });
        }
        Ok(SubgroupSize { min, max })
    }

    /// Smallest size the device may use.
    pub fn min(self) -> u32 {
        self.min
    }

    /// Largest size the device may use.
    pub fn max(self) -> u32 {
        self.max
    }

    /// The size, when it is fixed.
    pub fn exact(self) -> Option<u32> {
        (self.min == self.max).then_some(self.min)
    }

    /// Whether code expanded for these sizes is correct on a device that
    /// runs `device`: every size the device may use is one of ours.
    pub fn covers(self, device: SubgroupSize) -> bool {
        self.min <= device.min && device.max <= self.max
    }

    /// `log2` of the smallest size: the largest `log2_size` a tiled op accepts.
    pub fn max_log2(self) -> u32 {
        self.min.trailing_zeros()
    }
}

impl fmt::Display for SubgroupSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exact() {
            Some(size) => write!(f, "{size}"),
            None => write!(f, "{}..={}", self.min, self.max),
        }
    }
}

/// The optional scalar types a target has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ScalarFeatures {
    /// `f16` is available.
    pub f16: bool,
    /// `i64` and `u64` are available.
    pub int64: bool,
    /// `f64` is available.
    pub f64: bool,
}

impl ScalarFeatures {
    /// Every optional scalar type.
    pub const ALL: ScalarFeatures = ScalarFeatures {
        f16: true,
        int64: true,
        f64: true,
    };

    /// Whether the feature is present.
    pub fn has(self, feature: ScalarFeature) -> bool {
        match feature {
            ScalarFeature::F16 => self.f16,
            ScalarFeature::Int64 => self.int64,
            ScalarFeature::F64 => self.f64,
        }
    }

    /// Whether values of `dtype` can be used.
    pub fn supports(self, dtype: Dtype) -> bool {
        dtype.features().iter().all(|f| self.has(*f))
    }
}

/// How subgroup operations are carried out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SubgroupMode {
    /// The device's own subgroups (`enable subgroups;`, wgpu's `SUBGROUP`).
    #[default]
    Hardware,
    /// Subgroups of the target's fixed size emulated in workgroup memory:
    /// lane `local_invocation_index % S` of subgroup
    /// `local_invocation_index / S`, every operation lowered to scratch
    /// writes and `workgroupBarrier()` (see `crate::expand` and its
    /// `emulate` module). The emitted WGSL uses no subgroup feature, so it
    /// runs on any adapter, under a stricter contract: every wavekit call
    /// must be reached by the whole **workgroup** in uniform control flow,
    /// the workgroup size must be a multiple of `S` and at most
    /// [`EMULATED_MAX_THREADS`].
    Emulated,
}

/// Which subgroups a device is opened with: `auto` (the adapter's own
/// where it has `SUBGROUP`, else emulated at [`EMULATED_DEFAULT_SIZE`]) or
/// emulated at a size, whatever the adapter offers. Parses from the CLI's
/// spelling: `auto`, `emulated`, `emulated:S`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SubgroupChoice {
    /// Hardware subgroups where the adapter has them, else emulated.
    #[default]
    Auto,
    /// Emulated subgroups of this many lanes (a power of two in `4..=128`).
    Emulated(u32),
}

impl std::str::FromStr for SubgroupChoice {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let usage = |why: String| Error::Usage(format!("--subgroups `{s}`: {why}"));
        match s.split_once(':') {
            None if s == "auto" => Ok(SubgroupChoice::Auto),
            None if s == "emulated" => Ok(SubgroupChoice::Emulated(EMULATED_DEFAULT_SIZE)),
            Some(("emulated", size)) => {
                let size: u32 = size
                    .trim()
                    .parse()
                    .map_err(|_| usage(format!("the size `{size}` is not a number")))?;
                SubgroupSize::fixed(size).map_err(|e| usage(e.to_string()))?;
                Ok(SubgroupChoice::Emulated(size))
            }
            _ => Err(usage("expected auto, emulated or emulated:S".into())),
        }
    }
}

/// The largest workgroup (in invocations) an emulated module supports: the
/// emulation scratch is sized for it. WebGPU's default
/// `maxComputeInvocationsPerWorkgroup`.
pub const EMULATED_MAX_THREADS: u32 = 256;

/// The emulated subgroup size when none is asked for.
pub const EMULATED_DEFAULT_SIZE: u32 = 32;

/// Everything expansion depends on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Target {
    /// The back end the module is for.
    pub backend: Backend,
    /// Subgroup size, fixed or a range.
    pub subgroup_size: SubgroupSize,
    /// Optional scalar types.
    pub scalars: ScalarFeatures,
    /// Which lowering each op uses where it has several.
    pub strategy: Strategy,
    /// Hardware subgroups, or an emulation in workgroup memory (then
    /// `subgroup_size` is fixed).
    pub subgroups: SubgroupMode,
}

impl Target {
    /// A target with every optional scalar type and the default strategy.
    pub fn new(backend: Backend, subgroup_size: SubgroupSize) -> Self {
        Target {
            backend,
            subgroup_size,
            scalars: ScalarFeatures::ALL,
            strategy: Strategy::default(),
            subgroups: SubgroupMode::Hardware,
        }
    }

    /// A target whose subgroups of `size` lanes are emulated in workgroup
    /// memory ([`SubgroupMode::Emulated`]). `size` must be a power of two in
    /// `4..=128`; anything else is [`Error::BadSubgroupSize`].
    pub fn emulated(backend: Backend, size: u32) -> Result<Self, Error> {
        Ok(Target::new(backend, SubgroupSize::fixed(size)?).into_emulated())
    }

    /// Same target with its subgroups emulated at its size, which must be
    /// fixed: a size range becomes its smallest size.
    pub fn into_emulated(mut self) -> Self {
        let size = self.subgroup_size.min();
        self.subgroup_size = SubgroupSize {
            min: size,
            max: size,
        };
        self.subgroups = SubgroupMode::Emulated;
        self
    }

    /// Whether subgroups are emulated in workgroup memory.
    pub fn is_emulated(&self) -> bool {
        self.subgroups == SubgroupMode::Emulated
    }

    /// Whether the code runs as CUDA with the warp's own subgroups (the
    /// native NVPTX back end, not emulated): where shaders choose
    /// CUDA-tuned forms.
    pub fn is_native_cuda(&self) -> bool {
        self.backend == Backend::Cuda && !self.is_emulated()
    }

    /// Same target with other scalar features.
    pub fn with_scalars(mut self, scalars: ScalarFeatures) -> Self {
        self.scalars = scalars;
        self
    }

    /// Same target with another strategy.
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Dtypes usable on this target.
    pub fn dtypes(&self) -> impl Iterator<Item = Dtype> + '_ {
        Dtype::ALL.into_iter().filter(|d| self.scalars.supports(*d))
    }

    /// naga validator capabilities matching the target.
    pub fn naga_capabilities(&self) -> naga::valid::Capabilities {
        use naga::valid::Capabilities as C;
        // pack2x16float / unpack2x16float / quantizeToF16 are core WGSL;
        // naga gates them for downlevel GL only.
        let mut caps = C::SHADER_FLOAT16_IN_FLOAT32;
        if !self.is_emulated() {
            caps |= C::SUBGROUP | C::SUBGROUP_BARRIER;
        }
        if self.scalars.f16 {
            caps |= C::SHADER_FLOAT16;
        }
        if self.scalars.int64 {
            caps |= C::SHADER_INT64;
        }
        if self.scalars.f64 {
            caps |= C::FLOAT64;
        }
        caps
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut extra: Vec<&str> = Vec::new();
        if self.scalars.f16 {
            extra.push("f16");
        }
        if self.scalars.int64 {
            extra.push("i64/u64");
        }
        if self.scalars.f64 {
            extra.push("f64");
        }
        write!(
            f,
            "{} subgroup size {}{} (extra dtypes: {}; lowering: {})",
            self.backend,
            self.subgroup_size,
            if self.is_emulated() {
                " emulated in workgroup memory"
            } else {
                ""
            },
            if extra.is_empty() {
                "none".to_string()
            } else {
                extra.join(", ")
            },
            self.strategy
        )
    }
}
