//! `--arch`: the one flag that chooses an AMD GPU architecture, for
//! `emit --lang hsaco` and for `run` / `check` with `--backend hip`.

use clap::Args;

use wavekit::Error;

/// The AMD architectures wavekit compiles HIP code objects for, in the
/// order `wavekit::emit::native::Arch::ALL` lists them (a unit test keeps
/// the two equal; this list is here so that a build without the `native`
/// feature names them too).
pub const ARCH_NAMES: [&str; 5] = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"];

/// `--arch ARCH`.
#[derive(Args, Debug, Default)]
pub struct ArchArgs {
    /// The AMD GPU architecture HIP code objects are compiled for: gfx90a,
    /// gfx942, gfx1030, gfx1100 or gfx1200 (`rocminfo` or `amdgpu-arch`
    /// print a GPU's). Needed by `--backend hip` and `emit --lang hsaco`,
    /// refused with any other back end.
    #[arg(long, value_name = "ARCH")]
    pub arch: Option<String>,
}

impl ArchArgs {
    /// The `--arch` given, if any, checked against [`ARCH_NAMES`].
    pub fn get(&self) -> Result<Option<&str>, Error> {
        let Some(arch) = self.arch.as_deref() else {
            return Ok(None);
        };
        if ARCH_NAMES.contains(&arch) {
            Ok(Some(arch))
        } else {
            Err(Error::Usage(format!(
                "--arch {arch}: expected one of {}",
                ARCH_NAMES.join(", ")
            )))
        }
    }

    /// The `--arch` that `what` (`--backend hip`, `--lang hsaco`) needs.
    pub fn required(&self, what: &str) -> Result<&str, Error> {
        self.get()?.ok_or_else(|| {
            Error::Usage(format!(
                "{what} needs --arch, one of {} (`rocminfo` or `amdgpu-arch` print the GPU's)",
                ARCH_NAMES.join(", ")
            ))
        })
    }

    /// Refuses an `--arch` where `what` (`--backend cuda`, `--lang spv`)
    /// has no use for one.
    pub fn refuse(&self, what: &str) -> Result<(), Error> {
        match &self.arch {
            None => Ok(()),
            Some(arch) => Err(Error::Usage(format!(
                "--arch {arch} chooses HIP code objects: it applies to --backend hip and \
                 --lang hsaco, not {what}"
            ))),
        }
    }
}

#[cfg(all(test, feature = "native"))]
mod tests {
    use super::ARCH_NAMES;
    use wavekit::emit::native::Arch;

    #[test]
    fn the_names_are_the_native_back_ends() {
        let native: Vec<&str> = Arch::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(native, ARCH_NAMES);
    }
}
