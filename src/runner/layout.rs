//! What buffers a module expects: each storage or uniform binding's size
//! rule, read from the naga module, so a dispatch can refuse a buffer of
//! the wrong size before the GPU sees it.

use naga::proc::Layouter;

/// One buffer binding of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferBinding {
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// The variable's name.
    pub name: String,
    /// Whether the shader may write it (`var<storage, read_write>`).
    pub writable: bool,
    /// Whether it is a `var<uniform>` (which takes exactly
    /// [`BufferBinding::fixed_bytes`]).
    pub uniform: bool,
    /// Bytes before a runtime-sized array, or the whole size if fixed.
    pub fixed_bytes: u32,
    /// Element stride of a trailing runtime-sized array, if there is one.
    pub runtime_stride: Option<u32>,
}

impl BufferBinding {
    /// Checks a buffer of `bytes` against the binding: exactly the fixed
    /// size, or the fixed part plus a positive whole number of elements of
    /// a trailing runtime-sized array. The error names the slot and both
    /// sizes.
    pub fn check(&self, bytes: u64) -> Result<(), String> {
        let fixed = u64::from(self.fixed_bytes);
        let ok = match self.runtime_stride {
            None => bytes == fixed,
            Some(stride) => {
                bytes >= fixed + u64::from(stride)
                    && (bytes - fixed).is_multiple_of(u64::from(stride))
            }
        };
        if ok {
            return Ok(());
        }
        Err(match self.runtime_stride {
            None if self.uniform => format!(
                "binding {}:{} (`{}`) is a uniform of exactly {fixed} bytes (its type's size), \
                 the buffer has {bytes}",
                self.group, self.binding, self.name
            ),
            None => format!(
                "binding {}:{} (`{}`) takes exactly {fixed} bytes, the buffer has {bytes}",
                self.group, self.binding, self.name
            ),
            Some(stride) => format!(
                "binding {}:{} (`{}`) takes {fixed} bytes plus a positive multiple of {stride}, \
                 the buffer has {bytes}",
                self.group, self.binding, self.name
            ),
        })
    }
}

/// The buffer bindings of `module`, by group and binding.
pub fn buffer_bindings(module: &naga::Module) -> Vec<BufferBinding> {
    let mut layouter = Layouter::default();
    if layouter.update(module.to_ctx()).is_err() {
        return Vec::new();
    }
    let mut found: Vec<BufferBinding> = module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let binding = var.binding.as_ref()?;
            let writable = match var.space {
                naga::AddressSpace::Storage { access } => {
                    access.contains(naga::StorageAccess::STORE)
                }
                naga::AddressSpace::Uniform => false,
                _ => return None,
            };
            let (fixed_bytes, runtime_stride) = match &module.types[var.ty].inner {
                naga::TypeInner::Array {
                    size: naga::ArraySize::Dynamic,
                    stride,
                    ..
                } => (0, Some(*stride)),
                naga::TypeInner::Struct { members, span } => match members.last() {
                    Some(last) => match module.types[last.ty].inner {
                        naga::TypeInner::Array {
                            size: naga::ArraySize::Dynamic,
                            stride,
                            ..
                        } => (last.offset, Some(stride)),
                        _ => (*span, None),
                    },
                    None => (*span, None),
                },
                _ => (layouter[var.ty].size, None),
            };
            Some(BufferBinding {
                group: binding.group,
                binding: binding.binding,
                name: var.name.clone().unwrap_or_default(),
                writable,
                uniform: matches!(var.space, naga::AddressSpace::Uniform),
                fixed_bytes,
                runtime_stride,
            })
        })
        .collect();
    found.sort_by_key(|b| (b.group, b.binding));
    found
}
