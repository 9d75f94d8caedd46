//! [`Streams`]: queuing on a caller's stream, with device addresses the
//! caller owns — what `wavekit::device` needs of a runtime, where
//! [`super::Launch`] and [`super::Programs`] queue on the driver's own
//! queue and own their buffers.
//!
//! A call here queues work and returns; nothing waits. The caller keeps
//! every address it passes allocated until the stream has run the work, as
//! with CUB's `d_temp_storage` and raw pointers.

use super::{Driver, Kernel};
use crate::error::NativeError;

/// A runtime's streams: launches and clears queued on one the caller
/// names (CUDA's `CUstream`, HIP's `hipStream_t`).
pub trait Streams: Driver {
    /// A stream of the runtime, as the caller holds it.
    type Stream: ?Sized + 'static;

    /// Queues on `stream` a launch of `kernel` over `grid` blocks of
    /// `block` threads, its buffers given in the kernel ABI's order as
    /// (device address, byte length) pairs ([`crate::abi`]).
    ///
    /// # Safety
    ///
    /// Each address must point at a device allocation of this device with
    /// at least its length in bytes from there, allocated until the launch
    /// has run (and be a multiple of [`crate::abi::BUFFER_ALIGNMENT`],
    /// which the launch checks); `buffers` must match the kernel's ABI (one
    /// pair per buffer parameter, in order). Kernels lowered with
    /// [`crate::BoundsChecks::Unchecked`] also need every index they
    /// compute to stay inside those lengths.
    unsafe fn launch_on(
        &self,
        stream: &Self::Stream,
        kernel: &Kernel<Self>,
        grid: [u32; 3],
        block: [u32; 3],
        buffers: &[(u64, u32)],
    ) -> Result<(), NativeError>;

    /// Queues on `stream` setting `bytes` bytes from device address
    /// `address` to zero.
    ///
    /// # Safety
    ///
    /// The bytes must lie in a device allocation of this device, allocated
    /// until the stream has run the clear.
    unsafe fn zero_on(
        &self,
        stream: &Self::Stream,
        address: u64,
        bytes: usize,
    ) -> Result<(), NativeError>;
}

/// The launch refused before it reaches the runtime when a dimension of
/// `grid` or `block` is 0, or a buffer's address is not a multiple of
/// [`crate::abi::BUFFER_ALIGNMENT`] (the kernels declare it, and may load
/// 16 bytes at a time): "launching kernel `name` ...".
pub(crate) fn check_launch(
    name: &str,
    grid: [u32; 3],
    block: [u32; 3],
    buffers: &[(u64, u32)],
) -> Result<(), String> {
    if grid.contains(&0) || block.contains(&0) {
        return Err(format!(
            "launching kernel `{name}` with grid {grid:?} and block {block:?}: every \
             dimension must be at least 1"
        ));
    }
    let alignment = u64::from(crate::abi::BUFFER_ALIGNMENT);
    if let Some((i, (address, _))) = buffers
        .iter()
        .enumerate()
        .find(|(_, (address, _))| !address.is_multiple_of(alignment))
    {
        return Err(format!(
            "launching kernel `{name}`: buffer {i} is at address {address:#x}, not a \
             multiple of {alignment} (the kernel ABI's buffer alignment)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_launch;

    #[test]
    fn launches_are_refused_on_zero_dimensions_and_unaligned_buffers() {
        assert!(check_launch("k", [1, 1, 1], [32, 1, 1], &[(0x1000, 4), (0x2010, 8)]).is_ok());
        let zero = check_launch("k", [0, 1, 1], [32, 1, 1], &[]).unwrap_err();
        assert!(
            zero.contains("every dimension must be at least 1"),
            "{zero}"
        );
        assert_eq!(
            check_launch("k", [1, 1, 1], [32, 1, 1], &[(0x1000, 4), (0x2004, 8)]).unwrap_err(),
            "launching kernel `k`: buffer 1 is at address 0x2004, not a multiple of 16 (the \
             kernel ABI's buffer alignment)"
        );
    }
}
