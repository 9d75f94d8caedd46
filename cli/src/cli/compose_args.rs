//! `--deny warnings` for the commands that compose a user's shader (`emit`,
//! `run`), and the composition itself with its warnings printed to
//! standard error.

use clap::Args;

use wavekit::compose::{Composer, Composition};
use wavekit::{Error, Target};

/// How a user's shader is composed.
#[derive(Args, Debug, Default)]
pub struct ComposeArgs {
    /// `--deny warnings`: refuse a shader the composer warns about (a
    /// primitive called under non-uniform control flow) instead of
    /// printing the warning.
    #[arg(long, value_name = "warnings", value_parser = ["warnings"])]
    pub(super) deny: Option<String>,
}

impl ComposeArgs {
    /// Composes `source` (named `name`) for `target`; prints warnings.
    pub(super) fn compose(
        &self,
        target: Target,
        source: &str,
        name: &str,
    ) -> Result<Composition, Error> {
        let composed = Composer::new(target)
            .deny_warnings(self.deny.is_some())
            .compose(source, name)?;
        for warning in &composed.warnings {
            eprint!("{warning}");
        }
        Ok(composed)
    }
}
