//! A catalog entry: [`Primitive`], with the module it is imported from
//! ([`Namespace`]) and the family whose template file expands it ([`Family`]).

use crate::dtype::{Dtype, ScalarFeature};
use crate::target::Lowering;

use super::{Arg, ContractCheck, Cost, Operator, Param, Placement, Ret};

/// The namespace a primitive is imported from (`#import wavekit::subgroup`,
/// `wavekit::block` or `wavekit::grid`); not to be confused with a memory
/// scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Namespace {
    /// `wavekit::subgroup` (mangled prefix `wk_sg_`).
    Subgroup,
    /// `wavekit::block`: workgroup-wide primitives (mangled prefix `wk_blk_`).
    Block,
    /// `wavekit::grid`: device-wide primitives, today the device-scope
    /// memory fence (mangled prefix `wk_grid_`).
    Grid,
}

impl Namespace {
    /// Prefix of the mangled names of this module's instances.
    pub fn prefix(self) -> &'static str {
        match self {
            Namespace::Subgroup => "wk_sg_",
            Namespace::Block => "wk_blk_",
            Namespace::Grid => "wk_grid_",
        }
    }

    /// The import path users write.
    pub fn import_path(self) -> &'static str {
        match self {
            Namespace::Subgroup => "wavekit::subgroup",
            Namespace::Block => "wavekit::block",
            Namespace::Grid => "wavekit::grid",
        }
    }

    /// How requests name this module's ops: `block::reduce_add`,
    /// `grid::mem_fence`; subgroup ops need no qualifier (`subgroup::` is
    /// accepted too).
    pub fn qualifier(self) -> &'static str {
        match self {
            Namespace::Subgroup => "",
            Namespace::Block => "block::",
            Namespace::Grid => "grid::",
        }
    }

    /// Every namespace, in the order `wavekit list` shows them.
    pub const ALL: [Namespace; 3] = [Namespace::Subgroup, Namespace::Block, Namespace::Grid];
}

/// A group of related primitives that share one template file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Shuffles and broadcasts.
    Movement,
    /// Lane id, subgroup size, election, subgroup barrier.
    Identification,
    /// Ballots.
    Ballot,
    /// all / any / all-equal votes.
    Vote,
    /// Closed-form lane masks.
    LaneMask,
    /// Reductions to tile lane 0 or to every lane.
    Reduction,
    /// Inclusive and exclusive scans.
    Scan,
    /// Segmented scans restarted at head flags.
    Segmented,
    /// In-register key/value sorts.
    Sort,
    /// Workgroup barriers, votes at a barrier, fences and thread indices.
    BlockSync,
    /// Workgroup reductions and scans.
    BlockScan,
    /// Workgroup radix ranking.
    BlockRadix,
    /// Workgroup exchanges through a tile in workgroup memory.
    BlockExchange,
    /// Workgroup loads and stores of a tile.
    BlockLoad,
    /// Workgroup loads and stores of a blocked tile, four items per vector
    /// access of the caller's array of `vec4<T>`.
    BlockLoadVectorized,
    /// Workgroup discontinuity flags and adjacent differences.
    BlockDiscontinuity,
    /// Workgroup shuffles: offsets, rotations, shifts of the tile.
    BlockShuffle,
    /// Workgroup radix sorts of keys and pairs.
    BlockRadixSort,
    /// Workgroup histograms into the caller's workgroup counters.
    BlockHistogram,
    /// In-register merge sorts by a user comparator.
    MergeSort,
    /// Workgroup merge sorts by a user comparator.
    BlockMergeSort,
    /// Workgroup exchanges, loads and stores in the warp-striped
    /// arrangement.
    BlockWarpExchange,
    /// Subgroup exchanges in registers: blocked and striped items.
    Exchange,
    /// Subgroup loads and stores of a tile of the caller's array.
    Load,
    /// Device-wide fences.
    GridSync,
}

impl Family {
    /// The template file (under `templates/`) holding the family's macros.
    pub fn template(self) -> &'static str {
        match self {
            Family::Movement => "subgroup/movement.wgsl.j2",
            Family::Identification => "subgroup/identification.wgsl.j2",
            Family::Ballot => "subgroup/ballot.wgsl.j2",
            Family::Vote => "subgroup/vote.wgsl.j2",
            Family::LaneMask => "subgroup/lanemask.wgsl.j2",
            Family::Reduction => "subgroup/reduction.wgsl.j2",
            Family::Scan => "subgroup/scan.wgsl.j2",
            Family::Segmented => "subgroup/segmented.wgsl.j2",
            Family::Sort => "subgroup/sort.wgsl.j2",
            Family::BlockSync => "block/sync.wgsl.j2",
            Family::BlockScan => "block/scan.wgsl.j2",
            Family::BlockRadix => "block/radix.wgsl.j2",
            Family::BlockExchange => "block/exchange.wgsl.j2",
            Family::BlockLoad => "block/load.wgsl.j2",
            Family::BlockLoadVectorized => "block/load_vectorized.wgsl.j2",
            Family::BlockDiscontinuity => "block/discontinuity.wgsl.j2",
            Family::BlockShuffle => "block/shuffle.wgsl.j2",
            Family::BlockRadixSort => "block/radix_sort.wgsl.j2",
            Family::BlockHistogram => "block/histogram.wgsl.j2",
            Family::MergeSort => "subgroup/merge_sort.wgsl.j2",
            Family::BlockMergeSort => "block/merge_sort.wgsl.j2",
            Family::BlockWarpExchange => "block/warp_exchange.wgsl.j2",
            Family::Exchange => "subgroup/exchange.wgsl.j2",
            Family::Load => "subgroup/load.wgsl.j2",
            Family::GridSync => "grid/sync.wgsl.j2",
        }
    }

    /// Name shown in tables.
    pub fn name(self) -> &'static str {
        match self {
            Family::Movement => "data movement",
            Family::Identification => "identification",
            Family::Ballot => "ballot",
            Family::Vote => "vote",
            Family::LaneMask => "lane mask",
            Family::Reduction => "reduction",
            Family::Scan => "scan",
            Family::Segmented => "segmented",
            Family::Sort => "sort",
            Family::BlockSync => "block sync",
            Family::BlockScan => "block reduce/scan",
            Family::BlockRadix => "block radix",
            Family::BlockExchange => "block exchange",
            Family::BlockLoad => "block load/store",
            Family::BlockLoadVectorized => "block vectorized load/store",
            Family::BlockDiscontinuity => "block discontinuity",
            Family::BlockShuffle => "block shuffle",
            Family::BlockRadixSort => "block radix sort",
            Family::BlockHistogram => "block histogram",
            Family::MergeSort => "merge sort",
            Family::BlockMergeSort => "block merge sort",
            Family::BlockWarpExchange => "block warp exchange",
            Family::Exchange => "exchange",
            Family::Load => "load/store",
            Family::GridSync => "grid sync",
        }
    }
}

/// One primitive of the library.
#[derive(Debug, serde::Serialize)]
pub struct Primitive {
    /// Name as users call it (`reduce_add_tiled`).
    pub name: &'static str,
    /// Module it is imported from.
    pub namespace: Namespace,
    /// Family, which names the template file.
    pub family: Family,
    /// Template macro that expands it.
    pub template_macro: &'static str,
    /// Template parameters, in call order.
    pub params: &'static [Param],
    /// Allowed dtypes for `T` (empty when there is no `T`).
    pub dtypes: &'static [Dtype],
    /// Run-time arguments.
    pub args: &'static [Arg],
    /// Return type.
    pub ret: Ret,
    /// Which lanes hold the result.
    pub placement: Placement,
    /// Cost in subgroup exchanges.
    pub cost: Cost,
    /// Lowerings offered, preferred first.
    pub lowerings: &'static [Lowering],
    /// The binary operator of a reduction or scan.
    pub operator: Option<Operator>,
    /// Contract checks beyond each parameter's range (`B` a multiple of
    /// `S`, `B == 2^radix_bits`), run at expansion.
    #[serde(skip)]
    pub check: Option<ContractCheck>,
    /// Workgroup memory the op declares, as a formula (block ops).
    pub shared_memory: Option<&'static str>,
    /// A scalar feature the op needs whatever its dtype (`ballot_u64` needs 64-bit integers).
    pub needs: Option<ScalarFeature>,
    /// One-paragraph documentation: semantics and caller contract.
    pub doc: &'static str,
}

impl Primitive {
    /// The name requests use: `block::reduce_add`, `reduce_add`.
    pub fn qualified_name(&self) -> String {
        format!("{}{}", self.namespace.qualifier(), self.name)
    }

    /// Whether the op takes `log2_size`.
    pub fn is_tiled(&self) -> bool {
        self.params.contains(&Param::Log2Size)
    }

    /// `name<T, L>(value: T, ...) -> R`, with placeholders.
    pub fn signature(&self) -> String {
        let mut s = self.qualified_name();
        if !self.params.is_empty() {
            let params: Vec<_> = self.params.iter().map(|p| p.placeholder()).collect();
            s.push_str(&format!("<{}>", params.join(", ")));
        }
        let args: Vec<_> = self.args.iter().map(|a| a.declaration()).collect();
        s.push_str(&format!("({})", args.join(", ")));
        if self.ret != Ret::Nothing {
            s.push_str(&format!(" -> {}", self.ret.wgsl()));
        }
        s
    }

    /// The WGSL signature the user function `F` must have, `T` standing
    /// for the dtype; `None` when the op takes no `F`. Flags of block
    /// discontinuities ask whether two neighbours differ and the comparators
    /// of merge sorts whether `a` goes before `b` (`-> bool`); every other
    /// `F` combines two values (`-> T`).
    pub fn function_signature(&self) -> Option<&'static str> {
        if !self.params.contains(&Param::Function) {
            None
        } else if self
            .args
            .iter()
            .any(|a| matches!(a, Arg::Flags | Arg::HeadFlags))
            || matches!(self.family, Family::MergeSort | Family::BlockMergeSort)
        {
            Some("fn(a: T, b: T) -> bool")
        } else {
            Some("fn(a: T, b: T) -> T")
        }
    }

    /// Allowed dtypes, as a comma-separated list (`-` when the op has no `T`).
    pub fn dtype_list(&self) -> String {
        if self.dtypes.is_empty() {
            "-".into()
        } else {
            let names: Vec<_> = self.dtypes.iter().map(|d| d.wgsl()).collect();
            names.join(", ")
        }
    }
}

/// All dtypes: what data movement and equality accept.
pub(crate) const ANY_DTYPE: &[Dtype] = &Dtype::ALL;
