//! Per-op choice between a hardware builtin and an explicit shuffle network.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::Error;

/// How an op with several implementations is lowered.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lowering {
    /// WGSL's subgroup builtins (`subgroupAll`, `subgroupBallot`, `subgroupAdd`, ...).
    Builtin,
    /// An explicit network of `subgroupShuffle*` steps, unrolled per `log2_size`.
    Shuffle,
}

impl Lowering {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Lowering::Builtin => "builtin",
            Lowering::Shuffle => "shuffle",
        }
    }

    /// Both lowerings.
    pub const ALL: [Lowering; 2] = [Lowering::Builtin, Lowering::Shuffle];
}

impl fmt::Display for Lowering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Lowering {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Lowering::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| Error::UnknownLowering(s.to_string()))
    }
}

/// The strategy table: a default lowering plus per-op overrides.
///
/// Ops with one implementation ignore it; ops with several pick
/// [`Strategy::lowering`] when it is among theirs, else their first.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Strategy {
    default: Option<Lowering>,
    overrides: BTreeMap<String, Lowering>,
}

impl Strategy {
    /// Every op uses `lowering` where it has it.
    pub fn uniform(lowering: Lowering) -> Self {
        Strategy {
            default: Some(lowering),
            overrides: BTreeMap::new(),
        }
    }

    /// Override the lowering of one op (by catalog name).
    pub fn with_op(mut self, op: &str, lowering: Lowering) -> Self {
        self.overrides.insert(op.to_string(), lowering);
        self
    }

    /// Override the lowering of `op` and of its tiled form (`{op}_tiled`),
    /// which follows it (a tune profile's ops, [`crate::catalog::tunable_ops`]).
    pub fn with_op_and_tiled(self, op: &str, lowering: Lowering) -> Self {
        self.with_op(op, lowering)
            .with_op(&format!("{op}_tiled"), lowering)
    }

    /// The lowering for `op`, among the ones it offers (first = preferred default).
    pub fn lowering(&self, op: &str, offered: &[Lowering]) -> Option<Lowering> {
        let wanted = self.overrides.get(op).copied().or(self.default);
        match wanted {
            Some(l) if offered.contains(&l) => Some(l),
            _ => offered.first().copied(),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.default {
            Some(l) => write!(f, "{l}")?,
            None => f.write_str("builtin where available")?,
        }
        for (op, l) in &self.overrides {
            write!(f, ", {op}={l}")?;
        }
        Ok(())
    }
}
