//! Debugging switches of the single-pass algorithms' look-back, for tests
//! and benchmarks: emulate a scheduler that never runs some workgroups
//! again, and the Merrill & Garland look-back that spins without bound.
//!
//! The switches are read when an algorithm object is built (its shaders
//! are composed with them), on the building thread only: build inside
//! [`with_look_back`], then use the object anywhere.
//!
//! ```no_run
//! # fn demo(device: &wgpu::Device) -> Result<(), wavekit::Error> {
//! use wavekit::device::{Scan, debug::{LookBackDebug, with_look_back}};
//! // Every third tile never publishes: later tiles must fall back.
//! let stalls = LookBackDebug { stall_every: 3, ..LookBackDebug::default() };
//! let scan = with_look_back(stalls, || Scan::exclusive_sum(device, wavekit::Dtype::U32))?;
//! # let _ = scan; Ok(()) }
//! ```

use std::cell::{Cell, RefCell};

/// How the look-back of the objects built under [`with_look_back`]
/// behaves. The default is what every object gets: no stalls, the
/// fallback on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LookBackDebug {
    /// Nonzero: tile `k` with `k % stall_every == 0` never publishes its
    /// aggregate or prefix (it still computes its own output), as if its
    /// workgroup were never scheduled again until every other had ended.
    /// With the fallback every result stays right; without it, later
    /// tiles spin forever (a GPU hangs until its watchdog; lavapipe ends
    /// the spin after its loop budget, with wrong results): set
    /// `fallback: Some(true)` to stall tiles on a device whose default is
    /// the plain look-back.
    pub stall_every: u32,
    /// The fallback: `None` is the device's choice
    /// ([`ScanAlgorithm::DecoupledLookBack`](super::ScanAlgorithm) says
    /// which); `Some(false)` spins on an unpublished predecessor without
    /// bound (Merrill & Garland's look-back), which needs a scheduler that
    /// keeps started workgroups running; `Some(true)` falls back on every
    /// device.
    pub fallback: Option<bool>,
    /// Rounds a walk waits on an unpublished predecessor before it falls
    /// back; 0 keeps the shaders' `SPINS`. For tuning.
    pub spins: u32,
}

thread_local! {
    static PARAMS: RefCell<Vec<(&'static str, String)>> = const { RefCell::new(Vec::new()) };
    static LOOK_BACK: Cell<LookBackDebug> = const {
        Cell::new(LookBackDebug { stall_every: 0, fallback: None, spins: 0 })
    };
}

/// Runs `build` with `debug` as the look-back of every algorithm object it
/// builds on this thread, then restores the previous switches (also when
/// `build` panics).
pub fn with_look_back<R>(debug: LookBackDebug, build: impl FnOnce() -> R) -> R {
    struct Restore(LookBackDebug);
    impl Drop for Restore {
        fn drop(&mut self) {
            LOOK_BACK.with(|cell| cell.set(self.0));
        }
    }
    let _restore = Restore(LOOK_BACK.with(|cell| cell.replace(debug)));
    build()
}

impl LookBackDebug {
    /// The switches in force on this thread.
    pub(crate) fn current() -> LookBackDebug {
        LOOK_BACK.with(Cell::get)
    }

    /// The switches `text` names, for tools and benchmarks: `spin` (no
    /// fallback), `fallback` (the fallback on every device), `stall=K`,
    /// `spins=N`, separated by commas; empty for the defaults.
    pub fn parse(text: &str) -> Result<LookBackDebug, String> {
        let mut debug = LookBackDebug::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let number = |value: &str| {
                value
                    .parse::<u32>()
                    .map_err(|e| format!("look-back switch `{part}`: {e}"))
            };
            match part.split_once('=') {
                None if part == "spin" => debug.fallback = Some(false),
                None if part == "fallback" => debug.fallback = Some(true),
                Some(("stall", value)) => debug.stall_every = number(value)?,
                Some(("spins", value)) => debug.spins = number(value)?,
                _ => {
                    return Err(format!(
                        "look-back switch `{part}`: not `spin`, `fallback`, `stall=K` or `spins=N`"
                    ));
                }
            }
        }
        Ok(debug)
    }

    /// The shader parameters of these switches on a device that `needs`
    /// the fallback: `FALLBACK`, `STALL_EVERY` and (when set) `SPINS`, as
    /// every look-back shader declares them (radix_onesweep.wgsl and
    /// look_back.wgsl, which the others append).
    pub(crate) fn params(&self, needs: bool) -> Vec<(&'static str, String)> {
        let mut params = vec![
            ("FALLBACK", self.fallback.unwrap_or(needs).to_string()),
            ("STALL_EVERY", format!("{}u", self.stall_every)),
        ];
        if self.spins != 0 {
            params.push(("SPINS", format!("{}u", self.spins)));
        }
        params
    }
}

/// Runs `build` with `params` given to every device shader composed on
/// this thread that declares them (a `const NAME` of the shader's own
/// file; a shader without the declaration ignores it), after the
/// algorithm's own choices, then restores the previous ones (also when
/// `build` panics). For benchmarks that compare an algorithm's variants,
/// e.g. the OneSweep rank's `PEERS` and `WIDE_COUNTERS`: a value the
/// shader was not written for may give wrong results or fail to compile.
pub fn with_shader_params<R>(params: Vec<(&'static str, String)>, build: impl FnOnce() -> R) -> R {
    struct Restore(Vec<(&'static str, String)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            PARAMS.with(|cell| *cell.borrow_mut() = std::mem::take(&mut self.0));
        }
    }
    let _restore = Restore(PARAMS.with(|cell| cell.replace(params)));
    build()
}

/// The shader parameters `text` names, `NAME=VALUE` separated by commas
/// (`PEERS=2u,WIDE_COUNTERS=true`), for [`with_shader_params`]. The names
/// are leaked: parse once per process.
pub fn parse_shader_params(text: &str) -> Result<Vec<(&'static str, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| format!("shader parameter `{part}`: not NAME=VALUE"))?;
            let (name, value) = (name.trim(), value.trim());
            let word =
                |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !word(name) || !word(value) {
                return Err(format!(
                    "shader parameter `{part}`: NAME and VALUE are WGSL words (`PEERS=2u`)"
                ));
            }
            let name: &'static str = Box::leak(name.to_string().into_boxed_str());
            Ok((name, value.to_string()))
        })
        .collect()
}

/// The parameters [`with_shader_params`] gives on this thread: what every
/// device shader composed here gets, and what a host that composes a
/// device shader's text itself (the demos' own steps) applies the same way.
pub fn shader_params() -> Vec<(&'static str, String)> {
    PARAMS.with(|cell| cell.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::parse_shader_params;

    #[test]
    fn bad_shader_params_are_refused() {
        let params = parse_shader_params(" PEERS=2u, WIDE_COUNTERS=true ,").expect("good text");
        assert_eq!(
            params,
            vec![
                ("PEERS", "2u".to_string()),
                ("WIDE_COUNTERS", "true".to_string())
            ]
        );
        let e = parse_shader_params("PEERS").expect_err("no value");
        assert_eq!(e, "shader parameter `PEERS`: not NAME=VALUE");
        let e = parse_shader_params("PEERS=2u; fn x() {}").expect_err("not a word");
        assert_eq!(
            e,
            "shader parameter `PEERS=2u; fn x() {}`: NAME and VALUE are WGSL words (`PEERS=2u`)"
        );
    }
}
