//! [`Memory`]: the caller's buffer a bound range lies in, on any API, and
//! [`Range`], a checked byte range of one.

/// The buffer a slice or a bound range lies in.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Memory<'a> {
    /// A wgpu buffer.
    Wgpu(&'a wgpu::Buffer),
    /// CUDA device memory: its address and its size in bytes.
    #[cfg(feature = "native")]
    Cuda { address: u64, bytes: u64 },
    /// HIP device memory: its address and its size in bytes.
    #[cfg(feature = "native")]
    Hip { address: u64, bytes: u64 },
}

impl PartialEq for Memory<'_> {
    /// The same buffer (native memory: the same start address).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Memory::Wgpu(a), Memory::Wgpu(b)) => a == b,
            #[cfg(feature = "native")]
            (Memory::Cuda { address: a, .. }, Memory::Cuda { address: b, .. })
            | (Memory::Hip { address: a, .. }, Memory::Hip { address: b, .. }) => a == b,
            #[cfg(feature = "native")]
            _ => false,
        }
    }
}

impl<'a> Memory<'a> {
    /// Bytes in the buffer.
    pub fn size(&self) -> u64 {
        match self {
            Memory::Wgpu(buffer) => buffer.size(),
            #[cfg(feature = "native")]
            Memory::Cuda { bytes, .. } | Memory::Hip { bytes, .. } => *bytes,
        }
    }

    /// The wgpu buffer; `None` for native memory.
    pub fn wgpu(&self) -> Option<&'a wgpu::Buffer> {
        match *self {
            Memory::Wgpu(buffer) => Some(buffer),
            #[cfg(feature = "native")]
            _ => None,
        }
    }

    /// The device address of native memory; `None` for a wgpu buffer.
    pub fn address(&self) -> Option<u64> {
        match self {
            Memory::Wgpu(_) => None,
            #[cfg(feature = "native")]
            Memory::Cuda { address, .. } | Memory::Hip { address, .. } => Some(*address),
        }
    }
}

/// A checked byte range of a buffer, as bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range<'a> {
    pub buffer: Memory<'a>,
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

    /// The bytes from this range's start to the end of `last`, a later
    /// range of the same buffer (both regions of one temp slice): one
    /// clear instead of two, the alignment padding between them included.
    pub fn through(&self, last: &Range<'a>) -> Range<'a> {
        debug_assert!(self.buffer == last.buffer && self.offset <= last.offset);
        Range {
            buffer: self.buffer,
            offset: self.offset,
            size: last.offset + last.size - self.offset,
        }
    }

    /// Whether the two ranges share a byte.
    pub fn overlaps(&self, other: &Range<'_>) -> bool {
        self.buffer == other.buffer
            && self.size > 0
            && other.size > 0
            && self.offset < other.offset + other.size
            && other.offset < self.offset + self.size
    }

    /// The device address and byte length of a range of native memory, as
    /// a kernel takes it (lengths are at most `u32::MAX`: the native
    /// limits); `None` for a wgpu buffer.
    #[cfg(feature = "native")]
    pub fn native(&self) -> Option<(u64, u32)> {
        let address = self.buffer.address()?;
        Some((address + self.offset, self.size.max(4) as u32))
    }
}
