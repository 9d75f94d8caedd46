//! Flags that describe a target without opening an adapter.

use clap::Args;

use wavekit::{
    Backend, Error, Lowering, ScalarFeatures, Strategy, SubgroupChoice, SubgroupSize, Target,
};

/// `--backend`, `--subgroup-size` / `--subgroup-range`, `--without`, `--lowering`.
#[derive(Args, Debug)]
pub struct TargetArgs {
    /// Back end the code is for: vulkan, metal, dx12 or gl (wgpu), webgpu (a
    /// browser), cuda (native PTX through LLVM's NVPTX back end) or hip
    /// (native AMDGPU code objects through LLVM) [default: vulkan; cuda for
    /// `emit --lang ptx`, hip for `--lang hsaco`].
    #[arg(long)]
    backend: Option<String>,
    /// Fixed subgroup size S (power of two, 4..=128); for `emit --lang
    /// hsaco`, the wave size (64 on gfx90a and gfx942, 32 or 64 on RDNA).
    #[arg(long, default_value_t = 32, conflicts_with = "subgroup_range")]
    subgroup_size: u32,
    /// A subgroup size range `MIN..=MAX` (the size is only known at run time).
    #[arg(long, value_name = "MIN..=MAX")]
    subgroup_range: Option<String>,
    /// A scalar feature the target lacks: f16, int64 or f64 (repeatable;
    /// also comma-separated).
    #[arg(long, value_name = "FEATURE", value_delimiter = ',')]
    without: Vec<String>,
    /// Lowering for ops that have several: builtin or shuffle.
    #[arg(long)]
    lowering: Option<String>,
    /// `emulated` or `emulated:S`: subgroups of S lanes (default: the
    /// --subgroup-size) emulated in workgroup memory, no subgroup feature
    /// needed; `auto`: the device's own.
    #[arg(long, default_value = "auto", value_name = "auto|emulated[:S]")]
    subgroups: String,
}

impl TargetArgs {
    /// The target the flags describe (Vulkan unless `--backend` says).
    pub fn target(&self) -> Result<Target, Error> {
        self.target_or(Backend::Vulkan)
    }

    /// The target the flags describe, on `default` unless `--backend` says.
    pub fn target_or(&self, default: Backend) -> Result<Target, Error> {
        let backend: Backend = match &self.backend {
            Some(name) => name.parse()?,
            None => default,
        };
        let size = match &self.subgroup_range {
            Some(range) => {
                let usage = |why: String| Error::Usage(format!("subgroup range `{range}`: {why}"));
                let (min, max) = match range.split_once("..=") {
                    Some(bounds) => bounds,
                    // `MIN..MAX` would read as excluding MAX.
                    None if range.contains("..") => {
                        return Err(usage(
                            "write MIN..=MAX: both sizes are included".to_string(),
                        ));
                    }
                    None => return Err(usage("expected MIN..=MAX".to_string())),
                };
                let parse = |t: &str, which: &str| match t.trim() {
                    "" => Err(usage(format!("the {which} is missing: expected MIN..=MAX"))),
                    t => t
                        .parse::<u32>()
                        .map_err(|_| usage(format!("the {which} `{t}` is not a number"))),
                };
                SubgroupSize::range(parse(min, "minimum")?, parse(max, "maximum")?)?
            }
            None => SubgroupSize::fixed(self.subgroup_size)?,
        };
        let mut scalars = ScalarFeatures::ALL;
        for feature in &self.without {
            match feature.as_str() {
                "f16" => scalars.f16 = false,
                "int64" | "i64" | "u64" => scalars.int64 = false,
                "f64" => scalars.f64 = false,
                other => {
                    return Err(Error::Usage(format!(
                        "--without `{other}`: expected f16, int64 or f64"
                    )));
                }
            }
        }
        let mut target = match self.subgroups.parse::<SubgroupChoice>()? {
            SubgroupChoice::Auto => Target::new(backend, size),
            // `emulated` alone takes --subgroup-size.
            SubgroupChoice::Emulated(_) if self.subgroups == "emulated" => {
                if size.exact().is_none() {
                    return Err(Error::Usage(
                        "--subgroups emulated needs a fixed --subgroup-size".into(),
                    ));
                }
                Target::new(backend, size).into_emulated()
            }
            SubgroupChoice::Emulated(s) => Target::emulated(backend, s)?,
        }
        .with_scalars(scalars);
        if let Some(lowering) = &self.lowering {
            target = target.with_strategy(Strategy::uniform(lowering.parse::<Lowering>()?));
        }
        Ok(target)
    }
}
