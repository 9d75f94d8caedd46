//! The hold kernel: one thread that spins on `%globaltimer` for a given
//! number of nanoseconds ([`Driver::hold`](crate::driver::Driver::hold)).
//! It is hand-written PTX for sm_70 and later, loaded on first use and kept
//! with the [`Cuda`] that loaded it.

use std::ffi::c_void;
use std::time::Duration;

use super::Cuda;
use crate::driver::{Driver, Launch};
use crate::error::NativeError;

/// The kernel's entry point.
pub(super) const HOLD_ENTRY: &str = "wavekit_hold";

/// `wavekit_hold(ns)`: spins until `%globaltimer` (nanoseconds) has moved
/// `ns` past its first reading.
pub(super) const HOLD_PTX: &str = r#"
.version 6.0
.target sm_70
.address_size 64

.visible .entry wavekit_hold(
	.param .u64 ns
)
{
	.reg .pred %p<2>;
	.reg .b64 %rd<5>;

	ld.param.u64 %rd1, [ns];
	mov.u64 %rd2, %globaltimer;
SPIN:
	mov.u64 %rd3, %globaltimer;
	sub.u64 %rd4, %rd3, %rd2;
	setp.lt.u64 %p1, %rd4, %rd1;
	@%p1 bra SPIN;
	ret;
}
"#;

impl Cuda {
    /// Queues the hold kernel for `duration` (loading it the first time).
    pub(super) fn queue_hold(&self, duration: Duration) -> Result<(), NativeError> {
        let mut slot = self.hold.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(self.load(HOLD_PTX, HOLD_ENTRY)?);
        }
        let kernel = slot.as_ref().expect("loaded above");
        let mut ns = u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
        let mut params = [(&raw mut ns).cast::<c_void>()];
        // SAFETY: the kernel was loaded in this context and takes one u64,
        // which `params` points at for the call (the driver copies it).
        unsafe { self.launch_kernel(kernel.module(), [1, 1, 1], [1, 1, 1], 0, &mut params) }
            .map_err(|e| self.fail("queueing the hold kernel", e))
    }
}
