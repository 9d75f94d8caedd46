//! Vectorized workgroup loads and stores (CUB's `BLOCK_LOAD_VECTORIZE` and
//! `BLOCK_STORE_VECTORIZE`, `LoadDirectBlockedVectorized`): the blocked
//! tile between the caller's array of `vec4<T>` and each thread's `items`
//! values, one vector access per four items.

use super::{CheckArgs, Cost, Family, Formula, Param, Primitive};
use crate::dtype::Dtype;
use crate::target::Target;

/// Items per vector word of `A`.
const LANES: u32 = 4;

/// `items`, the values per thread: whole vectors, so a multiple of
/// [`LANES`] (checked by [`check_vectorized`]).
const VECTOR_ITEMS: Param = Param::Const {
    name: "items",
    min: LANES,
    max: 64,
    samples: &[4, 8],
};

/// The element dtypes: the 32-bit ones, four to a 16-byte vector.
const VECTOR_DTYPES: &[Dtype] = &[Dtype::U32, Dtype::I32, Dtype::F32];

/// `items` a multiple of four: each thread's items are whole words of `A`.
fn check_vectorized(args: &CheckArgs<'_>, _target: &Target) -> Result<(), String> {
    let items = args.constant("items");
    if !items.is_multiple_of(LANES) {
        return Err(format!(
            "items {items} is not a multiple of {LANES}: each thread's items are whole vec4 \
             words of A (use block::load_direct_blocked / store_direct_blocked for other counts)"
        ));
    }
    Ok(())
}

const VECTORIZED: Primitive = Primitive {
    family: Family::BlockLoadVectorized,
    params: &[
        Param::Dtype,
        Param::BlockDim,
        VECTOR_ITEMS,
        Param::VectorArray,
    ],
    dtypes: VECTOR_DTYPES,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "`items / 4` vec4 accesses of `A` per thread (the tile's partial last word \
               component by component, guarded by `valid_items`); no barrier, no workgroup \
               memory. Native: a full word of a storage buffer is one `ld.global.v4.u32` / \
               `st.global.v4.u32` on CUDA (`.v4.f32` for f32, `ld.shared.v4.u32` from a \
               workgroup array) and one `global_load_dwordx4` / `global_store_dwordx4` on \
               AMDGPU; a partial word's components are scalar accesses",
    },
    check: Some(check_vectorized),
    ..super::block_load::DIRECT
};

/// The vectorized block load and store.
pub(super) const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "load_vectorized",
        template_macro: "load_vectorized",
        doc: "Loads the workgroup's tile in the blocked arrangement, four items per access \
              (CUB `BLOCK_LOAD_VECTORIZE`, `LoadDirectBlockedVectorized`): thread t gets \
              `(*items)[k] = A[(offset + t * items + k) / 4][(offset + t * items + k) % 4]` for \
              every k whose tile index `t * items + k` is below `valid_items`; the other items \
              keep their values. `A` names a module-scope array of vec4<T> of the caller's \
              module (a storage buffer, a workgroup or a private array), T a 32-bit type: WGSL \
              cannot view an array of T as vectors (CUB casts the pointer), so the caller \
              declares (or binds) the buffer as `array<vec4<T>>`. `offset` counts elements of T \
              and must be a multiple of 4, `items` (a multiple of 4, checked at expansion) \
              likewise, so each thread's items are whole words of A. Each full vector is one \
              vec4 read; the tile's partial last vector (where `valid_items` is no multiple of \
              4) reads only its components below `valid_items`, so no word past the tile is \
              touched. CUB falls back to direct blocked loads for a whole partial tile; this \
              reads every full vector whole. `offset` and `valid_items` the same in every \
              thread; no barrier and no workgroup memory, so divergent threads may call it; the \
              caller's `var items: array<T, items>` is passed as `&items`.",
        ..VECTORIZED
    },
    Primitive {
        name: "store_vectorized",
        template_macro: "store_vectorized",
        doc: "Stores the thread's items to the workgroup's tile in the blocked arrangement, four \
              items per access (CUB `BLOCK_STORE_VECTORIZE`, `StoreDirectBlockedVectorized`): \
              `A[(offset + t * items + k) / 4][(offset + t * items + k) % 4] = (*items)[k]` \
              where `t * items + k < valid_items`. `A` a writable module-scope array of vec4<T> \
              (a read_write storage buffer, a workgroup or a private array), `offset` and \
              `items` multiples of 4, as for `block::load_vectorized`. Each full vector is one \
              vec4 write; the tile's partial last vector writes only its components below \
              `valid_items` (component writes), leaving the others as they were. No barrier: a \
              workgroup array written here needs `block::sync` before other threads read it.",
        ..VECTORIZED
    },
];
