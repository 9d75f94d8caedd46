//! The shape of a primitive's call: its template parameters ([`Param`]),
//! run-time arguments ([`Arg`]), return type ([`Ret`]) and which lanes hold
//! the result ([`Placement`]).

/// A template parameter, written between `<` and `>` at the call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Param {
    /// The element dtype `T`, one of [`Primitive::dtypes`](super::Primitive::dtypes).
    Dtype,
    /// A second, independent dtype `V` (the value of a key/value pair), one
    /// of [`Primitive::dtypes`](super::Primitive::dtypes).
    ValueDtype,
    /// `log2_size` `L`: tiles of `2^L` lanes, `0 ..= log2(min subgroup size)`.
    Log2Size,
    /// `B`: threads per workgroup, a multiple of the largest subgroup size.
    BlockDim,
    /// `F`: the name of a user WGSL function `fn(a: T, b: T) -> T`, the
    /// operator of generic reductions and scans and of adjacent
    /// differences, or `fn(a: T, b: T) -> bool`, whether two neighbours
    /// differ, of the block discontinuity flags, and whether `a` goes
    /// before `b`, the comparator of merge sorts
    /// ([`Primitive::function_signature`](super::Primitive::function_signature)).
    Function,
    /// `A`: the name of a module-scope array of `T` (a storage buffer, a
    /// workgroup or a private array; runtime-sized or not) that block loads
    /// read and block stores write.
    Array,
    /// `A`: the name of a module-scope array of `vec4<T>` (a storage
    /// buffer, a workgroup or a private array; runtime-sized or not) that
    /// the vectorized block loads read and stores write, four items a word:
    /// WGSL cannot view an array of `T` as vectors, so the caller declares
    /// it so.
    VectorArray,
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
            Param::Array | Param::VectorArray => "A",
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
    /// A lane of the quad (`u32`, `0..=3`, may vary across lanes).
    QuadLane,
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
    /// The index in the array `A` where the workgroup's tile starts (`u32`,
    /// the same in every thread).
    Offset,
    /// How many items of the tile are valid (`u32`, the same in every
    /// thread, or every lane of a subgroup tile): loads and stores touch
    /// only tile indices below it, merge sorts sort only those.
    ValidItems,
    /// The thread's `items` values of dtype `T`, read and written through a
    /// pointer (WGSL passes no array by value).
    Items,
    /// The tile index of each of the thread's items (`u32`), through a
    /// pointer.
    Ranks,
    /// A flag per item (`u32`, 0 or 1), written through a pointer.
    Flags,
    /// A head flag per item, written through a pointer.
    HeadFlags,
    /// A tail flag per item, written through a pointer.
    TailFlags,
    /// The item before the tile (`T`), read by thread 0 only.
    TilePredecessor,
    /// Whether there is one (`bool`), read by thread 0 only.
    HasTilePredecessor,
    /// The item after the tile (`T`), read by the last thread only.
    TileSuccessor,
    /// Whether there is one (`bool`), read by the last thread only.
    HasTileSuccessor,
    /// A signed thread offset that must be the same in every thread (`i32`).
    Distance,
    /// The thread's `items` keys of dtype `T`, through a pointer.
    Keys,
    /// The thread's `items` values of dtype `V`, through a pointer.
    Values,
    /// The first key bit a radix sort looks at (`u32`, the same in every
    /// thread).
    BeginBit,
    /// One past the last key bit a radix sort looks at (`u32`, the same in
    /// every thread, at most the key's width).
    EndBit,
    /// The thread's `items` histogram samples (`u32` bin indices), through
    /// a pointer.
    Samples,
    /// The key a merge sort leaves at the tile indices past `valid_items`
    /// (`T`, the same in every thread).
    OobDefault,
}

impl Arg {
    /// `name: type` as the signature shows it.
    pub fn declaration(self) -> &'static str {
        match self {
            Arg::Value => "value: T",
            Arg::Lane => "lane: u32",
            Arg::UniformLane => "lane: u32",
            Arg::Delta => "delta: u32",
            Arg::QuadLane => "id: u32",
            Arg::Mask => "mask: u32",
            Arg::Predicate => "predicate: bool",
            Arg::LaneId => "lane_id: u32",
            Arg::HeadFlag => "head_flag: u32",
            Arg::Key => "key: T",
            Arg::PairValue => "value: V",
            Arg::NonZero => "predicate: u32",
            Arg::RadixKey => "key: u32",
            Arg::Identity => "identity: T",
            Arg::Offset => "offset: u32",
            Arg::ValidItems => "valid_items: u32",
            Arg::Items => "items: ptr<function, array<T, items>>",
            Arg::Ranks => "ranks: ptr<function, array<u32, items>>",
            Arg::Flags => "flags: ptr<function, array<u32, items>>",
            Arg::HeadFlags => "head_flags: ptr<function, array<u32, items>>",
            Arg::TailFlags => "tail_flags: ptr<function, array<u32, items>>",
            Arg::TilePredecessor => "tile_predecessor: T",
            Arg::HasTilePredecessor => "has_tile_predecessor: bool",
            Arg::TileSuccessor => "tile_successor: T",
            Arg::HasTileSuccessor => "has_tile_successor: bool",
            Arg::Distance => "distance: i32",
            Arg::Keys => "keys: ptr<function, array<T, items>>",
            Arg::Values => "values: ptr<function, array<V, items>>",
            Arg::BeginBit => "begin_bit: u32",
            Arg::EndBit => "end_bit: u32",
            Arg::Samples => "samples: ptr<function, array<u32, items>>",
            Arg::OobDefault => "oob_default: T",
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
