//! Ballots: one bit per lane for a predicate, or per lane holding the same
//! value (`match_any`).

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::dtype::ScalarFeature;
use crate::target::Lowering;

const ONE_BALLOT: Cost = Cost {
    builtin: Formula::One,
    shuffle: None,
    note: "one ballot",
};

const BASE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Subgroup,
    family: Family::Ballot,
    template_macro: "",
    params: &[],
    dtypes: &[],
    args: &[Arg::Predicate],
    ret: Ret::Ballot,
    placement: Placement::Subgroup,
    cost: ONE_BALLOT,
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "ballot",
        template_macro: "ballot",
        doc: "Bit i of the result (word i / 32, bit i % 32) is set iff lane i's predicate \
              is true, for lanes 0..127; bits of lanes at or past S are zero. Every lane \
              gets the same value. Uniform control flow, all lanes active.",
        ..BASE
    },
    Primitive {
        name: "ballot_u64",
        template_macro: "ballot_u64",
        ret: Ret::U64,
        needs: Some(ScalarFeature::Int64),
        cost: Cost {
            builtin: Formula::One,
            shuffle: None,
            note: "one ballot + 64-bit pack",
        },
        doc: "The ballot of lanes 0..63 as one `u64` (lanes 32..63 in the high word): the \
              wave64 form. Needs 64-bit integers on the target. Lanes past 63 (S = 128) are \
              not represented: use `ballot` there.",
        ..BASE
    },
    Primitive {
        name: "ballot_first_n",
        template_macro: "ballot_first_n",
        params: &[Param::Count { min: 1, max: 32 }],
        ret: Ret::U32,
        cost: Cost {
            builtin: Formula::One,
            shuffle: None,
            note: "one ballot, plus one AND when N < 32",
        },
        doc: "Bit i is set iff i < N and lane i's predicate is true; bits N..31 are always \
              zero. N is a compile-time constant in 1..=32; at N = 32 no masking is emitted.",
        ..BASE
    },
    Primitive {
        name: "match_any",
        template_macro: "match_any",
        params: &[Param::Dtype],
        dtypes: ANY_DTYPE,
        args: &[Arg::Value],
        placement: Placement::PerLane,
        cost: Cost {
            builtin: Formula::PerDistinct,
            shuffle: None,
            note: "D = distinct values in the subgroup (<= S): per value 2 ballots + 1 shuffle \
                   (64-bit dtypes: 2 shuffles); one match.any.sync on CUDA",
        },
        doc: "Each lane returns the ballot (bit i of word i / 32 for lane i, as `ballot`) of \
              the lanes whose `value` equals its own: a partition of the subgroup into \
              classes of equal values (CUDA `__match_any_sync`, HLSL `WaveMatch`). Equality \
              is bit equality, so a NaN matches a NaN of the same bits and +0 does not \
              match -0; f16 compares the bits of its exact f32 conversion (naga cannot \
              bitcast a 16-bit scalar): the same classes except that NaNs differing only \
              in the quiet bit match, and f16 subnormals may read as zero where the \
              target flushes them. A ballot loop through wgpu and on AMDGPU: each round \
              elects the first lane still unmatched, shuffles its value to every lane and \
              ballots the lanes holding it, so it takes one round per distinct value. The \
              native CUDA back end replaces the loop by one `match.any.sync.b32` (`.b64` for \
              64-bit dtypes; sm_70+). Uniform control flow, all lanes active.",
        ..BASE
    },
];
