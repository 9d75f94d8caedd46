//! The native back ends of the runner (CUDA, HIP), written once over
//! `wavekit-native`'s driver layer: a validated module compiled for the
//! device by its [`NativeTarget`], loaded, launched on bindings and timed.
//! Programs over resident buffers are in `native_program.rs`.

use std::mem::ManuallyDrop;
use wavekit_native::LowerOptions;

use wavekit_native::driver::{self, Driver, Launch};

use super::native_buffers::NativeBuffers;
use super::program::{Buffer, BufferInner, Recorder};
use super::{Binding, DeviceInfo, Kernel, Slot};
use crate::backend::native_server::{NativeCode, NativeKernel};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{ScalarFeatures, SubgroupSize, Target};

/// The runtime of a native target's code.
pub(super) type DriverOf<T> = <<T as NativeTarget>::Code as NativeCode>::Driver;

/// What the runner adds to a native API's code ([`NativeCode`], the seam's):
/// opening the device by ordinal, and where its kernels and buffers sit in
/// the runner's enums.
pub(super) trait NativeTarget: Sized {
    /// The code the API compiles.
    type Code: NativeCode;
    /// What the caller says about the code to compile, beyond what the
    /// device reports (HIP: the architecture and wave size).
    type Choice;

    /// Opens device `ordinal` and decides what to compile for it. Returns
    /// the driver, the code, and the runtime and code it uses in words
    /// (for [`DeviceInfo::driver`]).
    fn open(
        ordinal: usize,
        choice: Self::Choice,
    ) -> Result<(DriverOf<Self>, Self::Code, String), Error>;

    /// `kernel` as this back end's, if it is one.
    fn kernel_of(kernel: &Kernel) -> Option<&NativeKernel<DriverOf<Self>>>;

    /// `buffer` as this back end's, if it is one.
    fn buffer_of(buffer: &Buffer) -> Option<&driver::Buffer<DriverOf<Self>>>;

    /// A buffer of this back end as the runner holds it.
    fn buffer_inner(buffer: driver::Buffer<DriverOf<Self>>) -> BufferInner;

    /// Runs `record` on the queue of the driver's own work (so that
    /// [`crate::device`] algorithms run in order with the program's other
    /// steps).
    fn record(driver: &DriverOf<Self>, record: &Recorder<'_>) -> Result<(), Error>;
}

impl<T: NativeTarget> Drop for NativeDevice<T> {
    /// Drops the driver (its stream and context), unless a wait timed
    /// out: the device may still be running a kernel that never ends, and
    /// releasing a context waits for its work, so the driver is leaked
    /// (the process's exit ends the work).
    fn drop(&mut self) {
        if !Driver::wait_limit(&*self.driver).timed_out() {
            // SAFETY: dropped once, here, and never used after.
            unsafe { ManuallyDrop::drop(&mut self.driver) };
        }
    }
}

/// An opened native device.
pub(super) struct NativeDevice<T: NativeTarget> {
    /// Dropped unless a wait timed out ([`Drop`]).
    pub(super) driver: ManuallyDrop<DriverOf<T>>,
    pub(super) code: T::Code,
    info: DeviceInfo,
    target: Target,
}

impl<T: NativeTarget> NativeDevice<T> {
    /// Opens device `ordinal` for `choice`; a clear error when there is no
    /// driver or runtime.
    pub(super) fn open(ordinal: usize, choice: T::Choice) -> Result<Self, Error> {
        let (driver, code, description) = T::open(ordinal, choice)?;
        let info = DeviceInfo {
            name: wavekit_native::driver::Driver::name(&driver)?,
            driver: description,
        };
        let mut target = Target::new(
            <T::Code as NativeCode>::BACKEND,
            SubgroupSize::fixed(code.subgroup_size())?,
        );
        target.scalars = ScalarFeatures::ALL;
        Ok(NativeDevice {
            driver: ManuallyDrop::new(driver),
            code,
            info,
            target,
        })
    }

    /// The device's description.
    pub(super) fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The target: the subgroup size, every scalar type.
    pub(super) fn target(&self) -> &Target {
        &self.target
    }

    /// Compiles `entry` with `lower` options and loads it.
    pub(super) fn kernel(
        &self,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
    ) -> Result<NativeKernel<DriverOf<T>>, Error> {
        self.code
            .load(&self.driver, module, entry, lower, "shader.wgsl")
    }

    /// Launches with buffers bound at their slots (any group; uniforms
    /// too: the kernel ABI takes every storage and uniform buffer, in
    /// (group, binding) order); returns the buffers read back, in the order
    /// of `bound`.
    pub(super) fn run_slots(
        &self,
        kernel: &NativeKernel<DriverOf<T>>,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.abi, bound)?;
        self.driver.launch(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.abi.workgroup_size,
            0,
        )?;
        Ok(bound.outputs())
    }

    /// Times `runs` launches after `warmup` with the runtime's events;
    /// milliseconds.
    pub(super) fn time_slots(
        &self,
        kernel: &NativeKernel<DriverOf<T>>,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.abi, bound)?;
        let times = self.driver.time(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.abi.workgroup_size,
            0,
            warmup,
            runs,
        )?;
        Ok(times.into_iter().map(f64::from).collect())
    }
}
