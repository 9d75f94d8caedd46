//! Device-resident buffers and programs on the native back ends, written
//! once for CUDA and HIP: the runner's steps put in the driver's terms
//! (each dispatch's buffers in the kernel ABI's order, checked against
//! their bindings) and run or timed by `wavekit-native`'s driver layer.

use wavekit_native::NativeError;
use wavekit_native::driver::{self, Programs};

use super::native_device::{DriverOf, NativeDevice, NativeTarget};
use super::program::{Buffer, BufferInner, Step, foreign};
use crate::backend::native_server::in_abi_order;
use crate::error::Error;

impl<T: NativeTarget> NativeDevice<T> {
    /// A zero-filled buffer of `size` bytes.
    pub(super) fn buffer(&self, size: u64) -> Result<BufferInner, Error> {
        Ok(T::buffer_inner(self.driver.alloc(byte_len(size)?)?))
    }

    /// A buffer holding `data`.
    pub(super) fn upload(&self, data: &[u8]) -> Result<BufferInner, Error> {
        Ok(T::buffer_inner(self.driver.alloc_from(data)?))
    }

    /// Waits for all queued work and returns the buffer's contents.
    pub(super) fn read(&self, buffer: &Buffer) -> Result<Vec<u8>, Error> {
        let buffer = T::buffer_of(buffer).ok_or_else(|| foreign("a buffer read"))?;
        Ok(self.driver.read(buffer)?)
    }

    /// Runs a program of steps and waits for it.
    pub(super) fn execute(&self, steps: &[Step<'_>]) -> Result<(), Error> {
        Ok(self
            .driver
            .execute(&driver_steps::<T>(&self.driver, steps)?)?)
    }

    /// Times a program with the runtime's events; milliseconds per run.
    pub(super) fn time_program(
        &self,
        steps: &[Step<'_>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let times = self.driver.time_program(
            &driver_steps::<T>(&self.driver, steps)?,
            warmup,
            runs.max(1),
        )?;
        Ok(times.into_iter().map(f64::from).collect())
    }
}

/// The steps in the driver's terms: each dispatch's buffers put in the
/// kernel ABI's order and checked against their bindings' sizes; recorded
/// steps as calls recording into the driver's queue.
fn driver_steps<'a, T: NativeTarget + 'a>(
    device: &'a DriverOf<T>,
    steps: &[Step<'a>],
) -> Result<Vec<driver::Step<'a, DriverOf<T>>>, Error> {
    let buffer = |buffer: &'a Buffer| T::buffer_of(buffer).ok_or_else(|| foreign("a native step"));
    steps
        .iter()
        .map(|step| {
            Ok(match step {
                Step::Dispatch {
                    kernel,
                    buffers,
                    workgroups,
                } => {
                    let handle = T::kernel_of(kernel).ok_or_else(|| foreign("a dispatch"))?;
                    let ordered = in_abi_order(handle, buffers, "buffer", |bound| {
                        let native = buffer(bound)?;
                        Ok((native, native.len()))
                    })?;
                    driver::Step::Launch {
                        kernel: &handle.kernel,
                        buffers: ordered,
                        grid: *workgroups,
                        block: handle.abi.workgroup_size,
                    }
                }
                Step::Zero(zeroed) => driver::Step::Zero(buffer(zeroed)?),
                Step::Copy { src, dst } => driver::Step::Copy {
                    src: buffer(src)?,
                    dst: buffer(dst)?,
                },
                Step::Record(record) => {
                    let record = *record;
                    driver::Step::Call(driver::Call(Box::new(move || {
                        T::record(device, record).map_err(|e| NativeError::Tool {
                            tool: "wavekit::device".into(),
                            message: e.to_string(),
                        })
                    })))
                }
            })
        })
        .collect()
}

/// A buffer size in host terms.
fn byte_len(size: u64) -> Result<usize, Error> {
    usize::try_from(size).map_err(|_| Error::Gpu(format!("a buffer of {size} bytes is too large")))
}
