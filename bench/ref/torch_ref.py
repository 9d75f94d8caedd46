#!/usr/bin/env python3
"""PyTorch references for the wavekit demos, and the device-to-device copy
that bounds every memory-bound demo.

Each reference gets the inputs of its demo (demos/src/*.rs: same
distributions, generated on the GPU), the same sizes, and the same timing as
wavekit: CUDA events around each call, median of --runs after --warmup.
Before the timed calls a sleep kernel holds the GPU while the host enqueues
them, so that the events time GPU work and not Python's launch latency (a
call that synchronises inside, such as masked_select, still pays for it).
One JSON line per (demo, variant, implementation, n) goes to --out as it is
measured, with the fields of wavekit's Report; backend is "torch" for
PyTorch's kernels and "copy" for the copy. A reference that fails is
reported on stderr and the others still run.

Which kernels these are (PyTorch 2.x on CUDA) and what differs from the demo
is in each line's "algorithm" and "note": torch.sum/amin/amax are ATen's own
reduction kernel, not CUB; cumsum of a 1-D tensor is CUB's DeviceScan
(inclusive); masked_select and bincount synchronise with the host; sort
returns int64 indices (CUB DeviceRadixSort::SortPairs with an index
payload), and short rows sort in a per-row kernel. bench/ref/cub_ref.cu
calls CUB directly for the like-for-like comparison.

    python3 bench/ref/torch_ref.py --log2 10 28 --warmup 5 --runs 20 --out torch.jsonl
"""

import argparse
import json
import sys
import time
import traceback

import torch

DEV = "cuda"
STATE = {"device": "", "out": None, "failed": 0}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--log2", nargs=2, type=int, default=[10, 28], metavar=("LO", "HI"))
    p.add_argument("--copy-log2", nargs=2, type=int, default=[10, 33], metavar=("LO", "HI"),
                   help="copy sizes, log2 of the bytes copied (moved: twice that)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--warmup-ms", type=float, default=200.0,
                   help="then keep warming up for this long (the GPU's clocks drop while the host works)")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--only", default="", help="comma-separated: copy,reduce,scan,compact,histogram,radix_sort,contact_sort")
    p.add_argument("--out", required=True, help="JSON lines, appended as measured")
    return p.parse_args()


def time_ms(fn, warmup, runs, warmup_ms=0.0):
    """Median and minimum milliseconds of `fn` on the GPU clock."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    warm_start = time.perf_counter()
    while (time.perf_counter() - warm_start) * 1000.0 < warmup_ms:
        fn()
        torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        # ~1 ms at 1.7 GHz plus 50 us a call: longer than enqueueing them.
        sleep(2_000_000 + 100_000 * runs)
    for start, end in zip(starts, ends):
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    mid = len(times) // 2
    median = times[mid] if len(times) % 2 else 0.5 * (times[mid - 1] + times[mid])
    return median, times[0], len(times)


def emit(args, demo, variant, backend, impl, algorithm, n, nbytes, fn, note=""):
    median, fastest, runs = time_ms(fn, args.warmup, args.runs, args.warmup_ms)
    s = median / 1e3
    line = {
        "demo": demo, "variant": variant, "backend": backend, "impl": impl,
        "device": STATE["device"], "algorithm": algorithm, "n": n, "bytes": nbytes,
        "timing": {"median_ms": median, "min_ms": fastest, "runs": runs},
        "items_per_s": n / s, "gb_per_s": nbytes / s / 1e9, "note": note,
    }
    STATE["out"].write(json.dumps(line) + "\n")
    STATE["out"].flush()
    print(f"ok  {backend:<5} {demo:<13} {variant:<14} 2^{n.bit_length() - 1:<2} {median:10.4f} ms "
          f"{nbytes / s / 1e9:8.1f} GB/s {n / s / 1e9:8.3f} G items/s  {impl}", file=sys.stderr, flush=True)


def gen(seed):
    g = torch.Generator(device=DEV)
    g.manual_seed(seed)
    return g


def uniform_i32(n, seed):
    """n uniform 32-bit words (the demos' random u32), as int32 bits."""
    return torch.randint(-2**31, 2**31, (n,), dtype=torch.int32, device=DEV, generator=gen(seed))


def unsigned_or(x_i32, probe):
    """The words as uint32 where PyTorch runs `probe` on uint32 (a shell dtype
    with few kernels), else as int32 (same 4 bytes, same cost)."""
    try:
        u = x_i32[:64].view(torch.uint32)
        probe(u)
        torch.cuda.synchronize()
        return x_i32.view(torch.uint32), "uint32"
    except Exception:  # noqa: BLE001 - any failure means: not supported
        return x_i32, "int32 (PyTorch has no uint32 kernel for this op)"


def ref_copy(args):
    lo, hi = args.copy_log2
    for k in range(lo, hi + 1):
        nbytes = 1 << k
        src = torch.randint(0, 256, (nbytes,), dtype=torch.uint8, device=DEV, generator=gen(k))
        dst = torch.empty_like(src)
        emit(args, "copy", "d2d", "copy", "dst.copy_(src)", "device-to-device copy (cudaMemcpyAsync)",
             nbytes // 4, 2 * nbytes, lambda: dst.copy_(src),
             "n counts 4-byte words copied; bytes counts bytes read plus bytes written")


def ref_reduce(args, n):
    x = torch.randint(0, 1 << 24, (n,), dtype=torch.int32, device=DEV, generator=gen(n)).float() / (1 << 24)
    algo = "ATen reduction kernel (PyTorch's own, not CUB)"
    emit(args, "reduce", "sum_f32", "torch", "torch.sum", algo, n, 4 * n, lambda: torch.sum(x))
    emit(args, "reduce", "min_f32", "torch", "torch.amin", algo, n, 4 * n, lambda: torch.amin(x))
    emit(args, "reduce", "max_f32", "torch", "torch.amax", algo, n, 4 * n, lambda: torch.amax(x))
    w = uniform_i32(n, n + 1)
    for variant, name, fn in (
        ("sum_u32", "torch.sum", lambda t: torch.sum(t, dtype=t.dtype)),
        ("min_u32", "torch.amin", torch.amin),
        ("max_u32", "torch.amax", torch.amax),
    ):
        t, dtype = unsigned_or(w, fn)
        emit(args, "reduce", variant, "torch", f"{name} ({t.dtype})", algo, n, 4 * n,
             lambda t=t, fn=fn: fn(t), f"keys as {dtype}")


def ref_scan(args, n):
    x = uniform_i32(n, n + 2)
    emit(args, "scan", "exclusive_u32", "torch", "torch.cumsum(int32)",
         "at::cuda::cub::inclusive_scan: CUB DeviceScan (single pass, decoupled look-back)", n, 8 * n,
         lambda: torch.cumsum(x, 0, dtype=torch.int32),
         "inclusive scan timed: the exclusive one moves the same bytes (a shift); int32 adds wrap like u32")


def ref_compact(args, n):
    x = uniform_i32(n, n + 3)
    keep = x >= 0  # the u32 below 2^31, computed before timing
    kept = int(keep.sum())
    emit(args, "compact", "u32_half", "torch", "torch.masked_select(x, mask)",
         "nonzero of the mask (CUB DeviceSelect) + index gather", n, 4 * (n + kept),
         lambda: torch.masked_select(x, keep),
         "reads a precomputed bool mask (1 B/item more than the demo, predicate not fused); "
         "synchronises with the host for the output size")


def ref_histogram(args, n):
    for variant in ("uniform", "skewed"):
        if variant == "uniform":
            x = uniform_i32(n, n + 4)
        else:
            runs = (n + 63) // 64
            g = gen(n + 5)
            hot = torch.randint(0, 10, (runs,), device=DEV, generator=g) != 0
            other = torch.randint(-2**31, 2**31, (runs,), dtype=torch.int32, device=DEV, generator=g)
            x = torch.where(hot, torch.full_like(other, 7), other).repeat_interleave(64)[:n].contiguous()
        low = (x & 255).contiguous()  # the demo's bin, computed before timing
        lowf = low.float()
        algo = "ATen histogram kernel: shared- or global-memory atomics (not CUB)"
        emit(args, "histogram", variant, "torch", "torch.bincount(x & 255, minlength=256)", algo, n, 4 * n,
             lambda: torch.bincount(low, minlength=256),
             "bins precomputed (x & 255) before timing; synchronises with the host for min/max")
        emit(args, "histogram", variant, "torch", "torch.histc(f32(x & 255), 256, 0, 256)", algo, n, 4 * n,
             lambda: torch.histc(lowf, bins=256, min=0, max=256),
             "bins precomputed (x & 255) as f32 before timing")


def ref_radix_sort(args, n):
    w = uniform_i32(n, n + 6)
    keys, dtype = unsigned_or(w, torch.sort)
    emit(args, "radix_sort", "keys", "torch", f"torch.sort ({keys.dtype})",
         "CUB DeviceRadixSort::SortPairs with an int64 index payload", n, 8 * n,
         lambda: torch.sort(keys),
         f"keys as {dtype}; torch.sort has no keys-only path: it also writes int64 indices (8 B/item)")
    distinct = max(n // 8, 1)
    pk = torch.randint(0, distinct, (n,), dtype=torch.int64, device=DEV, generator=gen(n + 7))
    pk = (pk * 0x9E3779B1) & 0xFFFFFFFF  # the demo's scrambled duplicate keys, in [0, 2^32)
    pk32 = (pk - (1 << 32) * (pk >= (1 << 31))).to(torch.int32)
    keys, dtype = unsigned_or(pk32, torch.sort)
    values = torch.arange(n, dtype=torch.int32, device=DEV)

    def pairs():
        sorted_keys, order = torch.sort(keys, stable=True)
        return sorted_keys, values.gather(0, order)

    emit(args, "radix_sort", "pairs", "torch", f"torch.sort(stable) + gather ({keys.dtype})",
         "CUB DeviceRadixSort::SortPairs (int64 index payload), then a gather of the values", n, 16 * n,
         pairs, f"keys as {dtype}; values applied through the int64 permutation")


def ref_contact_sort(args, n):
    for seg in (32, 16, 8):
        bodies = n // seg
        g = gen(n + seg)
        filled = torch.randint(0, seg, (bodies, 1), device=DEV, generator=g)
        live = torch.arange(seg, device=DEV)[None, :] <= filled
        dist = torch.randint(0, 2048, (bodies, seg), device=DEV, generator=g).float() / 64.0 - 8.0
        keys = torch.where(live, dist, torch.full_like(dist, float("inf"))).contiguous()
        emit(args, "contact_sort", f"seg{seg}", "torch", f"torch.sort(dim=-1) of ({bodies}, {seg}) f32",
             "ATen per-row sort of short rows (sortKeyValueInplace: in-register/warp merge sort)", n, 16 * n,
             lambda keys=keys: torch.sort(keys, dim=-1),
             "keys + int64 indices (the permutation) instead of moving u32 values; ties not ordered by value")


def main():
    args = parse_args()
    if not torch.cuda.is_available():
        print("error: no CUDA device for PyTorch", file=sys.stderr)
        return 2
    STATE["device"] = torch.cuda.get_device_name(0)
    print(f"== {STATE['device']}, torch {torch.__version__} (CUDA {torch.version.cuda})", file=sys.stderr)
    only = set(filter(None, args.only.split(",")))
    sized = [("reduce", ref_reduce), ("scan", ref_scan), ("compact", ref_compact),
             ("histogram", ref_histogram), ("radix_sort", ref_radix_sort), ("contact_sort", ref_contact_sort)]
    with open(args.out, "a", encoding="utf-8") as out:
        STATE["out"] = out
        if not only or "copy" in only:
            run_one("copy", lambda: ref_copy(args))
        for name, ref in sized:
            if only and name not in only:
                continue
            for k in range(args.log2[0], args.log2[1] + 1):
                run_one(f"{name} 2^{k}", lambda ref=ref, k=k: ref(args, 1 << k))
                torch.cuda.empty_cache()
    return 1 if STATE["failed"] else 0


def run_one(what, fn):
    try:
        fn()
    except Exception:  # noqa: BLE001 - report, then go on with the next reference
        STATE["failed"] += 1
        print(f"FAIL {what}:\n{traceback.format_exc()}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
