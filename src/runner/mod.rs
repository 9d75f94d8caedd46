//! The one host API over wavekit's back ends: open a device (a wgpu
//! adapter, a CUDA GPU or a HIP GPU), build a kernel from a validated module, bind
//! storage and uniform buffers by group and number, dispatch, read back. The conformance suite,
//! the CLI and the demos run the same code on every back end.

mod binding;
#[cfg(feature = "native")]
mod cuda_device;
#[cfg(feature = "native")]
mod hip_device;
mod layout;
#[cfg(feature = "native")]
mod native_buffers;
#[cfg(feature = "native")]
mod native_device;
#[cfg(feature = "native")]
mod native_program;
mod options;
mod program;
mod select;
mod validate;
mod wgpu_device;
mod wgpu_layout;
mod wgpu_program;

pub use binding::{Binding, Slot};
pub use layout::{BufferBinding, buffer_bindings};
pub use options::KernelOptions;
pub use program::{Buffer, Recorder, Step};
pub use select::{AdapterChoice, NO_DRIVER, list_adapter_modes, list_adapters};
pub use validate::DeviceLimits;
pub use wgpu_device::{WgpuDevice, WgpuKernel};

#[cfg(feature = "native")]
use cuda_device::{CudaDevice, CudaKernelHandle};
#[cfg(feature = "native")]
use hip_device::{HipDevice, HipKernelHandle};

use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::Target;

/// What a device is, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Adapter or GPU name.
    pub name: String,
    /// The back end and driver, in words.
    pub driver: String,
}

/// An opened device of any back end, with the target it offers.
///
/// `Gpu`, [`Buffer`] and [`Kernel`] are `Send` and `Sync`: threads may
/// share one `Gpu` and run programs on it at the same time. Each call
/// waits for the work it queued (on CUDA and HIP the device's one stream,
/// so programs from several threads run one after another there).
pub struct Gpu {
    device: Device,
    info: DeviceInfo,
    limits: DeviceLimits,
}

enum Device {
    Wgpu(Box<WgpuDevice>),
    #[cfg(feature = "native")]
    Cuda(CudaDevice),
    #[cfg(feature = "native")]
    Hip(HipDevice),
}

/// A kernel ready to dispatch on the device that built it.
pub struct Kernel {
    inner: KernelInner,
    /// The entry point, for errors.
    entry: String,
    /// Every buffer binding of its module, checked before each dispatch.
    bindings: Vec<BufferBinding>,
}

enum KernelInner {
    Wgpu(WgpuKernel),
    #[cfg(feature = "native")]
    Cuda(CudaKernelHandle),
    #[cfg(feature = "native")]
    Hip(HipKernelHandle),
}

impl Gpu {
    /// Opens the wgpu adapter `choice` selects, with the features its target needs.
    pub fn open(choice: &AdapterChoice) -> Result<Gpu, Error> {
        let device = WgpuDevice::open(choice)?;
        let info = device.info();
        let info = DeviceInfo {
            name: info.name.clone(),
            driver: format!("{:?}, {} {}", info.backend, info.driver, info.driver_info),
        };
        let limits = DeviceLimits::of_wgpu(&device.device().limits());
        Ok(Gpu {
            device: Device::Wgpu(Box::new(device)),
            info,
            limits,
        })
    }

    #[cfg(feature = "native")]
    /// Opens CUDA device `ordinal` through the native back end (PTX, cudarc).
    pub fn open_cuda(ordinal: usize) -> Result<Gpu, Error> {
        let device = CudaDevice::open(ordinal, ())?;
        let info = device.info().clone();
        Ok(Gpu {
            device: Device::Cuda(device),
            info,
            limits: DeviceLimits::NATIVE,
        })
    }

    #[cfg(feature = "native")]
    /// Opens HIP device `ordinal` through the native AMDGPU back end, with
    /// code objects for `arch` (`gfx90a`, `gfx942`, `gfx1030`, `gfx1100` or
    /// `gfx1200`: HIP has no stable call that names it, `rocminfo` or
    /// `amdgpu-arch` print it) at `wave` lanes (`None`: 64 on CDNA, 32 on
    /// RDNA, which also runs 64).
    pub fn open_hip(ordinal: usize, arch: &str, wave: Option<u32>) -> Result<Gpu, Error> {
        let device = HipDevice::open(ordinal, crate::backend::hip_code::amdgpu(arch, wave)?)?;
        let info = device.info().clone();
        Ok(Gpu {
            device: Device::Hip(device),
            info,
            limits: DeviceLimits::NATIVE,
        })
    }

    /// The device's description.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Device memory in use, in bytes, where the API says: wgpu's allocator
    /// report (what wgpu has allocated), CUDA's `cuMemGetInfo` (the whole
    /// device's) after waiting for the context's work and trimming the
    /// device's default memory pool, which keeps what stream-ordered frees
    /// return; `None` on HIP, where wgpu's back end keeps no report, and
    /// on a CUDA device whose wait timed out.
    pub fn memory_in_use(&self) -> Option<u64> {
        match &self.device {
            Device::Wgpu(d) => d
                .device()
                .generate_allocator_report()
                .map(|r| r.total_allocated_bytes),
            #[cfg(feature = "native")]
            Device::Cuda(d) => {
                use wavekit_native::cudarc::driver::sys;
                use wavekit_native::driver::Driver;
                // A device that timed out may never finish: no wait.
                if d.driver.wait_limit().timed_out() {
                    return None;
                }
                let context = d.driver.context();
                context.bind_to_thread().ok()?;
                context.synchronize().ok()?;
                let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
                // SAFETY: writes one handle; the device is the context's.
                let found =
                    unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, context.cu_device()) };
                if found == sys::CUresult::CUDA_SUCCESS {
                    // SAFETY: the pool is the device's default; trimming
                    // frees only memory no allocation holds.
                    unsafe { sys::cuMemPoolTrimTo(pool, 0) };
                }
                wavekit_native::cudarc::driver::result::mem_get_info()
                    .ok()
                    .map(|(free, total)| (total - free) as u64)
            }
            #[cfg(feature = "native")]
            Device::Hip(_) => None,
        }
    }

    /// Sets how long each wait for the device may take (`None`, the
    /// default: for ever). A program, dispatch or read-back still running
    /// after it fails with [`Error::Timeout`]. The device keeps running it
    /// (no runtime can stop a kernel; the process's exit does): later work
    /// on this device waits behind it, and dropping a `Gpu` that timed out
    /// leaks its device rather than wait. `wavekit run --timeout` sets it.
    pub fn set_wait_limit(&self, limit: Option<std::time::Duration>) {
        match &self.device {
            Device::Wgpu(d) => d.set_wait_limit(limit),
            #[cfg(feature = "native")]
            Device::Cuda(d) => wavekit_native::driver::Driver::wait_limit(&*d.driver).set(limit),
            #[cfg(feature = "native")]
            Device::Hip(d) => wavekit_native::driver::Driver::wait_limit(&*d.driver).set(limit),
        }
    }

    /// The limits every dispatch and buffer is checked against.
    pub fn limits(&self) -> &DeviceLimits {
        &self.limits
    }

    /// The target the device offers.
    pub fn target(&self) -> &Target {
        match &self.device {
            Device::Wgpu(d) => d.target(),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.target(),
            #[cfg(feature = "native")]
            Device::Hip(d) => d.target(),
        }
    }

    /// The wgpu device, for callers that build their own pipelines.
    pub fn wgpu(&self) -> Option<&WgpuDevice> {
        match &self.device {
            Device::Wgpu(d) => Some(d),
            #[cfg(feature = "native")]
            Device::Cuda(_) | Device::Hip(_) => None,
        }
    }

    /// The device [`crate::device`] algorithms are built on to run in this
    /// GPU's programs ([`Step::Record`] on [`Buffer::slice`]s): the wgpu
    /// device, the CUDA context, or the HIP device and its code objects'
    /// target.
    pub fn library_device(&self) -> crate::backend::Device<'_> {
        match &self.device {
            Device::Wgpu(d) => d.device().into(),
            #[cfg(feature = "native")]
            Device::Cuda(d) => d.driver.context().into(),
            #[cfg(feature = "native")]
            Device::Hip(d) => (&*d.driver, d.code.amdgpu).into(),
        }
    }

    /// Builds a kernel for entry point `entry` of `module`, with every
    /// runtime check of [`KernelOptions::default`].
    pub fn kernel(&self, module: &ValidModule, entry: &str) -> Result<Kernel, Error> {
        self.kernel_with(module, entry, KernelOptions::default())
    }

    /// Builds a kernel for entry point `entry` of `module` with `options`.
    /// Refuses a module expanded for subgroup sizes the device does not run
    /// ([`Error::SubgroupSizeMismatch`]).
    pub fn kernel_with(
        &self,
        module: &ValidModule,
        entry: &str,
        options: KernelOptions,
    ) -> Result<Kernel, Error> {
        let (module_sizes, device_sizes) =
            (module.target.subgroup_size, self.target().subgroup_size);
        if !module_sizes.covers(device_sizes) {
            return Err(Error::SubgroupSizeMismatch {
                module: module_sizes.to_string(),
                device: device_sizes.to_string(),
            });
        }
        Ok(Kernel {
            entry: entry.to_string(),
            bindings: buffer_bindings(&module.module),
            inner: match &self.device {
                Device::Wgpu(d) => KernelInner::Wgpu(d.kernel(module, entry, options)?),
                #[cfg(feature = "native")]
                Device::Cuda(d) => {
                    KernelInner::Cuda(d.kernel(module, entry, options.native_lower())?)
                }
                #[cfg(feature = "native")]
                Device::Hip(d) => {
                    KernelInner::Hip(d.kernel(module, entry, options.native_lower())?)
                }
            },
        })
    }

    /// Dispatches `kernel` over `workgroups` with `bindings[i]` at
    /// `@group(0) @binding(i)`; returns the contents of the buffers read
    /// back ([`Binding::Output`], [`Binding::ReadWrite`]), in list order.
    pub fn run(
        &self,
        kernel: &Kernel,
        bindings: &[Binding<'_>],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let numbered: Vec<(u32, Binding<'_>)> = bindings
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32, *b))
            .collect();
        self.run_at(kernel, &numbered, workgroups)
    }

    /// Like [`Gpu::run`], with explicit `@binding` numbers in group 0.
    pub fn run_at(
        &self,
        kernel: &Kernel,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.run_slots(kernel, &in_group_0(numbered), workgroups)
    }

    /// Dispatches `kernel` over `workgroups` with each buffer of `bound` at
    /// its [`Slot`], in any bind groups; returns the contents of the
    /// buffers read back ([`Binding::Output`], [`Binding::ReadWrite`]), in
    /// the order of `bound`. Before anything reaches the device, every
    /// binding is checked against the variable the shader declares at its
    /// slot (present, bound once, of the right kind and size); a mismatch
    /// is an [`Error::Dispatch`] that names the slot and the numbers.
    pub fn run_slots(
        &self,
        kernel: &Kernel,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.check_slots(kernel, bound, workgroups)?;
        match (&self.device, &kernel.inner) {
            (Device::Wgpu(d), KernelInner::Wgpu(k)) => d.run_slots(k, bound, workgroups),
            #[cfg(feature = "native")]
            (Device::Cuda(d), KernelInner::Cuda(k)) => d.run_slots(k, bound, workgroups),
            #[cfg(feature = "native")]
            (Device::Hip(d), KernelInner::Hip(k)) => d.run_slots(k, bound, workgroups),
            #[cfg(feature = "native")]
            _ => Err(Error::Gpu(
                "a kernel dispatched on another back end than the one that built it".into(),
            )),
        }
    }

    /// Times `runs` dispatches after `warmup` untimed ones, on the GPU's own
    /// clock (timestamp queries on wgpu, events on CUDA and HIP); returns
    /// each run's milliseconds. Buffers are bound as for [`Gpu::run_at`].
    pub fn time_at(
        &self,
        kernel: &Kernel,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        self.time_slots(kernel, &in_group_0(numbered), workgroups, warmup, runs)
    }

    /// Like [`Gpu::time_at`], with buffers bound at any [`Slot`] as for
    /// [`Gpu::run_slots`]; nothing is read back.
    pub fn time_slots(
        &self,
        kernel: &Kernel,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        self.check_slots(kernel, bound, workgroups)?;
        match (&self.device, &kernel.inner) {
            (Device::Wgpu(d), KernelInner::Wgpu(k)) => {
                d.time_slots(k, bound, workgroups, warmup, runs)
            }
            #[cfg(feature = "native")]
            (Device::Cuda(d), KernelInner::Cuda(k)) => {
                d.time_slots(k, bound, workgroups, warmup, runs)
            }
            #[cfg(feature = "native")]
            (Device::Hip(d), KernelInner::Hip(k)) => {
                d.time_slots(k, bound, workgroups, warmup, runs)
            }
            #[cfg(feature = "native")]
            _ => Err(Error::Gpu(
                "a kernel timed on another back end than the one that built it".into(),
            )),
        }
    }
}

impl Gpu {
    /// The host-side checks of a dispatch of `kernel` with `bound`.
    fn check_slots(
        &self,
        kernel: &Kernel,
        bound: &[(Slot, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<(), Error> {
        let bound: Vec<validate::Bound> = bound
            .iter()
            .map(|(slot, b)| validate::Bound {
                group: slot.group,
                binding: slot.binding,
                bytes: b.bytes(),
                kind: match b {
                    Binding::Input(_) => validate::BoundKind::Input,
                    Binding::Output { .. } => validate::BoundKind::Output,
                    Binding::ReadWrite(_) => validate::BoundKind::ReadWrite,
                    Binding::Uniform(_) => validate::BoundKind::Uniform,
                },
            })
            .collect();
        for b in &bound {
            self.limits.check_buffer(b.bytes)?;
        }
        validate::check_dispatch(
            &kernel.entry,
            &kernel.bindings,
            &bound,
            workgroups,
            &self.limits,
        )
    }
}

/// `@binding` numbers of group 0 as slots.
fn in_group_0<'a>(numbered: &[(u32, Binding<'a>)]) -> Vec<(Slot, Binding<'a>)> {
    numbered
        .iter()
        .map(|(binding, b)| (Slot::new(0, *binding), *b))
        .collect()
}

/// Little-endian `u32` words of a read-back buffer.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytemuck::pod_collect_to_vec(bytes)
}
