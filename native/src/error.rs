//! Errors of the native back ends.

/// What can go wrong lowering, assembling or dispatching natively.
#[derive(Debug, thiserror::Error)]
pub enum NativeError {
    /// The module uses a construct the back end does not lower.
    #[error("{location}: the native back end does not support {construct}")]
    Unsupported {
        /// What it is, in WGSL terms (`the math function atan2`).
        construct: String,
        /// `file:line:col` (or the function name when no span is known).
        location: String,
    },
    /// The module or entry point does not fit the kernel ABI.
    #[error("{0}")]
    Abi(String),
    /// LLVM refused the generated IR or failed to emit code.
    #[error("LLVM: {0}")]
    Llvm(String),
    /// No CUDA driver (`libcuda.so`) could be loaded, or it found no device.
    #[error("no CUDA driver: {0}")]
    NoCudaDriver(String),
    /// A CUDA driver call failed.
    #[error("CUDA: {0}")]
    Cuda(String),
    /// An external tool (`ptxas`, `nvdisasm`, `ld.lld`) is missing or failed.
    #[error("{tool}: {message}")]
    Tool {
        /// The tool's name.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// A wait for the device ran past its limit ([`crate::driver::WaitLimit`]).
    #[error("{what}: not finished after {limit:?}, the wait limit; the device still runs it")]
    Timeout {
        /// What was being waited for (`running kernel `main``).
        what: String,
        /// The limit.
        limit: std::time::Duration,
    },
    /// Buffers that do not match the kernel's bindings.
    #[error("{0}")]
    Binding(String),
}
