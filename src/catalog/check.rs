//! Contract checks: relations between a primitive's template arguments, and
//! between them and the target, that no single parameter's range expresses
//! (`B` a multiple of the subgroup size, `B == 2^radix_bits`). A check reads
//! the resolved arguments as [`CheckArgs`], which the catalog owns, so the
//! catalog needs nothing from expansion.

use crate::dtype::Dtype;
use crate::target::Target;

use super::Primitive;

/// The resolved template arguments of one request, as a [`ContractCheck`]
/// reads them: each parameter's own range and the dtypes have already been
/// checked. Expansion builds it from its `Instance`.
#[derive(Clone, Copy, Debug)]
pub struct CheckArgs<'a> {
    /// The catalog entry being instantiated.
    pub primitive: &'static Primitive,
    /// `T`, if the op has one.
    pub dtype: Option<Dtype>,
    /// `V`, the value dtype of a key/value op.
    pub value_dtype: Option<Dtype>,
    /// `L`, if the op is tiled.
    pub log2_size: Option<u32>,
    /// `N`, if the op takes a lane count.
    pub count: Option<u32>,
    /// `B`, threads per workgroup, for block ops.
    pub block_dim: Option<u32>,
    /// Named compile-time constants (`radix_bits`), in parameter order.
    pub constants: &'a [(&'static str, u32)],
}

impl CheckArgs<'_> {
    /// The value of the named compile-time constant.
    ///
    /// # Panics
    ///
    /// If the primitive has no such constant: a catalog bug.
    pub fn constant(&self, name: &str) -> u32 {
        self.constants
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("`{}` has no constant `{name}`", self.primitive.name))
    }
}

/// A check of template arguments against each other and the target; the
/// error says what breaks the contract.
pub type ContractCheck = fn(&CheckArgs<'_>, &Target) -> Result<(), String>;
