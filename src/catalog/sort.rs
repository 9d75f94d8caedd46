//! The in-register bitonic key/value sort.

use super::{ANY_DTYPE, Arg, Cost, Family, Formula, Namespace, Param, Placement, Primitive, Ret};
use crate::target::Lowering;

const BASE: Primitive = Primitive {
    name: "bitonic_sort_kv",
    namespace: Namespace::Subgroup,
    family: Family::Sort,
    template_macro: "bitonic_sort_kv",
    params: &[Param::Dtype, Param::ValueDtype],
    dtypes: ANY_DTYPE,
    args: &[Arg::Key, Arg::PairValue],
    ret: Ret::KeyValue,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Bitonic,
        shuffle: None,
        note: "L(L+1)/2 compare-exchange stages of 2 shuffle_xor + a lex compare + 2 selects; \
               64-bit key or value: one more shuffle each",
    },
    lowerings: &[Lowering::Shuffle],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "Sorts the subgroup's (key, value) pairs ascending on the lexicographic tuple: lane 0 \
          gets the smallest pair, lane S-1 the largest; equal keys come out by ascending value \
          (a tie-break, not a stable sort). `T` and `V` are independent dtypes. Returns \
          `wk_sg_kv__T__V { key, value }`. A classic bitonic network of L(L+1)/2 \
          compare-exchange stages on shuffle_xor. Floats compare with WGSL `<` and `==`, so \
          -0 equals +0 and NaN keys have no defined place: keep keys NaN-free (or bit-cast \
          them to integers). Short inputs: fill the unused lanes with a sentinel pair larger \
          than every real one (+inf or the dtype's largest value as key and value); the \
          sentinels sort to the top lanes and the real pairs to lanes 0..n. Uniform control \
          flow, all lanes active.",
};

pub(super) const PRIMITIVES: &[Primitive] = &[
    BASE,
    Primitive {
        name: "bitonic_sort_kv_tiled",
        params: &[Param::Dtype, Param::ValueDtype, Param::Log2Size],
        doc: "Per aligned tile of `2^L` lanes: the bitonic key/value sort of the tile's pairs, \
              the tile's smallest pair in its first lane. Same contract as `bitonic_sort_kv` \
              (lex order on (key, value), NaN-free float keys, sentinel padding for short \
              inputs). `L <= log2(min subgroup size)`.",
        ..BASE
    },
];
