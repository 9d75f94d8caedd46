//! Ballots: one bit per lane for a predicate.

use super::{Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
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
];
