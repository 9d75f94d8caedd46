//! The CUDA back end of the runner: the validated module lowered to PTX by
//! `wavekit-native` (LLVM 19 NVPTX), JIT-loaded and launched through the
//! CUDA driver API, loaded at run time.

use wavekit_native::cuda::{Cuda, CudaBuffer, CudaKernel, CudaStep};
use wavekit_native::lower::Source;
use wavekit_native::nvptx::{self, Ptx, PtxOptions};

use super::native_buffers::NativeBuffers;
use super::program::{Buffer, BufferInner, Step, foreign};
use super::{Binding, DeviceInfo};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Backend, ScalarFeatures, SubgroupSize, Target};

/// An opened CUDA GPU.
pub struct CudaDevice {
    cuda: Cuda,
    sm: u32,
    info: DeviceInfo,
    target: Target,
}

/// A compiled, loaded kernel.
pub struct CudaKernelHandle {
    kernel: CudaKernel,
    ptx: Ptx,
}

impl CudaKernelHandle {
    /// The PTX it was loaded from.
    pub fn ptx(&self) -> &Ptx {
        &self.ptx
    }
}

impl CudaDevice {
    /// Opens device `ordinal`; a clear error when there is no CUDA driver.
    pub fn open(ordinal: usize) -> Result<CudaDevice, Error> {
        let cuda = Cuda::open(ordinal)?;
        let (major, minor) = cuda.compute_capability()?;
        let sm = match major * 10 + minor {
            cc if cc >= 90 => 90,
            cc if cc >= 80 => 80,
            cc if cc >= 70 => 70,
            cc => {
                return Err(Error::Gpu(format!(
                    "CUDA device {ordinal} is sm_{cc}; the native back end needs sm_70 or newer"
                )));
            }
        };
        let driver = cuda.driver_version()?;
        let info = DeviceInfo {
            name: cuda.name()?,
            driver: format!(
                "CUDA {}.{} driver, PTX for sm_{sm} (compute capability {major}.{minor})",
                driver / 1000,
                driver % 1000 / 10
            ),
        };
        let mut target = Target::new(Backend::Cuda, SubgroupSize::fixed(nvptx::WARP_SIZE)?);
        target.scalars = ScalarFeatures::ALL;
        Ok(CudaDevice {
            cuda,
            sm,
            info,
            target,
        })
    }

    /// The device's description.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The target: 32 lanes, every scalar type.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Lowers `entry` to PTX and loads it.
    pub fn kernel(&self, module: &ValidModule, entry: &str) -> Result<CudaKernelHandle, Error> {
        let ptx = nvptx::compile(
            &module.module,
            &module.info,
            entry,
            &PtxOptions {
                sm: self.sm,
                source: Some(Source {
                    name: "shader.wgsl",
                    text: &module.source,
                }),
            },
        )?;
        let kernel = self.cuda.load(&ptx.text, &ptx.entry)?;
        Ok(CudaKernelHandle { kernel, ptx })
    }

    /// Launches with buffers bound by `@binding` number (group 0).
    pub fn run_at(
        &self,
        kernel: &CudaKernelHandle,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.ptx.abi, numbered)?;
        self.cuda.launch(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.ptx.abi.workgroup_size,
            0,
        )?;
        Ok(bound.outputs())
    }

    /// Times `runs` launches after `warmup` with CUDA events; milliseconds.
    pub fn time_at(
        &self,
        kernel: &CudaKernelHandle,
        numbered: &[(u32, Binding<'_>)],
        workgroups: [u32; 3],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let mut bound = NativeBuffers::bind(&kernel.ptx.abi, numbered)?;
        let times = self.cuda.time(
            &kernel.kernel,
            &mut bound.buffers,
            workgroups,
            kernel.ptx.abi.workgroup_size,
            0,
            warmup,
            runs,
        )?;
        Ok(times.into_iter().map(f64::from).collect())
    }
}

impl CudaDevice {
    /// The driver handle, for device-resident buffers.
    pub(super) fn cuda(&self) -> &Cuda {
        &self.cuda
    }

    /// Runs a program of steps and waits for it.
    pub(super) fn execute(&self, steps: &[Step<'_>]) -> Result<(), Error> {
        Ok(self.cuda.execute(&cuda_steps(steps)?)?)
    }

    /// Times a program with CUDA events; milliseconds per run.
    pub(super) fn time_program(
        &self,
        steps: &[Step<'_>],
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let times = self
            .cuda
            .time_program(&cuda_steps(steps)?, warmup, runs.max(1))?;
        Ok(times.into_iter().map(f64::from).collect())
    }
}

/// The steps in the driver's terms: each dispatch's buffers put in the
/// kernel ABI's order and checked against their bindings' sizes.
fn cuda_steps<'a>(steps: &[Step<'a>]) -> Result<Vec<CudaStep<'a>>, Error> {
    steps
        .iter()
        .map(|step| {
            Ok(match step {
                Step::Dispatch {
                    kernel,
                    buffers,
                    workgroups,
                } => {
                    let handle = kernel.cuda().ok_or_else(|| foreign("a dispatch"))?;
                    let abi = &handle.ptx.abi;
                    let ordered = abi
                        .buffers
                        .iter()
                        .map(|param| {
                            let buffer = buffers
                                .get(param.binding as usize)
                                .filter(|_| param.group == 0)
                                .ok_or_else(|| {
                                    Error::Gpu(format!(
                                        "kernel `{}`: no buffer for @group({}) @binding({})",
                                        handle.kernel.name(),
                                        param.group,
                                        param.binding
                                    ))
                                })?;
                            let cuda = cuda_buffer(buffer)?;
                            param.check(cuda.len()).map_err(|e| {
                                Error::Gpu(format!("kernel `{}`: {e}", handle.kernel.name()))
                            })?;
                            Ok(cuda)
                        })
                        .collect::<Result<Vec<_>, Error>>()?;
                    CudaStep::Launch {
                        kernel: &handle.kernel,
                        buffers: ordered,
                        grid: *workgroups,
                        block: abi.workgroup_size,
                    }
                }
                Step::Zero(buffer) => CudaStep::Zero(cuda_buffer(buffer)?),
                Step::Copy { src, dst } => CudaStep::Copy {
                    src: cuda_buffer(src)?,
                    dst: cuda_buffer(dst)?,
                },
            })
        })
        .collect()
}

fn cuda_buffer(buffer: &Buffer) -> Result<&CudaBuffer, Error> {
    match &buffer.inner {
        BufferInner::Cuda(b) => Ok(b),
        BufferInner::Wgpu(_) => Err(foreign("a CUDA step")),
    }
}
