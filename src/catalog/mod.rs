//! The catalog: every primitive wavekit offers, with its template, template
//! parameters, allowed dtypes, `log2_size` range, result placement, cost and
//! documentation. Expansion, the CLI's `list`, the conformance suite and the
//! docs all read this one table.

mod ballot;
mod block;
mod identification;
mod lanemask;
mod movement;
mod operator;
mod reduction;
mod scan;
mod segmented;
mod sort;
mod vote;

pub use block::{MAX_SHARED_BYTES, radix_shared_bytes, sample_block_dims};
pub use operator::Operator;

use std::fmt;

use crate::dtype::{Dtype, ScalarFeature};
use crate::target::Lowering;

/// The WGSL module a primitive is imported from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// `wavekit::subgroup` (mangled prefix `wk_sg_`).
    Subgroup,
    /// `wavekit::block`: workgroup-wide primitives (mangled prefix `wk_blk_`).
    Block,
}

impl Scope {
    /// Prefix of the mangled names of this module's instances.
    pub fn prefix(self) -> &'static str {
        match self {
            Scope::Subgroup => "wk_sg_",
            Scope::Block => "wk_blk_",
        }
    }

    /// The import path users write.
    pub fn import_path(self) -> &'static str {
        match self {
            Scope::Subgroup => "wavekit::subgroup",
            Scope::Block => "wavekit::block",
        }
    }

    /// How requests name this module's ops: `block::reduce_add`; subgroup
    /// ops need no qualifier (`subgroup::` is accepted too).
    pub fn qualifier(self) -> &'static str {
        match self {
            Scope::Subgroup => "",
            Scope::Block => "block::",
        }
    }
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
        }
    }
}

/// A template parameter, written between `<` and `>` at the call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Param {
    /// The element dtype `T`, one of [`Primitive::dtypes`].
    Dtype,
    /// A second, independent dtype `V` (the value of a key/value pair), one
    /// of [`Primitive::dtypes`].
    ValueDtype,
    /// `log2_size` `L`: tiles of `2^L` lanes, `0 ..= log2(min subgroup size)`.
    Log2Size,
    /// `B`: threads per workgroup, a multiple of the largest subgroup size.
    BlockDim,
    /// `F`: the name of a user WGSL function `fn(a: T, b: T) -> T`, the
    /// operator of generic reductions and scans.
    Function,
    /// A named compile-time constant in `min..=max`; the conformance suite
    /// tests the `samples`.
    Const {
        /// Its name in signatures.
        name: &'static str,
        /// Smallest allowed value.
        min: u32,
        /// Largest allowed value.
        max: u32,
        /// Values the conformance suite sweeps.
        samples: &'static [u32],
    },
    /// A lane count `N` in `min..=max`.
    Count {
        /// Smallest allowed value.
        min: u32,
        /// Largest allowed value.
        max: u32,
    },
}

impl Param {
    /// The placeholder name used in signatures.
    pub fn placeholder(self) -> &'static str {
        match self {
            Param::Dtype => "T",
            Param::ValueDtype => "V",
            Param::Log2Size => "L",
            Param::BlockDim => "B",
            Param::Function => "F",
            Param::Const { name, .. } => name,
            Param::Count { .. } => "N",
        }
    }
}

/// A run-time argument of a primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Arg {
    /// The value operand, of dtype `T`.
    Value,
    /// A per-lane source lane (`u32`, may vary across lanes, must be `< S`).
    Lane,
    /// A source lane that must be the same in every lane (`u32`, `< S`).
    UniformLane,
    /// A lane offset that must be the same in every lane (`u32`).
    Delta,
    /// An XOR lane mask that must be the same in every lane (`u32`).
    Mask,
    /// A predicate (`bool`).
    Predicate,
    /// A lane id in `0..=31` (`u32`, may vary across lanes).
    LaneId,
    /// A segment head flag (`u32`, non-zero starts a segment).
    HeadFlag,
    /// The key of a key/value pair, of dtype `T`.
    Key,
    /// The value of a key/value pair, of dtype `V`.
    PairValue,
    /// A per-thread predicate as an integer (`u32`, non-zero is true).
    NonZero,
    /// A radix-sort key (`u32`).
    RadixKey,
    /// The identity of a generic operator (`T`, the same in every thread).
    Identity,
}

impl Arg {
    /// `name: type` as the signature shows it.
    pub fn declaration(self) -> &'static str {
        match self {
            Arg::Value => "value: T",
            Arg::Lane => "lane: u32",
            Arg::UniformLane => "lane: u32",
            Arg::Delta => "delta: u32",
            Arg::Mask => "mask: u32",
            Arg::Predicate => "predicate: bool",
            Arg::LaneId => "lane_id: u32",
            Arg::HeadFlag => "head_flag: u32",
            Arg::Key => "key: T",
            Arg::PairValue => "value: V",
            Arg::NonZero => "predicate: u32",
            Arg::RadixKey => "key: u32",
            Arg::Identity => "identity: T",
        }
    }

    /// The parameter name and type, `T` / `V` standing for the dtypes.
    pub fn name_and_type(self) -> (&'static str, &'static str) {
        self.declaration()
            .split_once(": ")
            .expect("declarations are `name: type`")
    }
}

/// What a primitive returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Ret {
    /// Nothing (a barrier).
    Nothing,
    /// A value of dtype `T`.
    Value,
    /// `bool`.
    Bool,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `vec4<u32>` (a 128-lane ballot).
    Ballot,
    /// The struct `wk_sg_kv__T__V { key: T, value: V }`.
    KeyValue,
}

impl Ret {
    /// WGSL spelling, `T` standing for the dtype.
    pub fn wgsl(self) -> &'static str {
        match self {
            Ret::Nothing => "",
            Ret::Value => "T",
            Ret::Bool => "bool",
            Ret::U32 => "u32",
            Ret::U64 => "u64",
            Ret::Ballot => "vec4<u32>",
            Ret::KeyValue => "wk_sg_kv__T__V",
        }
    }
}

/// Which lanes hold a defined result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// No result.
    Nothing,
    /// Each lane gets its own result.
    PerLane,
    /// Every lane of the subgroup gets the same result.
    Subgroup,
    /// Every lane of each `2^L` tile gets its tile's result.
    Tile,
    /// Lane 0 of each `2^L` tile (of the subgroup, for full ops) gets the
    /// result; other lanes hold partial results.
    FirstLane,
    /// Thread 0 of the workgroup gets the result.
    FirstThread,
    /// Every thread of the workgroup gets the same result.
    Block,
}

impl Placement {
    /// Short description for tables.
    pub fn describe(self) -> &'static str {
        match self {
            Placement::Nothing => "-",
            Placement::PerLane => "per lane",
            Placement::Subgroup => "broadcast to subgroup",
            Placement::Tile => "broadcast to tile",
            Placement::FirstLane => "tile lane 0",
            Placement::FirstThread => "thread 0",
            Placement::Block => "broadcast to block",
        }
    }
}

/// The number of subgroup data-exchange operations (shuffles, ballots, votes)
/// an instance issues, as a function of `L` (or of `log2(S)` for full-subgroup ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Formula {
    /// No exchange at all: pure ALU.
    Zero,
    /// Exactly one.
    One,
    /// Exactly two.
    Two,
    /// `L`.
    L,
    /// `L + 1`.
    LPlusOne,
    /// `L * (L + 1)` (a bitonic network: `L(L+1)/2` stages of 2).
    Bitonic,
}

impl Formula {
    /// The count at `log2_size = l`.
    pub fn eval(self, l: u32) -> u32 {
        match self {
            Formula::Zero => 0,
            Formula::One => 1,
            Formula::Two => 2,
            Formula::L => l,
            Formula::LPlusOne => l + 1,
            Formula::Bitonic => l * (l + 1),
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formula::Zero => "0",
            Formula::One => "1",
            Formula::Two => "2",
            Formula::L => "L",
            Formula::LPlusOne => "L+1",
            Formula::Bitonic => "L(L+1)",
        })
    }
}

/// Cost of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cost {
    /// Subgroup exchanges with the `builtin` lowering (or the only lowering).
    pub builtin: Formula,
    /// Subgroup exchanges with the `shuffle` lowering, where it exists.
    pub shuffle: Option<Formula>,
    /// What else it costs, in words.
    pub note: &'static str,
}

impl Cost {
    /// Exchanges issued under `lowering` at `log2_size = l`.
    pub fn exchanges(&self, lowering: Lowering, l: u32) -> u32 {
        match (lowering, self.shuffle) {
            (Lowering::Shuffle, Some(f)) => f.eval(l),
            _ => self.builtin.eval(l),
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shuffle {
            Some(s) => write!(f, "builtin {} / shuffle {}", self.builtin, s)?,
            None => write!(f, "{}", self.builtin)?,
        }
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
}

/// A check of template arguments against each other and the target; the
/// error says what breaks the contract.
pub type ContractCheck = fn(&crate::expand::Instance, &crate::target::Target) -> Result<(), String>;

/// One primitive of the library.
#[derive(Debug, serde::Serialize)]
pub struct Primitive {
    /// Name as users call it (`reduce_add_tiled`).
    pub name: &'static str,
    /// Module it is imported from.
    pub scope: Scope,
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
        format!("{}{}", self.scope.qualifier(), self.name)
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

/// Every primitive in the catalog, grouped by family.
pub fn primitives() -> impl Iterator<Item = &'static Primitive> {
    [
        movement::PRIMITIVES,
        identification::PRIMITIVES,
        ballot::PRIMITIVES,
        vote::PRIMITIVES,
        lanemask::PRIMITIVES,
        reduction::PRIMITIVES,
        scan::PRIMITIVES,
        segmented::PRIMITIVES,
        sort::PRIMITIVES,
    ]
    .into_iter()
    .chain(block::PRIMITIVES)
    .flatten()
}

/// The primitive a request names: `reduce_add` or `subgroup::reduce_add`
/// for the subgroup op, `block::reduce_add` for the workgroup one.
pub fn find(name: &str) -> Option<&'static Primitive> {
    let (scope, bare) = split_scope(name);
    primitives().find(|p| p.scope == scope && p.name == bare)
}

/// The scope a qualified name selects and the bare name.
pub fn split_scope(name: &str) -> (Scope, &str) {
    if let Some(bare) = name.strip_prefix("block::") {
        (Scope::Block, bare)
    } else {
        (
            Scope::Subgroup,
            name.strip_prefix("subgroup::").unwrap_or(name),
        )
    }
}

/// The catalog name closest to `name`, for "did you mean" hints.
pub fn suggest(name: &str) -> Option<String> {
    primitives()
        .map(|p| {
            (
                strsim::levenshtein(name, &p.qualified_name()),
                p.qualified_name(),
            )
        })
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, n)| n)
}
