//! [`Slice`]: where in a caller's buffer an algorithm reads or writes, and
//! the checks every call makes on it before recording anything.

use crate::error::Error;

/// The part of a caller's buffer from byte `offset` on, passed to a device
/// algorithm. How many bytes from there it reads or writes follows from
/// the element count of the call (`n` elements of 4 bytes for data slices,
/// `temp_storage_bytes(n)` for temp slices); bytes past those are never
/// touched.
///
/// Requirements, checked by every call: `offset` a multiple of the device's
/// `min_storage_buffer_offset_alignment` (256 on most GPUs), the bytes in
/// the buffer, and the buffer created with [`wgpu::BufferUsages::STORAGE`]
/// (temp slices also [`wgpu::BufferUsages::COPY_DST`]).
#[derive(Clone, Copy, Debug)]
pub struct Slice<'a> {
    /// The buffer.
    pub buffer: &'a wgpu::Buffer,
    /// Byte offset of the first element.
    pub offset: u64,
}

impl<'a> Slice<'a> {
    /// The part of `buffer` from byte `offset` on.
    pub fn new(buffer: &'a wgpu::Buffer, offset: u64) -> Self {
        Slice { buffer, offset }
    }
}

impl<'a> From<&'a wgpu::Buffer> for Slice<'a> {
    /// The buffer from its start.
    fn from(buffer: &'a wgpu::Buffer) -> Self {
        Slice { buffer, offset: 0 }
    }
}

/// A checked byte range of a buffer, as bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range<'a> {
    pub buffer: &'a wgpu::Buffer,
    pub offset: u64,
    pub size: u64,
}

impl<'a> Range<'a> {
    /// The `size` bytes from `offset` bytes into the range.
    pub fn sub(&self, offset: u64, size: u64) -> Range<'a> {
        debug_assert!(offset + size <= self.size);
        Range {
            buffer: self.buffer,
            offset: self.offset + offset,
            size,
        }
    }

    /// As a wgpu binding (`size` is never 0: callers bind no empty range).
    pub fn binding(&self) -> wgpu::BindingResource<'a> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: self.buffer,
            offset: self.offset,
            size: std::num::NonZeroU64::new(self.size.max(4)),
        })
    }
}

/// The limits a call checks its slices against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SliceLimits {
    pub alignment: u64,
    pub max_binding: u64,
}

impl SliceLimits {
    pub fn of(device: &wgpu::Device) -> Self {
        let limits = device.limits();
        SliceLimits {
            alignment: u64::from(limits.min_storage_buffer_offset_alignment),
            max_binding: limits.max_storage_buffer_binding_size,
        }
    }

    /// `slice` checked to hold `bytes` bytes for `what` (`"keys_in"`, ...)
    /// of algorithm `algorithm`; `temp` slices also need `COPY_DST`.
    pub fn check<'a>(
        &self,
        algorithm: &str,
        what: &str,
        slice: Slice<'a>,
        bytes: u64,
        temp: bool,
    ) -> Result<Range<'a>, Error> {
        let fail = |why: String| Err(Error::Usage(format!("{algorithm}: `{what}`: {why}")));
        let size = slice.buffer.size();
        if !slice.offset.is_multiple_of(self.alignment) {
            return fail(format!(
                "offset {} is not a multiple of the device's min_storage_buffer_offset_alignment {}",
                slice.offset, self.alignment
            ));
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
        let usage = slice.buffer.usage();
        let mut needed = wgpu::BufferUsages::STORAGE;
        if temp {
            needed |= wgpu::BufferUsages::COPY_DST;
        }
        if !usage.contains(needed) {
            return fail(format!(
                "the buffer's usage {usage:?} lacks {:?}",
                needed - usage
            ));
        }
        Ok(Range {
            buffer: slice.buffer,
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
    if a.1.buffer == b.1.buffer {
        return Err(Error::Usage(format!(
            "{algorithm}: `{}` and `{}` are the same buffer; this algorithm does not run in place (wgpu binds a buffer either read-only or read-write in one dispatch)",
            a.0, b.0
        )));
    }
    Ok(())
}

/// Fails when two of `ranges` (named) overlap in one buffer: outputs and
/// scratch that share a buffer must not share bytes.
pub(crate) fn disjoint(algorithm: &str, ranges: &[(&str, Range<'_>)]) -> Result<(), Error> {
    for (i, (a_name, a)) in ranges.iter().enumerate() {
        for (b_name, b) in &ranges[i + 1..] {
            if a.buffer == b.buffer
                && a.size > 0
                && b.size > 0
                && a.offset < b.offset + b.size
                && b.offset < a.offset + a.size
            {
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
