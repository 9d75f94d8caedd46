//! The native [`Api`], written once for CUDA and HIP over
//! `wavekit-native`'s [`Driver`] and [`Streams`]: entry points lowered by
//! the API's [`NativeCode`] and loaded once; clears queued as asynchronous
//! memsets and dispatches as launches on the caller's stream, each bound
//! range passed as its device address and byte length (the kernel ABI,
//! [`wavekit_native::abi`]).

use wavekit_native::LowerOptions;
use wavekit_native::abi::KernelAbi;
use wavekit_native::driver::{Driver, Kernel, Streams};
use wavekit_native::lower::Source;

use super::api::{Api, ApiKind};
use super::memory::{Memory, Range};
use super::op::{Checks, Op, Pipeline};
use crate::error::Error;
use crate::expand::ValidModule;
use crate::target::{Backend, ScalarFeatures, SubgroupSize, Target};

/// A loaded kernel and the ABI it was lowered to.
pub(crate) struct NativeKernel<D: Driver> {
    /// The kernel.
    pub kernel: Kernel<D>,
    /// Its parameters and workgroup size.
    pub abi: KernelAbi,
}

/// What differs between native APIs: the code they compile.
pub(crate) trait NativeCode: Send + Sync + Sized + 'static {
    /// The runtime.
    type Driver: Driver + Streams + Send + Sync;
    /// The API.
    const KIND: ApiKind;
    /// The back end it is.
    const BACKEND: Backend;

    /// Lanes per subgroup of the kernels it compiles.
    fn subgroup_size(&self) -> u32;

    /// Compiles entry point `entry` of `module` with `lower` options
    /// (bounds checks, workgroup zeroing), its WGSL named `name` in error
    /// locations, and loads it.
    fn load(
        &self,
        driver: &Self::Driver,
        module: &ValidModule,
        entry: &str,
        lower: LowerOptions,
        name: &str,
    ) -> Result<NativeKernel<Self::Driver>, Error>;
}

/// The module's WGSL under `name`, for error locations in what the
/// lowering reports.
pub(crate) fn source<'a>(module: &'a ValidModule, name: &'a str) -> Source<'a> {
    Source {
        name,
        text: &module.source,
    }
}

/// A native device, as an algorithm holds it.
pub(crate) struct NativeServer<C: NativeCode> {
    driver: C::Driver,
    code: C,
    target: Target,
}

/// CUDA and HIP ranges start at a multiple of this: the kernels load
/// `vec4`s.
const NATIVE_ALIGNMENT: u64 = 16;

impl<C: NativeCode> NativeServer<C> {
    /// The server of `driver`, compiling what `code` decides for it.
    pub fn new(
        driver: C::Driver,
        code: impl FnOnce(&C::Driver) -> Result<C, Error>,
    ) -> Result<Self, Error> {
        let code = code(&driver)?;
        let mut target = Target::new(C::BACKEND, SubgroupSize::fixed(code.subgroup_size())?);
        target.scalars = ScalarFeatures::ALL;
        Ok(NativeServer {
            driver,
            code,
            target,
        })
    }
}

impl<C: NativeCode> Api for NativeServer<C> {
    type Queue<'q> = &'q <C::Driver as Streams>::Stream;
    const KIND: ApiKind = C::KIND;

    fn target(&self) -> &Target {
        &self.target
    }

    /// Byte lengths reach kernels as `u32` ([`wavekit_native::abi`]).
    fn bind_limits(&self) -> (u64, u64) {
        (NATIVE_ALIGNMENT, u64::from(u32::MAX) / 4 * 4)
    }

    fn max_workgroups(&self) -> u32 {
        65535
    }

    fn multiprocessors(&self) -> Option<u32> {
        self.driver.multiprocessors()
    }

    fn pipelines(
        &self,
        module: &ValidModule,
        entries: &[&str],
        checks: Checks,
        resident: Option<u32>,
    ) -> Result<Vec<Pipeline>, Error> {
        let bounds = match checks {
            Checks::Bounded => wavekit_native::BoundsChecks::Restrict,
            Checks::Proven => wavekit_native::BoundsChecks::Unchecked,
        };
        let lower = wavekit_native::LowerOptions {
            min_resident_workgroups: resident,
            ..bounds.into()
        };
        entries
            .iter()
            .map(|entry| {
                let kernel =
                    self.code
                        .load(&self.driver, module, entry, lower, "wavekit::device")?;
                Ok(Pipeline::new(kernel))
            })
            .collect()
    }

    fn record(&self, stream: &<C::Driver as Streams>::Stream, ops: &[Op<'_>]) -> Result<(), Error> {
        for op in ops {
            match op {
                Op::Clear(range) => {
                    let (address, _) = native_range(range, C::KIND)?;
                    // SAFETY: the range was checked to lie in the caller's
                    // memory, which the caller keeps allocated until the
                    // stream has run the call (`Slice::cuda`, `Slice::hip`).
                    unsafe { self.driver.zero_on(stream, address, range.size as usize)? };
                }
                Op::Dispatch(pipeline, ranges, grid) => {
                    let kernel = pipeline.of::<NativeKernel<C::Driver>>().ok_or_else(|| {
                        Error::Gpu(format!(
                            "wavekit::device: a pipeline of another API recorded on {}",
                            C::KIND.name()
                        ))
                    })?;
                    let buffers = arguments(kernel, ranges, C::KIND)?;
                    // SAFETY: each range was checked to lie in the caller's
                    // memory (kept allocated until the stream has run the
                    // call) and its length against the binding; the pairs
                    // are in the ABI's order; kernels built without bounds
                    // checks are the ones whose shaders prove their
                    // accesses stay inside those lengths.
                    unsafe {
                        self.driver.launch_on(
                            stream,
                            &kernel.kernel,
                            *grid,
                            kernel.abi.workgroup_size,
                            &buffers,
                        )?
                    };
                }
            }
        }
        Ok(())
    }
}

/// The (address, byte length) pairs of a dispatch of `kernel` with
/// `ranges[i]` (memory of `kind`) at `@group(0) @binding(i)`, in the ABI's
/// order, each length checked against its binding.
fn arguments<D: Driver>(
    kernel: &NativeKernel<D>,
    ranges: &[Range<'_>],
    kind: ApiKind,
) -> Result<Vec<(u64, u32)>, Error> {
    in_abi_order(kernel, ranges, "range", |range| {
        let (address, bytes) = native_range(range, kind)?;
        Ok(((address, bytes), bytes as usize))
    })
}

/// `bound[i]` (a `what` at `@group(0) @binding(i)`) in the order of
/// `kernel`'s parameters, each as `convert` makes it for the launch, with
/// its byte length checked against the binding.
pub(crate) fn in_abi_order<'a, D: Driver, B, T>(
    kernel: &NativeKernel<D>,
    bound: &'a [B],
    what: &str,
    convert: impl Fn(&'a B) -> Result<(T, usize), Error>,
) -> Result<Vec<T>, Error> {
    let name = kernel.kernel.name();
    kernel
        .abi
        .buffers
        .iter()
        .map(|param| {
            let item = bound
                .get(param.binding as usize)
                .filter(|_| param.group == 0)
                .ok_or_else(|| {
                    Error::Gpu(format!(
                        "kernel `{name}`: no {what} for @group({}) @binding({})",
                        param.group, param.binding
                    ))
                })?;
            let (converted, bytes) = convert(item)?;
            param
                .check(bytes)
                .map_err(|e| Error::Gpu(format!("kernel `{name}`: {e}")))?;
            Ok(converted)
        })
        .collect()
}

/// The device address and byte length of a range of `kind`'s memory.
fn native_range(range: &Range<'_>, kind: ApiKind) -> Result<(u64, u32), Error> {
    match (range.buffer, kind) {
        (Memory::Cuda { .. }, ApiKind::Cuda) | (Memory::Hip { .. }, ApiKind::Hip) => Ok(range
            .native()
            .unwrap_or_else(|| unreachable!("native memory"))),
        _ => Err(Error::Gpu(format!(
            "wavekit::device: memory of another API bound on {}",
            kind.name()
        ))),
    }
}
