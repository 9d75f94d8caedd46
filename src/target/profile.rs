//! Tune profiles (feature `wgpu`): which lowering each op uses on one
//! adapter and driver, as measured by `wavekit tune`
//! ([`crate::tune`] with feature `runner`), stored as a small JSON file and
//! read back by [`Target::from_adapter`](super::Target::from_adapter).
//!
//! # Format (version 1)
//!
//! ```json
//! {
//!   "format": "wavekit-tune-profile",
//!   "version": 1,
//!   "adapter": "NVIDIA H100 80GB HBM3",
//!   "driver": "NVIDIA 570.124.06",
//!   "backend": "vulkan",
//!   "subgroup_sizes": "32",
//!   "ops": { "reduce_add": "shuffle", "inclusive_add": "builtin" },
//!   "measurements": [
//!     { "op": "reduce_add", "dtype": "u32", "lowering": "builtin", "ns_per_op": 0.91 }
//!   ]
//! }
//! ```
//!
//! - `adapter` and `driver` are the key: wgpu's adapter name, and its driver
//!   name and driver info joined by a space. A profile applies only to the
//!   adapter and driver it was measured on; a driver update needs a new one.
//! - `ops` maps a catalog op name to its lowering (`builtin` or `shuffle`).
//!   It becomes the per-op overrides of the target's [`Strategy`]; ops not
//!   listed keep the documented default (the builtin where an op has one).
//!   `_tiled` ops and the block ops of the same name follow their op.
//! - `measurements` are informative: the median time of one op in a
//!   dependent chain, per dtype and lowering.
//! - A reader refuses another `format` or a `version` it does not know, with
//!   an error naming the file.
//!
//! Profiles live in one directory: `$WAVEKIT_PROFILE_DIR` if set, else
//! `$XDG_CONFIG_HOME/wavekit/profiles`, else `$HOME/.config/wavekit/profiles`.
//! The file name is derived from the key ([`Profile::file_name`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Backend, Lowering, Strategy};
use crate::error::Error;

/// The `format` field of every profile.
pub const FORMAT: &str = "wavekit-tune-profile";
/// The profile version this wavekit writes and reads.
pub const VERSION: u32 = 1;

/// The lowering choice of every tuned op on one adapter and driver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] when written by this wavekit.
    pub version: u32,
    /// The adapter's name, as wgpu reports it.
    pub adapter: String,
    /// The driver's name and info, as wgpu reports them, joined by a space.
    pub driver: String,
    /// The back end measured.
    pub backend: Backend,
    /// The subgroup sizes the adapter reported, e.g. `32` or `4..=64`.
    pub subgroup_sizes: String,
    /// The chosen lowering per op name.
    pub ops: BTreeMap<String, Lowering>,
    /// What the choice rests on.
    #[serde(default)]
    pub measurements: Vec<Measurement>,
}

/// One timed chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Catalog op name.
    pub op: String,
    /// Element dtype.
    pub dtype: String,
    /// The lowering timed.
    pub lowering: Lowering,
    /// Median nanoseconds per subgroup operation (one step of the chain,
    /// per subgroup, summed over the subgroups of one SM-sized slice of the
    /// dispatch).
    pub ns_per_op: f64,
}

impl Profile {
    /// An empty profile for an adapter.
    pub fn new(adapter: &str, driver: &str, backend: Backend, subgroup_sizes: String) -> Self {
        Profile {
            format: FORMAT.into(),
            version: VERSION,
            adapter: adapter.into(),
            driver: driver.into(),
            backend,
            subgroup_sizes,
            ops: BTreeMap::new(),
            measurements: Vec::new(),
        }
    }

    /// The strategy the profile stands for: the default lowering, with the
    /// profile's ops as overrides (each `_tiled` op follows its op).
    pub fn strategy(&self) -> Strategy {
        self.ops
            .iter()
            .fold(Strategy::default(), |strategy, (op, &lowering)| {
                strategy.with_op_and_tiled(op, lowering)
            })
    }

    /// The profile file's name for an adapter and driver: lower-case
    /// letters, digits and `-` only, then `.json`.
    pub fn file_name(adapter: &str, driver: &str) -> String {
        let mut name = String::new();
        for c in format!("{adapter} {driver}").chars() {
            if c.is_ascii_alphanumeric() {
                name.push(c.to_ascii_lowercase());
            } else if !name.ends_with('-') {
                name.push('-');
            }
        }
        format!("{}.json", name.trim_matches('-'))
    }

    /// The profile directory (see the module docs), if one can be named.
    pub fn dir() -> Option<PathBuf> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(dir) = var("WAVEKIT_PROFILE_DIR") {
            return Some(PathBuf::from(dir));
        }
        let config = var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".config")))?;
        Some(config.join("wavekit").join("profiles"))
    }

    /// Reads and checks a profile file.
    pub fn read(path: &Path) -> Result<Profile, Error> {
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        let text = std::fs::read_to_string(path).map_err(io)?;
        let bad = |message: String| Error::Profile {
            path: path.display().to_string(),
            message,
        };
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        match (value.get("format"), value.get("version")) {
            (Some(f), _) if f != FORMAT => {
                return Err(bad(format!("not a tune profile (format {f})")));
            }
            (_, Some(v)) if v.as_u64() != Some(u64::from(VERSION)) => {
                return Err(bad(format!(
                    "profile version {v}; this wavekit reads version {VERSION} (run `wavekit tune` again)"
                )));
            }
            _ => {}
        }
        serde_json::from_value(value).map_err(|e| bad(e.to_string()))
    }

    /// Writes the profile into `dir` (created if missing) under
    /// [`Profile::file_name`]; returns the path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, Error> {
        let path = dir.join(Profile::file_name(&self.adapter, &self.driver));
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let text = serde_json::to_string_pretty(self).expect("a profile serialises");
        std::fs::write(&path, text + "\n").map_err(io)?;
        Ok(path)
    }

    /// The driver half of a profile's key: wgpu's driver name and info,
    /// joined by a space.
    pub fn driver_key(info: &wgpu::AdapterInfo) -> String {
        format!("{} {}", info.driver, info.driver_info)
    }

    /// The stored profile of the adapter `info` describes, if any
    /// ([`Profile::stored`] under its name and [`Profile::driver_key`]).
    pub fn stored_for(info: &wgpu::AdapterInfo) -> Result<Option<Profile>, Error> {
        Profile::stored(&info.name, &Profile::driver_key(info))
    }

    /// The stored profile for an adapter and driver, if the profile
    /// directory holds one. A file that exists but does not read is an
    /// error, not a silent default.
    pub fn stored(adapter: &str, driver: &str) -> Result<Option<Profile>, Error> {
        let Some(dir) = Profile::dir() else {
            return Ok(None);
        };
        let path = dir.join(Profile::file_name(adapter, driver));
        if !path.exists() {
            return Ok(None);
        }
        Profile::read(&path).map(Some)
    }
}
