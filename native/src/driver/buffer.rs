//! A buffer in device memory, and moving bytes in and out of it: what a
//! launch's staged copies and a program's resident buffers both are.

use std::fmt::{self, Display};

use super::Driver;
use crate::error::NativeError;

/// A buffer in device memory.
///
/// The allocation is at least 4 bytes (a zero-byte allocation is an error
/// or a null pointer depending on the allocator) and starts zeroed, so the
/// padding of a short buffer is defined; [`Buffer::len`] is the length
/// kernels see.
pub struct Buffer<D: Driver> {
    pub(super) memory: D::Memory,
    pub(super) len: usize,
}

impl<D: Driver> Buffer<D> {
    /// Length in bytes, as passed to kernels.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The driver's allocation (at least [`Buffer::len`] bytes).
    pub fn memory(&self) -> &D::Memory {
        &self.memory
    }

    /// A zeroed buffer of `len` bytes; `label` names it in errors ("buffer
    /// 2", "a buffer").
    pub(super) fn zeroed(driver: &D, len: usize, label: &dyn Display) -> Result<Self, NativeError> {
        let memory = driver
            .alloc_zeroed(len.max(4))
            .map_err(|e| driver.fail(format_args!("allocating {len} bytes for {label}"), e))?;
        Ok(Buffer { memory, len })
    }

    /// A buffer holding `data`; `label` as for [`Buffer::zeroed`].
    pub(super) fn filled(
        driver: &D,
        data: &[u8],
        label: &dyn Display,
    ) -> Result<Self, NativeError> {
        let mut buffer = Self::zeroed(driver, data.len(), label)?;
        if !data.is_empty() {
            driver
                .copy_to_device(&mut buffer.memory, data)
                .map_err(|e| driver.fail(format_args!("copying {label} to the device"), e))?;
        }
        Ok(buffer)
    }

    /// Copies the buffer into `host`, which is [`Buffer::len`] bytes, once
    /// everything queued before has run; does not wait for the copy.
    pub(super) fn copy_out(
        &self,
        driver: &D,
        host: &mut [u8],
        label: &dyn Display,
    ) -> Result<(), NativeError> {
        if self.len == 0 {
            return Ok(());
        }
        driver
            .copy_to_host(&self.memory, host)
            .map_err(|e| driver.fail(format_args!("copying {label} back"), e))
    }
}

impl<D: Driver> fmt::Debug for Buffer<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer")
            .field("memory", &self.memory)
            .field("len", &self.len)
            .finish()
    }
}
