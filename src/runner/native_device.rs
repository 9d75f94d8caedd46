//! The native back ends of the runner (CUDA, HIP), written once over
//! `wavekit-native`'s driver layer: a validated module compiled for the
//! device by its [`NativeTarget`], loaded, launched on bindings and timed.
//! Programs over resident buffers are in `native_program.rs`.

use wavekit_native::LowerOptions;
use wavekit_native::abi::KernelAbi;
use wavekit_native::driver::{self, Driver, Kernel as DriverKernel, Launch};
use wavekit_native::lower::Source;

use super::native_buffers::NativeBuffers;
use super::program::{Buffer, BufferInner};
use super::{Binding, DeviceInfo, Kernel, Slot};
use crate::device::Queue;
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Backend, ScalarFeatures, SubgroupSize, Target};

/// What differs between native back ends: opening the device, compiling
/// for it, and where its kernels and buffers sit in the runner's enums.
pub(super) trait NativeTarget: Sized {
    /// The runtime.
    type Driver: Driver;
    /// What the caller says about the code to compile, beyond what the
    /// device reports (HIP: the architecture and wave size).
    type Choice;
    /// The back end it is.
    const BACKEND: Backend;

    /// Opens device `ordinal` and decides what to compile for it. Returns
    /// the driver, the target, and the runtime and code it uses in words
    /// (for [`DeviceInfo::driver`]).
    fn open(ordinal: usize, choice: Self::Choice) -> Result<(Self::Driver, Self, String), Error>;

    /// Lanes per subgroup of the kernels it compiles: the subgroup size of
    /// the device's [`Target`].
    fn subgroup_size(&self) -> u32;

    /// Compiles entry point `entry` of `module` for the device with
    /// `lower` options (bounds checks, workgroup zeroing), and loads it.
    fn load(
        &self,
        driver: &Self::Driver,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
    ) -> Result<NativeKernel<Self>, Error>;

    /// `kernel` as this back end's, if it is one.
    fn kernel_of(kernel: &Kernel) -> Option<&NativeKernel<Self>>;

    /// `buffer` as this back end's, if it is one.
    fn buffer_of(buffer: &Buffer) -> Option<&driver::Buffer<Self::Driver>>;

    /// A buffer of this back end as the runner holds it.
    fn buffer_inner(buffer: driver::Buffer<Self::Driver>) -> BufferInner;

    /// The queue [`crate::device`] algorithms record into on this device
    /// (the driver's own, so that they run in order with the program's
    /// other steps), or `None` where they have no path.
    fn queue(driver: &Self::Driver) -> Option<Queue<'_>>;
}

/// An opened native device.
pub(super) struct NativeDevice<T: NativeTarget> {
    pub(super) driver: T::Driver,
    layer: T,
    info: DeviceInfo,
    target: Target,
}

/// A compiled, loaded kernel and the ABI it was lowered to.
pub(super) struct NativeKernel<T: NativeTarget> {
    pub(super) kernel: DriverKernel<T::Driver>,
    pub(super) abi: KernelAbi,
}

/// The module's WGSL, for error locations in what the lowering reports.
pub(super) fn source(module: &ValidModule) -> Source<'_> {
    Source {
        name: "shader.wgsl",
        text: &module.source,
    }
}

impl<T: NativeTarget> NativeDevice<T> {
    /// Opens device `ordinal` for `choice`; a clear error when there is no
    /// driver or runtime.
    pub(super) fn open(ordinal: usize, choice: T::Choice) -> Result<Self, Error> {
        let (driver, layer, description) = T::open(ordinal, choice)?;
        let info = DeviceInfo {
            name: driver.name()?,
            driver: description,
        };
        let mut target = Target::new(T::BACKEND, SubgroupSize::fixed(layer.subgroup_size())?);
        target.scalars = ScalarFeatures::ALL;
        Ok(NativeDevice {
            driver,
            layer,
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
    ) -> Result<NativeKernel<T>, Error> {
        self.layer.load(&self.driver, module, entry, lower)
    }

    /// Launches with buffers bound at their slots (any group; uniforms
    /// too: the kernel ABI takes every storage and uniform buffer, in
    /// (group, binding) order); returns the buffers read back, in the order
    /// of `bound`.
    pub(super) fn run_slots(
        &self,
        kernel: &NativeKernel<T>,
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
        kernel: &NativeKernel<T>,
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
