//! The one error type of the crate. Every message is a single clear line,
//! except WGSL diagnostics, which are naga's rendering with the source line.

use crate::dtype::{Dtype, ScalarFeature};

/// Everything that can go wrong in wavekit.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The native back end (lowering, PTX, CUDA, HIP) failed.
    #[cfg(feature = "native")]
    #[error(transparent)]
    Native(wavekit_native::NativeError),
    /// A wait for the device ran past the limit set with
    /// `Gpu::set_wait_limit` (`wavekit run --timeout`).
    #[error(
        "{what}: not finished after {limit:?}, the wait limit; the device is still running it \
         (a runtime cannot stop a kernel; the process's exit does), so later work on it waits \
         behind it"
    )]
    Timeout {
        /// What was being waited for (`running `main``).
        what: String,
        /// The limit.
        limit: std::time::Duration,
    },
    /// No catalog entry has this name.
    #[error("unknown op `{name}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownOp {
        /// The name asked for.
        name: String,
        /// The closest catalog name.
        suggestion: Option<String>,
    },
    /// Wrong number of template arguments.
    #[error(
        "`{op}` takes {expected} template argument(s), got {got}: its signature is `{signature}`"
    )]
    Arity {
        /// Op name.
        op: String,
        /// Its signature.
        signature: String,
        /// Parameters it has.
        expected: usize,
        /// Arguments given.
        got: usize,
    },
    /// A template argument of the wrong kind.
    #[error("`{op}`: template argument {index} must be {expected}, got `{got}`")]
    BadTemplateArg {
        /// Op name.
        op: String,
        /// 1-based position.
        index: usize,
        /// What was expected.
        expected: String,
        /// What was given.
        got: String,
    },
    /// The op is not defined for this dtype.
    #[error("`{op}` is not defined for {dtype} (allowed dtypes: {allowed})")]
    DtypeNotAllowed {
        /// Op name.
        op: String,
        /// The dtype asked for.
        dtype: Dtype,
        /// The dtypes it accepts.
        allowed: String,
    },
    /// The target lacks the dtype.
    #[error("`{op}<{dtype}>` needs {feature}, which the target lacks ({target})")]
    DtypeUnavailable {
        /// Op name.
        op: String,
        /// The dtype asked for.
        dtype: Dtype,
        /// The missing feature.
        feature: ScalarFeature,
        /// The target, described.
        target: String,
    },
    /// The op needs a feature the target lacks.
    #[error("`{op}` needs {feature}, which the target lacks ({target})")]
    FeatureUnavailable {
        /// Op name.
        op: String,
        /// The missing feature.
        feature: ScalarFeature,
        /// The target, described.
        target: String,
    },
    /// `log2_size` beyond the subgroup.
    #[error(
        "`{op}`: log2_size {log2_size} is out of range 0..={max}: tiles of 2^{log2_size} lanes do not fit a subgroup of {subgroup_size}"
    )]
    Log2OutOfRange {
        /// Op name.
        op: String,
        /// The value given.
        log2_size: i64,
        /// The largest allowed.
        max: u32,
        /// The target's subgroup size.
        subgroup_size: String,
    },
    /// A lane count out of range.
    #[error("`{op}`: N = {count} is out of range {min}..={max}")]
    CountOutOfRange {
        /// Op name.
        op: String,
        /// The value given.
        count: i64,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// A request string that does not parse.
    #[error("cannot read `{text}` as an op request: {reason}")]
    BadSpec {
        /// The text.
        text: String,
        /// Why.
        reason: String,
    },
    /// Template arguments that break the op's contract (`block_dim` not a
    /// multiple of the subgroup size, a radix digit outside the key).
    #[error("`{op}`: {message}")]
    Contract {
        /// Op name.
        op: String,
        /// What is wrong.
        message: String,
    },
    /// A composer error at a span of the user's shader, rendered with the
    /// source line and a caret.
    #[error("{rendered}")]
    Compose {
        /// The rendered diagnostic.
        rendered: String,
    },
    /// A naga back end could not write the module.
    #[error("cannot emit {language}: {message}")]
    Emit {
        /// The language.
        language: &'static str,
        /// naga's error.
        message: String,
    },
    /// Arguments that do not describe a request (a missing or stray flag).
    #[error("{0}")]
    Usage(String),
    /// A module expanded for subgroup sizes the device does not run.
    #[error(
        "the module was expanded for subgroup size {module}, but the device runs subgroups of {device}: compose it for the device's target (`Gpu::target`)"
    )]
    SubgroupSizeMismatch {
        /// The sizes the module's code is correct for, as
        /// [`SubgroupSize`](crate::SubgroupSize) displays them (`32`,
        /// `4..=64`).
        module: String,
        /// The sizes the device may run, displayed the same way.
        device: String,
    },
    /// A subgroup size that is not a power of two in 4..=128.
    #[error("subgroup size {0} is not one of 4, 8, 16, 32, 64, 128 (a power of two in 4..=128)")]
    BadSubgroupSize(u32),
    /// A subgroup size range whose minimum is above its maximum.
    #[error(
        "subgroup size range {min}..={max} is empty: its minimum is above its maximum (did you mean {max}..={min}?)"
    )]
    EmptySubgroupRange {
        /// The minimum given.
        min: u32,
        /// The maximum given.
        max: u32,
    },
    /// Unknown back-end name.
    #[error("unknown back end `{0}` (expected vulkan, metal, dx12, gl, webgpu, cuda or hip)")]
    UnknownBackend(String),
    /// Unknown lowering name.
    #[error("unknown lowering `{0}` (expected builtin or shuffle)")]
    UnknownLowering(String),
    /// A template failed to render: a bug in wavekit.
    #[error("template {template} failed to render: {message}")]
    Template {
        /// Template file.
        template: String,
        /// minijinja's message.
        message: String,
    },
    /// WGSL that naga rejected, rendered with the offending source line.
    #[error("{rendered}")]
    Wgsl {
        /// naga's diagnostic.
        rendered: String,
    },
    /// No adapter matched.
    #[error(
        "no GPU adapter found{}{}: {why}",
        filter.as_ref().map(|f| format!(" matching `{f}`")).unwrap_or_default(),
        backend.as_ref().map(|b| format!(" on {b}")).unwrap_or_default()
    )]
    NoAdapter {
        /// The name filter, if any.
        filter: Option<String>,
        /// The API asked for, if any, by its `--backend` name (`vulkan`).
        backend: Option<String>,
        /// The adapters there are, or which driver to install when there
        /// are none.
        why: String,
    },
    /// Emulated subgroups cannot carry out an operation the expansion uses.
    #[error("emulated subgroups do not support {what} ({context})")]
    EmulationUnsupported {
        /// The operation or value type.
        what: String,
        /// Where in the expansion.
        context: String,
    },
    /// The adapter has no subgroup operations.
    #[error(
        "adapter `{0}` does not support subgroup operations (wgpu features SUBGROUP and SUBGROUP_BARRIER)"
    )]
    AdapterLacksSubgroups(String),
    /// The adapter reports an unusable subgroup size range.
    #[error(
        "adapter `{adapter}` reports subgroup sizes {min}..={max}, outside wavekit's powers of two in 4..=128"
    )]
    AdapterSubgroupSize {
        /// Adapter name.
        adapter: String,
        /// Reported minimum.
        min: u32,
        /// Reported maximum.
        max: u32,
    },
    /// wgpu refused to create the device or a pipeline, or the device was lost.
    #[error("GPU error: {0}")]
    Gpu(String),
    /// A dispatch the host refuses before the GPU sees it: a missing,
    /// extra, too small or read-only-but-output buffer, or a workgroup
    /// count or buffer size over the device's limits.
    #[error("dispatch of `{entry}`: {message}")]
    Dispatch {
        /// The entry point.
        entry: String,
        /// What is wrong, with the number and the limit.
        message: String,
    },
    /// A tune profile that cannot be used.
    #[error("tune profile {path}: {message}")]
    Profile {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// File I/O.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
}

#[cfg(feature = "native")]
impl From<wavekit_native::NativeError> for Error {
    /// The native error, except a timeout, which is the crate's own (one
    /// error for every back end's).
    fn from(error: wavekit_native::NativeError) -> Self {
        match error {
            wavekit_native::NativeError::Timeout { what, limit } => Error::Timeout { what, limit },
            error => Error::Native(error),
        }
    }
}
