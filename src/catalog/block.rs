//! Workgroup (block) primitives: barriers, votes at a barrier, the memory
//! fence, thread indices, reductions and scans across the workgroup, and
//! radix ranking.

use super::{
    ANY_DTYPE, Arg, CheckArgs, Cost, Family, Formula, Namespace, Operator, Param, Placement,
    Primitive, Ret,
};
use crate::target::{Lowering, Target};

/// The largest workgroup memory a configuration may use: WebGPU's
/// guaranteed `maxComputeWorkgroupStorageSize`.
pub const MAX_SHARED_BYTES: u32 = 16384;

const NO_EXCHANGE: Cost = Cost {
    builtin: Formula::Zero,
    shuffle: None,
    note: "",
};

const SYNC: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockSync,
    template_macro: "",
    params: &[],
    dtypes: &[],
    args: &[],
    ret: Ret::Nothing,
    placement: Placement::Nothing,
    cost: NO_EXCHANGE,
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: None,
    shared_memory: None,
    needs: None,
    doc: "",
};

const VOTE: Primitive = Primitive {
    template_macro: "sync_vote",
    args: &[Arg::NonZero],
    ret: Ret::U32,
    placement: Placement::Block,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "2 workgroup barriers + 1 workgroup atomicAdd per thread; one barrier.red on CUDA",
    },
    shared_memory: Some("8 bytes: two u32 slots, shared by the three votes"),
    ..SYNC
};

/// `B` must be a multiple of every subgroup size the target may use, so
/// that the workgroup splits into whole subgroups.
pub(super) fn check_block_dim(args: &CheckArgs<'_>, target: &Target) -> Result<(), String> {
    let b = args.block_dim.expect("block ops take B");
    let s = target.subgroup_size.max();
    if !b.is_multiple_of(s) {
        return Err(format!(
            "block_dim {b} is not a multiple of the subgroup size {}",
            target.subgroup_size
        ));
    }
    Ok(())
}

const REDUCE: Primitive = Primitive {
    name: "",
    namespace: Namespace::Block,
    family: Family::BlockScan,
    template_macro: "reduce",
    params: &[Param::Dtype, Param::BlockDim],
    dtypes: ANY_DTYPE,
    args: &[Arg::Value],
    ret: Ret::Value,
    placement: Placement::FirstThread,
    cost: Cost {
        builtin: Formula::One,
        shuffle: Some(Formula::L),
        note: "the subgroup reduction, 1 workgroup barrier, B/S - 1 ops on partials in workgroup \
               memory; B == S: the subgroup reduction alone",
    },
    lowerings: &[Lowering::Builtin, Lowering::Shuffle],
    operator: None,
    check: Some(check_block_dim),
    shared_memory: Some("2 * (B / S) * sizeof(T) bytes (double-buffered partials); 0 when B == S"),
    needs: None,
    doc: "",
};

macro_rules! block_scans {
    ($($op:literal, $operator:expr, $identity:literal;)*) => {
        const SCANS: &[Primitive] = &[$(
            Primitive {
                name: concat!("reduce_", $op),
                operator: Some($operator),
                doc: concat!("The ", $op, " of `value` over the workgroup of `B` threads, valid \
                    in thread 0. Two stages: each subgroup reduces (builtin or shuffle network), \
                    writes its aggregate to workgroup memory, one barrier, then a fold of the \
                    B/S aggregates. `B` must be a multiple of the subgroup size (checked at \
                    expansion); with `B == S` there is no workgroup memory and no barrier. \
                    Uniform control flow, every thread of the workgroup."),
                ..REDUCE
            },
            Primitive {
                name: concat!("reduce_all_", $op),
                template_macro: "reduce",
                placement: Placement::Block,
                operator: Some($operator),
                doc: concat!("The ", $op, " of `value` over the workgroup, in every thread: the \
                    same two stages as `block::reduce_", $op, "`, every thread folding the \
                    subgroup aggregates after the one barrier (partials are double-buffered, so \
                    back-to-back calls need no second barrier)."),
                ..REDUCE
            },
            Primitive {
                name: concat!("inclusive_", $op),
                template_macro: "inclusive",
                placement: Placement::PerLane,
                operator: Some($operator),
                doc: concat!("Inclusive ", $op, " scan over the workgroup in \
                    `local_invocation_index` order: thread i gets v[0] ", $op, " ... ", $op,
                    " v[i]. The subgroup scan, the last lane of each subgroup publishes its \
                    total, one barrier, then each thread folds the totals of the subgroups \
                    before its own. Assumes subgroups tile the workgroup in index order, as \
                    every known driver does (the adapter check verifies it)."),
                ..REDUCE
            },
            Primitive {
                name: concat!("exclusive_", $op),
                template_macro: "exclusive",
                placement: Placement::PerLane,
                operator: Some($operator),
                doc: concat!("Exclusive ", $op, " scan over the workgroup: thread i > 0 gets \
                    v[0] ", $op, " ... ", $op, " v[i-1], thread 0 the identity (", $identity,
                    "). Same stages as the inclusive scan, plus one shuffle_up."),
                cost: Cost {
                    builtin: Formula::One,
                    shuffle: Some(Formula::LPlusOne),
                    note: "the subgroup exclusive scan (the inclusive one and a shuffle_up by \
                           1), 1 workgroup barrier, up to B/S - 1 ops on subgroup totals",
                },
                ..REDUCE
            },
        )*];
    };
}

block_scans! {
    "add", Operator::Add, "0";
    "min", Operator::Min, "+inf or the dtype's largest value";
    "max", Operator::Max, "-inf, the dtype's smallest value, or 0 unsigned";
}

const GENERIC: &[Primitive] = &[
    Primitive {
        name: "reduce",
        params: &[Param::Dtype, Param::BlockDim, Param::Function],
        lowerings: &[Lowering::Shuffle],
        cost: Cost {
            builtin: Formula::L,
            shuffle: None,
            note: "log2(S) shuffle_xor + F steps, 1 workgroup barrier, B/S - 1 calls of F",
        },
        doc: "The reduction of `value` over the workgroup under the user function \
              `F: fn(a: T, b: T) -> T`, valid in thread 0 (every thread, in this \
              implementation). `F` must be associative and commutative (the subgroup stage \
              is a butterfly). Same two stages and contract as `block::reduce_add`; `F` is \
              a function of the caller's module, so the instance validates together with it.",
        ..REDUCE
    },
    Primitive {
        name: "reduce_all",
        params: &[Param::Dtype, Param::BlockDim, Param::Function],
        placement: Placement::Block,
        lowerings: &[Lowering::Shuffle],
        cost: Cost {
            builtin: Formula::L,
            shuffle: None,
            note: "log2(S) shuffle_xor + F steps, 1 workgroup barrier, B/S - 1 calls of F",
        },
        doc: "The reduction of `value` over the workgroup under the user function `F`, in \
              every thread. `F` associative and commutative.",
        ..REDUCE
    },
    Primitive {
        name: "inclusive_scan",
        template_macro: "inclusive",
        params: &[Param::Dtype, Param::BlockDim, Param::Function],
        placement: Placement::PerLane,
        lowerings: &[Lowering::Shuffle],
        cost: Cost {
            builtin: Formula::L,
            shuffle: None,
            note: "Hillis-Steele: log2(S) shuffle_up + F steps, 1 workgroup barrier, up to \
                   B/S - 1 calls of F",
        },
        doc: "Inclusive scan over the workgroup under the user function `F`: thread i gets \
              F(...F(F(v[0], v[1]), v[2])..., v[i]) up to reassociation. `F` must be \
              associative; operands are always combined earlier-first, so it need not be \
              commutative.",
        ..REDUCE
    },
    Primitive {
        name: "exclusive_scan",
        template_macro: "exclusive",
        params: &[Param::Dtype, Param::BlockDim, Param::Function],
        args: &[Arg::Value, Arg::Identity],
        placement: Placement::PerLane,
        lowerings: &[Lowering::Shuffle],
        cost: Cost {
            builtin: Formula::LPlusOne,
            shuffle: None,
            note: "the inclusive scan plus one shuffle_up",
        },
        doc: "Exclusive scan over the workgroup under the user function `F`: thread 0 gets \
              `identity` (which must be F's identity and the same in every thread), thread \
              i > 0 the combination of v[0..i]. `F` associative.",
        ..REDUCE
    },
];

/// `B == 2^radix_bits`, the digit inside the key, and the workgroup memory
/// within [`MAX_SHARED_BYTES`].
fn check_radix(args: &CheckArgs<'_>, target: &Target) -> Result<(), String> {
    check_block_dim(args, target)?;
    let b = args.block_dim.expect("radix ranking takes B");
    let radix_bits = args.constant("radix_bits");
    let bit_start = args.constant("bit_start");
    let num_bits = args.constant("num_bits");
    if b != 1 << radix_bits {
        return Err(format!(
            "block_dim {b} must equal 1 << radix_bits = {}",
            1u32 << radix_bits
        ));
    }
    if num_bits > radix_bits {
        return Err(format!(
            "num_bits {num_bits} exceeds radix_bits {radix_bits}"
        ));
    }
    if bit_start + num_bits > 32 {
        return Err(format!(
            "the digit bits {bit_start}..{} do not fit a 32-bit key",
            bit_start + num_bits
        ));
    }
    let bytes = radix_shared_bytes(b, target.subgroup_size.min(), target.subgroup_size.max());
    if bytes > MAX_SHARED_BYTES {
        return Err(format!(
            "block_dim {b} needs {bytes} bytes of workgroup memory, over the {MAX_SHARED_BYTES} \
             every WebGPU device offers"
        ));
    }
    Ok(())
}

/// Workgroup memory of `radix_rank_match_atomic_or` at block size `b`:
/// match words `(B / G) * B * (G / 32)` with `G = max(32, S)` lanes per
/// match group, bins and exclusive prefix (`2 * B`), and the exclusive
/// scan's partials (`2 * B / S_min`), all u32.
pub fn radix_shared_bytes(b: u32, min_size: u32, max_size: u32) -> u32 {
    let group = max_size.max(32);
    let match_words = (b / group).max(1) * b * (group / 32);
    let scan_words = if b == max_size && min_size == max_size {
        0
    } else {
        2 * b / min_size
    };
    4 * (match_words + 2 * b + scan_words)
}

const RADIX: Primitive = Primitive {
    name: "radix_rank_match_atomic_or",
    namespace: Namespace::Block,
    family: Family::BlockRadix,
    template_macro: "radix_rank_match_atomic_or",
    params: &[
        Param::BlockDim,
        Param::Const {
            name: "radix_bits",
            min: 1,
            max: 10,
            samples: &[2, 3, 4, 5, 6, 7, 8],
        },
        Param::Const {
            name: "bit_start",
            min: 0,
            max: 31,
            samples: &[0, 5, 24],
        },
        Param::Const {
            name: "num_bits",
            min: 1,
            max: 10,
            samples: &[1, 3, 8],
        },
    ],
    dtypes: &[],
    args: &[Arg::RadixKey],
    ret: Ret::U32,
    placement: Placement::PerLane,
    cost: Cost {
        builtin: Formula::Zero,
        shuffle: None,
        note: "6 workgroup barriers + the block exclusive scan; 1 workgroup atomicOr per thread, \
               B/G reads and writes per thread for the per-digit counts",
    },
    lowerings: &[Lowering::Builtin],
    operator: None,
    check: Some(check_radix),
    shared_memory: Some(
        "4 * ((B / G) * B * (G / 32) + 2 * B + 2 * B / S) bytes, G = max(32, S): 10 KiB at \
         B = 256, S = 32; at most 16 KiB",
    ),
    needs: None,
    doc: "The stable rank of each thread's `key` within the workgroup under the digit \
          `(key >> bit_start) & ((1 << num_bits) - 1)`: the number of threads whose digit is \
          smaller, plus those with an equal digit and a smaller `local_invocation_index`. \
          Match-and-count with workgroup atomicOr: threads are split into groups of \
          G = max(32, S) and each (group, digit) gets a G-bit mask of u32 words (WGSL has no \
          64-bit workgroup atomics); popcounts give the rank among equal digits, the last \
          thread of each match writes its count, thread d sums digit d over the groups, a \
          block exclusive scan gives digit offsets, and each group's base is added. After the \
          call `wk_blk_radix_bins__<radix_bits>[d]` holds the number of keys with digit d and \
          `wk_blk_radix_excl_prefix__<radix_bits>[d]` their exclusive prefix sum (module-scope \
          workgroup arrays, read them right after the call). Contract, checked at expansion: \
          `B == 1 << radix_bits`, `num_bits <= radix_bits`, `bit_start + num_bits <= 32`, \
          workgroup memory within 16 KiB. Uniform control flow, every thread.",
};

const BASICS: &[Primitive] = &[
    Primitive {
        name: "sync",
        template_macro: "sync",
        doc: "Workgroup barrier (`workgroupBarrier`): every thread waits until all have \
              arrived; workgroup memory written before it is visible after it. Uniform control \
              flow only: a barrier some threads skip deadlocks.",
        ..SYNC
    },
    Primitive {
        name: "sync_all_nonzero",
        doc: "A workgroup barrier that also returns 1 in every thread iff `predicate` is \
              non-zero in every thread, else 0. Emulated portably: each thread atomicAdds \
              whether its predicate is zero into one of two workgroup slots (alternating per \
              call, so consecutive votes need no third barrier), between two barriers. The \
              native CUDA back end replaces the three votes by one fused barrier each, \
              `barrier.red.and` / `.or` / `.popc` (`__syncthreads_and/or/count`).",
        ..VOTE
    },
    Primitive {
        name: "sync_any_nonzero",
        doc: "A workgroup barrier that also returns 1 in every thread iff `predicate` is \
              non-zero in at least one thread, else 0. Same emulation as `sync_all_nonzero` \
              (atomicAdd, never atomicOr, which MoltenVK miscompiles on workgroup memory).",
        ..VOTE
    },
    Primitive {
        name: "sync_count_nonzero",
        doc: "A workgroup barrier that also returns, in every thread, the number of threads \
              whose `predicate` is non-zero. Same emulation as `sync_all_nonzero`.",
        ..VOTE
    },
    Primitive {
        name: "mem_fence",
        template_macro: "mem_fence",
        doc: "A workgroup-scope memory fence without thread synchronisation: orders the \
              calling thread's memory accesses before and after it, safe in divergent control \
              flow (a producer publishing data before a flag). WGSL has no such statement, so \
              the expansion writes a barrier and wavekit rewrites it in the naga module to \
              `Statement::MemoryBarrier` (SPIR-V OpMemoryBarrier, HLSL GroupMemoryBarrier, \
              GLSL memoryBarrierShared, CUDA `membar.cta`); naga's MSL writer has no fence and \
              writes `threadgroup_barrier(mem_threadgroup)`, so on Metal it also synchronises \
              the threadgroup (uniform control flow there). Text WGSL output cannot carry it \
              and keeps the barrier.",
        ..SYNC
    },
    Primitive {
        name: "thread_idx",
        template_macro: "thread_idx",
        ret: Ret::U32,
        placement: Placement::PerLane,
        doc: "The thread's index in its workgroup: `local_invocation_index`, which for a \
              2-D or 3-D workgroup is `x + y * size.x + z * size.x * size.y`.",
        ..SYNC
    },
    Primitive {
        name: "global_thread_idx",
        template_macro: "global_thread_idx",
        ret: Ret::U32,
        placement: Placement::PerLane,
        doc: "The thread's index in the whole dispatch, linearised: \
              `workgroup_linear * threads_per_block + thread_idx()`, where \
              `workgroup_linear = id.x + id.y * n.x + id.z * n.x * n.y` over `workgroup_id` \
              and `num_workgroups`. For 1-D workgroups and dispatches it equals \
              `global_invocation_id.x`.",
        ..SYNC
    },
];

/// Every block primitive, by family.
pub(super) const PRIMITIVES: [&[Primitive]; 4] = [BASICS, SCANS, GENERIC, &[RADIX]];

/// Block sizes the conformance suite sweeps: `S, 2S, 4S` and 256.
pub fn sample_block_dims(max_size: u32) -> Vec<u32> {
    let mut dims: Vec<u32> = [max_size, 2 * max_size, 4 * max_size, 256]
        .into_iter()
        .filter(|&b| b <= 256)
        .collect();
    dims.sort_unstable();
    dims.dedup();
    dims
}
