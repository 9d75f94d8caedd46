//! [`Slice`]: where in a caller's buffer an algorithm reads or writes, and
//! the checks every call makes on it before recording anything.

use crate::backend::{ApiKind, Memory, Range, Server};
use crate::error::Error;

/// The part of a caller's buffer from byte `offset` on, passed to a device
/// algorithm: a [`wgpu::Buffer`] on a wgpu device ([`Slice::new`], or
/// `(&buffer).into()`), device memory on a CUDA context ([`Slice::cuda`],
/// `(&cuda_slice).into()`, [`Slice::from_raw_cuda`]) or a HIP device
/// ([`Slice::hip`], [`Slice::from_raw_hip`]). How many bytes from
/// there it reads or writes follows from the element count of the call
/// (`n` elements of 4 bytes for data slices, `temp_storage_bytes(n)` for
/// temp slices); bytes past those are never touched.
///
/// Requirements, checked by every call: the bytes in the buffer; on wgpu,
/// `offset` a multiple of the device's `min_storage_buffer_offset_alignment`
/// (256 on most GPUs) and the buffer created with
/// [`wgpu::BufferUsages::STORAGE`]; on CUDA and HIP, the address plus
/// `offset` a multiple of 16 (the kernels load vec4s).
#[derive(Clone, Copy, Debug)]
pub struct Slice<'a> {
    memory: Memory<'a>,
    offset: u64,
}

impl<'a> Slice<'a> {
    /// The part of wgpu `buffer` from byte `offset` on.
    pub fn new(buffer: &'a wgpu::Buffer, offset: u64) -> Self {
        Slice {
            memory: Memory::Wgpu(buffer),
            offset,
        }
    }

    /// The part of the CUDA device memory `memory` from byte `offset` on
    /// (a view of a `CudaSlice` is the slice and an offset).
    ///
    /// The call queues work on the stream it is given and does not tell
    /// cudarc's per-slice event tracking: when the memory is also used on
    /// other streams, order those uses with the call's stream yourself
    /// (as with CUB's raw pointers), and keep the memory allocated until
    /// the stream has run the call.
    #[cfg(feature = "native")]
    pub fn cuda<T>(memory: &'a wavekit_native::cudarc::driver::CudaSlice<T>, offset: u64) -> Self {
        use wavekit_native::cudarc::driver::DevicePtr;
        // The guard records a read on the slice's own stream when cudarc
        // tracks events; the call's stream is not known here.
        let (address, _guard) = memory.device_ptr(memory.stream());
        let bytes = memory.num_bytes() as u64;
        Slice {
            memory: Memory::Cuda { address, bytes },
            offset,
        }
    }

    /// The `bytes` bytes of CUDA device memory at `address` (a
    /// `CUdeviceptr`), for memory that cudarc does not own.
    ///
    /// # Safety
    ///
    /// `address` must start `bytes` bytes of device memory of the context
    /// the algorithm was built on, allocated until the stream has run
    /// every call given this slice; nothing else may use them meanwhile.
    #[cfg(feature = "native")]
    pub unsafe fn from_raw_cuda(address: u64, bytes: u64) -> Self {
        Slice {
            memory: Memory::Cuda { address, bytes },
            offset: 0,
        }
    }

    /// The part of the HIP device memory `memory` from byte `offset` on.
    ///
    /// The call queues work on the stream it is given: keep the memory
    /// allocated until the stream has run it.
    #[cfg(feature = "native")]
    pub fn hip(memory: &'a wavekit_native::hip::HipMemory, offset: u64) -> Self {
        Slice {
            memory: Memory::Hip {
                address: memory.address(),
                bytes: memory.bytes() as u64,
            },
            offset,
        }
    }

    /// The `bytes` bytes of HIP device memory at `address` (a
    /// `hipDeviceptr_t`), for memory that wavekit does not own.
    ///
    /// # Safety
    ///
    /// `address` must start `bytes` bytes of device memory of the HIP
    /// device the algorithm was built on, allocated until the stream has
    /// run every call given this slice; nothing else may use them
    /// meanwhile.
    #[cfg(feature = "native")]
    pub unsafe fn from_raw_hip(address: u64, bytes: u64) -> Self {
        Slice {
            memory: Memory::Hip { address, bytes },
            offset: 0,
        }
    }

    /// Byte offset of the first element.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl<'a> From<&'a wgpu::Buffer> for Slice<'a> {
    /// The buffer from its start.
    fn from(buffer: &'a wgpu::Buffer) -> Self {
        Slice::new(buffer, 0)
    }
}

#[cfg(feature = "native")]
impl<'a, T> From<&'a wavekit_native::cudarc::driver::CudaSlice<T>> for Slice<'a> {
    /// The device memory from its start.
    fn from(memory: &'a wavekit_native::cudarc::driver::CudaSlice<T>) -> Self {
        Slice::cuda(memory, 0)
    }
}

/// The limits a call checks its slices against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SliceLimits {
    /// Alignment of a bound range's start: of the offset on wgpu, of the
    /// address natively.
    pub alignment: u64,
    pub max_binding: u64,
    /// The API the algorithm runs on (its slices must be its memory).
    pub api: ApiKind,
}

impl SliceLimits {
    /// The limits of `server`'s device.
    pub fn of(server: &Server) -> Self {
        let (alignment, max_binding) = server.bind_limits();
        SliceLimits {
            alignment,
            max_binding,
            api: server.kind(),
        }
    }

    /// `slice` checked to hold `bytes` bytes for `what` (`"keys_in"`, ...)
    /// of algorithm `algorithm`.
    pub fn check<'a>(
        &self,
        algorithm: &str,
        what: &str,
        slice: Slice<'a>,
        bytes: u64,
    ) -> Result<Range<'a>, Error> {
        let fail = |why: String| Err(Error::Usage(format!("{algorithm}: `{what}`: {why}")));
        let size = slice.memory.size();
        let (kind, what_memory) = match slice.memory {
            Memory::Wgpu(_) => (ApiKind::Wgpu, "a wgpu buffer"),
            #[cfg(feature = "native")]
            Memory::Cuda { .. } => (ApiKind::Cuda, "CUDA memory"),
            #[cfg(feature = "native")]
            Memory::Hip { .. } => (ApiKind::Hip, "HIP memory"),
        };
        if kind != self.api {
            return fail(format!(
                "{what_memory}, and this algorithm was built on {}",
                self.api.name()
            ));
        }
        let start = match slice.memory.address() {
            Some(address) => address.wrapping_add(slice.offset),
            None => slice.offset,
        };
        if !start.is_multiple_of(self.alignment) {
            return fail(if self.api != ApiKind::Wgpu {
                format!(
                    "address {start:#x} (offset {}) is not a multiple of {}",
                    slice.offset, self.alignment
                )
            } else {
                format!(
                    "offset {} is not a multiple of the device's min_storage_buffer_offset_alignment {}",
                    slice.offset, self.alignment
                )
            });
        }
        if slice.offset.checked_add(bytes).is_none_or(|end| end > size) {
            return fail(format!(
                "{bytes} bytes from offset {} do not fit the buffer of {size} bytes",
                slice.offset
            ));
        }
        if bytes > self.max_binding {
            return fail(format!(
                "{bytes} bytes exceed the device's max_storage_buffer_binding_size {}",
                self.max_binding
            ));
        }
        if let Some(buffer) = slice.memory.wgpu() {
            let usage = buffer.usage();
            if !usage.contains(wgpu::BufferUsages::STORAGE) {
                return fail(format!("the buffer's usage {usage:?} lacks STORAGE"));
            }
        }
        Ok(Range {
            buffer: slice.memory,
            offset: slice.offset,
            size: bytes,
        })
    }
}

/// Fails unless `a` and `b` are different buffers: wgpu refuses a buffer
/// bound read-only and read-write in one dispatch, whatever the ranges.
pub(crate) fn distinct(
    algorithm: &str,
    a: (&str, Slice<'_>),
    b: (&str, Slice<'_>),
) -> Result<(), Error> {
    if a.1.memory == b.1.memory {
        return Err(Error::Usage(format!(
            "{algorithm}: `{}` and `{}` are the same buffer; this algorithm does not run in place (wgpu binds a buffer either read-only or read-write in one dispatch)",
            a.0, b.0
        )));
    }
    Ok(())
}

/// Fails when a call of a sort gives values (`given`) and the sort was
/// built for keys alone, or none and it was built for pairs.
pub(crate) fn values_match(
    algorithm: &str,
    built_for_pairs: bool,
    given: bool,
) -> Result<(), Error> {
    match (built_for_pairs, given) {
        (true, false) => Err(Error::Usage(format!(
            "{algorithm}: built for pairs: call record_pairs"
        ))),
        (false, true) => Err(Error::Usage(format!(
            "{algorithm}: built for keys alone: call record_keys"
        ))),
        _ => Ok(()),
    }
}

/// [`distinct`] for each of `readers` against each of `writers`.
pub(crate) fn distinct_each(
    algorithm: &str,
    readers: &[(&str, Slice<'_>)],
    writers: &[(&str, Slice<'_>)],
) -> Result<(), Error> {
    for &reader in readers {
        for &writer in writers {
            distinct(algorithm, reader, writer)?;
        }
    }
    Ok(())
}

/// Fails when two of `ranges` (named) overlap in one buffer: outputs and
/// scratch that share a buffer must not share bytes.
pub(crate) fn disjoint(algorithm: &str, ranges: &[(&str, Range<'_>)]) -> Result<(), Error> {
    for (i, (a_name, a)) in ranges.iter().enumerate() {
        for (b_name, b) in &ranges[i + 1..] {
            if a.overlaps(b) {
                return Err(Error::Usage(format!(
                    "{algorithm}: `{a_name}` (bytes {}..{}) and `{b_name}` (bytes {}..{}) overlap in one buffer",
                    a.offset,
                    a.offset + a.size,
                    b.offset,
                    b.offset + b.size
                )));
            }
        }
    }
    Ok(())
}
