//! What a one-shot dispatch binds ([`Gpu::run_slots`] and the calls over
//! it): each buffer's slot (`@group`, `@binding`) and how it is filled and
//! read back. The same contract on every back end; the host-side checks in
//! `validate.rs` hold each binding to the variable the shader declares there.
//!
//! [`Gpu::run_slots`]: super::Gpu::run_slots

/// Where a buffer is bound: `@group(group) @binding(binding)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
}

impl Slot {
    /// `@group(group) @binding(binding)`.
    pub const fn new(group: u32, binding: u32) -> Slot {
        Slot { group, binding }
    }
}

/// One buffer of a dispatch. [`Gpu::run`] binds the `i`-th of a list at
/// `@group(0) @binding(i)`, [`Gpu::run_at`] at explicit `@binding` numbers
/// of group 0, [`Gpu::run_slots`] at any [`Slot`]. Every buffer the shader
/// declares needs exactly one binding, of the kind its declaration takes:
/// a storage buffer an [`Input`](Binding::Input), an
/// [`Output`](Binding::Output) or a [`ReadWrite`](Binding::ReadWrite) (the
/// last two only where the shader declares it `read_write`), a
/// `var<uniform>` a [`Uniform`](Binding::Uniform).
///
/// [`Gpu::run`]: super::Gpu::run
/// [`Gpu::run_at`]: super::Gpu::run_at
/// [`Gpu::run_slots`]: super::Gpu::run_slots
#[derive(Clone, Copy, Debug)]
pub enum Binding<'a> {
    /// A storage buffer holding these bytes, not read back
    /// (`var<storage, read>`, or a `read_write` one whose results are not
    /// wanted).
    Input(&'a [u8]),
    /// A storage buffer of `size` bytes, zero-filled, read back after the
    /// dispatch; the shader must declare it `read_write`.
    Output {
        /// Byte size.
        size: u64,
    },
    /// A storage buffer initialised from these bytes and read back after
    /// the dispatch, all of them: for kernels that work in place (a sort).
    /// The shader must declare it `var<storage, read_write>`.
    ReadWrite(&'a [u8]),
    /// A uniform buffer (`var<uniform>`) holding these bytes, exactly as
    /// many as the shader's declared type takes (naga's layout, WGSL's
    /// memory layout byte for byte); not read back.
    Uniform(&'a [u8]),
}

impl Binding<'_> {
    /// The buffer's size in bytes.
    pub fn bytes(&self) -> u64 {
        match self {
            Binding::Input(data) | Binding::ReadWrite(data) | Binding::Uniform(data) => {
                data.len() as u64
            }
            Binding::Output { size } => *size,
        }
    }

    /// Whether the dispatch returns the buffer's contents afterwards
    /// ([`Output`](Binding::Output) and [`ReadWrite`](Binding::ReadWrite)).
    pub fn read_back(&self) -> bool {
        matches!(self, Binding::Output { .. } | Binding::ReadWrite(_))
    }
}
