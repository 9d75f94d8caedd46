//! What a HIP device hands out and takes back: device allocations and
//! timing events, each released when dropped, so that every path out of a
//! launch or a program (errors included) frees what it made.

use std::ffi::c_void;
use std::sync::Arc;

use super::api::{Api, Handle};

/// An allocation of device memory, freed when dropped.
#[derive(Debug)]
pub struct HipMemory {
    pub(super) api: Arc<Api>,
    pub(super) pointer: *mut c_void,
    /// The allocation's size, for the log should freeing fail.
    pub(super) bytes: usize,
}

impl HipMemory {
    /// The device address, as kernels take it.
    pub fn address(&self) -> u64 {
        self.pointer as u64
    }

    /// The allocation's size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

// SAFETY: a device pointer is an address in the process's unified address
// space that HIP lets any thread pass to the runtime; this type only hands
// it to runtime calls and frees it once.
unsafe impl Send for HipMemory {}
// SAFETY: as for `Send`; `HipMemory` has no interior mutability.
unsafe impl Sync for HipMemory {}

impl Drop for HipMemory {
    fn drop(&mut self) {
        // SAFETY: `pointer` came from `hipMalloc` and is freed only here.
        // hipFree waits for the device to finish with it.
        let code = unsafe { (self.api.free)(self.pointer) };
        if let Err(e) = self.api.check(code, "hipFree") {
            log::warn!("freeing a {}-byte device buffer: {e}", self.bytes);
        }
    }
}

/// A timing event, destroyed when dropped.
#[derive(Debug)]
pub struct HipEvent {
    pub(super) api: Arc<Api>,
    pub(super) raw: Handle,
}

impl Drop for HipEvent {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `hipEventCreate` and is destroyed only here.
        let code = unsafe { (self.api.event_destroy)(self.raw) };
        if let Err(e) = self.api.check(code, "hipEventDestroy") {
            log::warn!("destroying a timing event: {e}");
        }
    }
}
