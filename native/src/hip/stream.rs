//! HIP's [`Streams`]: [`HipStream`], a `hipStream_t` of one device — made
//! here, the device's null stream, or the caller's own — and launches and
//! clears queued on it.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::api::{Api, Handle};
use super::{Hip, HipKernel};
use crate::driver::{Driver, Streams, check_launch};
use crate::error::NativeError;

/// A `hipStream_t` of one HIP device: one [`Hip::create_stream`] made
/// (destroyed when dropped), the device's null stream
/// ([`Hip::null_stream`]), or a caller's own ([`HipStream::from_raw`],
/// left to the caller).
#[derive(Debug)]
pub struct HipStream {
    api: Arc<Api>,
    device: c_int,
    raw: Handle,
    owned: bool,
}

// SAFETY: a `hipStream_t` is a process-wide runtime handle that HIP lets any
// thread use; every use here first makes its device current.
unsafe impl Send for HipStream {}
// SAFETY: as for `Send`; `HipStream` has no interior mutability.
unsafe impl Sync for HipStream {}

impl HipStream {
    /// The raw `hipStream_t` (null for the null stream).
    pub fn raw(&self) -> *mut c_void {
        self.raw
    }
}

impl Hip {
    /// A new stream of this device (`hipStreamCreate`), destroyed when
    /// dropped.
    pub fn create_stream(&self) -> Result<HipStream, NativeError> {
        let create = self.api.stream_create.ok_or_else(|| {
            self.refuse(format!(
                "{} has no `hipStreamCreate`",
                self.api.path.display()
            ))
        })?;
        self.api
            .use_device(self.device)
            .map_err(|e| self.fail("making the device current", e))?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer.
        self.api
            .check(unsafe { create(&mut raw) }, "creating a stream")?;
        Ok(HipStream {
            api: self.api.clone(),
            device: self.device,
            raw,
            owned: true,
        })
    }

    /// The device's null stream, where the driver layer ([`Driver`]) queues
    /// its own work: calls on it run in order with that work.
    pub fn null_stream(&self) -> HipStream {
        HipStream {
            api: self.api.clone(),
            device: self.device,
            raw: std::ptr::null_mut(),
            owned: false,
        }
    }

    /// A caller's `hipStream_t` of this device, left to the caller to
    /// destroy.
    ///
    /// # Safety
    ///
    /// `raw` must be a live stream of this device (or null, the null
    /// stream) until every call given it has been queued.
    pub unsafe fn stream_from_raw(&self, raw: *mut c_void) -> HipStream {
        HipStream {
            api: self.api.clone(),
            device: self.device,
            raw,
            owned: false,
        }
    }

    /// Fails unless `stream` is one of this device's.
    fn check_stream(&self, stream: &HipStream) -> Result<(), NativeError> {
        if stream.device != self.device || !Arc::ptr_eq(&stream.api, &self.api) {
            return Err(self.refuse(format!(
                "the stream belongs to HIP device {}, and the kernels were loaded on device {}",
                stream.device, self.device
            )));
        }
        self.api
            .use_device(self.device)
            .map_err(|e| self.fail("making the device current", e))
    }
}

impl Drop for HipStream {
    fn drop(&mut self) {
        if !self.owned {
            return;
        }
        if let Some(destroy) = self.api.stream_destroy {
            // SAFETY: `raw` came from `hipStreamCreate` and is destroyed
            // only here.
            let code = unsafe { destroy(self.raw) };
            if let Err(e) = self.api.check(code, "hipStreamDestroy") {
                log::warn!("destroying a stream: {e}");
            }
        }
    }
}

impl Streams for Hip {
    type Stream = HipStream;

    unsafe fn launch_on(
        &self,
        stream: &HipStream,
        kernel: &HipKernel,
        grid: [u32; 3],
        block: [u32; 3],
        buffers: &[(u64, u32)],
    ) -> Result<(), NativeError> {
        self.check_stream(stream)?;
        let name = kernel.name();
        check_launch(name, grid, block, buffers).map_err(|why| self.refuse(why))?;
        self.check_dimensions(grid, block)
            .map_err(|why| self.refuse(format!("launching kernel `{name}`: {why}")))?;
        if let Some(elsewhere) = self.loaded_elsewhere(kernel.module()) {
            return Err(self.refuse(format!("kernel `{name}` was loaded on {elsewhere}")));
        }
        let mut args = crate::abi::KernelArgs::of(buffers);
        let mut params = args.pointers();
        // SAFETY: the device is current and the function's module loaded
        // on it (checked); `params` points into `args`, which lives until
        // the call returns; the caller vouches for the addresses and the
        // stream.
        unsafe {
            self.launch_raw(
                kernel.module(),
                grid,
                block,
                kernel.workgroup_bytes(),
                stream.raw,
                &mut params,
            )
        }
        .map_err(|e| self.fail(format_args!("launching kernel `{name}`"), e))
    }

    unsafe fn zero_on(
        &self,
        stream: &HipStream,
        address: u64,
        bytes: usize,
    ) -> Result<(), NativeError> {
        self.check_stream(stream)?;
        // SAFETY: the caller vouches for the range and the stream.
        let code = unsafe { (self.api.memset_async)(address as *mut c_void, 0, bytes, stream.raw) };
        self.api.check(code, format_args!("clearing {bytes} bytes"))
    }
}
