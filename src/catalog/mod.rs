//! The catalog: every primitive wavekit offers, with its template, template
//! parameters, allowed dtypes, `log2_size` range, result placement, cost and
//! documentation. Expansion, the CLI's `list`, the conformance suite and the
//! docs all read this one table.
//!
//! The catalog depends only on [`crate::dtype`] and [`crate::target`]. Its
//! types live in `primitive` (the entry, its namespace and family), `signature`
//! (parameters, arguments, return, placement), `cost` and `check` (contract
//! checks over resolved arguments); `registry` lists every entry and looks
//! names up; one file per family holds the entries themselves.

mod check;
mod cost;
mod operator;
mod primitive;
mod registry;
mod signature;

mod ballot;
mod block;
mod block_discontinuity;
mod block_exchange;
mod block_histogram;
mod block_load;
mod block_load_vectorized;
mod block_merge_sort;
mod block_radix_sort;
mod block_shuffle;
mod block_warp_exchange;
mod exchange;
mod grid;
mod identification;
mod lanemask;
mod load;
mod merge_sort;
mod movement;
mod reduction;
mod scan;
mod segmented;
mod sort;
mod vote;

pub use block::{MAX_SHARED_BYTES, radix_shared_bytes, sample_block_dims};
pub use block_discontinuity::discontinuity_shared_bytes;
pub use block_exchange::exchange_shared_bytes;
pub use block_histogram::histogram_sort_bits;
pub use block_merge_sort::merge_sort_shared_bytes;
pub use block_radix_sort::radix_sort_shared_bytes;
pub use check::{CheckArgs, ContractCheck};
pub use cost::{Cost, Formula};
pub use operator::Operator;
pub(crate) use primitive::ANY_DTYPE;
pub use primitive::{Family, Namespace, Primitive};
pub use registry::{find, primitives, split_namespace, suggest, tunable_ops};
pub use signature::{Arg, Param, Placement, Ret};
