// CUB device-wide references for the wavekit demos, called directly (no
// framework between): the same inputs as each demo (generated on the GPU with
// the same distributions), the same sizes, timed with CUDA events around each
// call, median of --runs after --warmup. One JSON line per (demo, variant, n)
// on stdout, with the fields of wavekit's Report (demos/src/harness.rs).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -o cub_ref bench/ref/cub_ref.cu
//   ./cub_ref [--log2 10 28] [--warmup 5] [--warmup-ms 200] [--runs 20] [--only copy,reduce,scan,...]
//
// The by_key entries (ReduceByKey, InclusiveSumByKey, DeviceSegmentedReduce::Sum)
// were written without nvcc at hand (2026-11-26): compile them before trusting them.
//
// Timing: before each size's timed calls a spin kernel holds the GPU for
// about a millisecond while the host enqueues every call and event, so the
// events time GPU work only, never the host's launch latency (the same for
// bench/ref/torch_ref.py). Temp storage is allocated once per size, outside
// the timed region, as a CUB user would. Each result is checked (sortedness,
// counts, sums); a failed check is printed and marked in the line's note.
// The harness (allocations, inputs, timing, the JSON lines, the command line)
// is cub_common.cuh, shared with cub_topk.cu (CUB's DeviceTopK, which needs
// CCCL 13.2).

// The pointer-array MultiHistogramEven overload is deprecated in CCCL 3 in
// favour of cuda::std::array, which older CCCL releases lack; keep the one
// that every release has, quietly.
#define CCCL_IGNORE_DEPRECATED_API
#include <chrono>
#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cub_common.cuh"

namespace {

// ---- checks ----

// Counts i with keys[i] > keys[i + 1] (not across segment boundaries).
template <class K>
__global__ void descents(const K* keys, size_t n, size_t segment, unsigned long long* count) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i + 1 < n; i += size_t(gridDim.x) * blockDim.x)
        if ((i + 1) % segment != 0 && keys[i + 1] < keys[i]) atomicAdd(count, 1ull);
}

template <class K>
bool sorted(const K* keys, size_t n, size_t segment) {
    Dev count(sizeof(unsigned long long));
    unsigned long long host = 1;
    ok(cudaMemset(count.p, 0, sizeof host), "memset");
    descents<<<1024, 256>>>(keys, n, segment, count.as<unsigned long long>());
    ok(cudaMemcpy(&host, count.p, sizeof host, cudaMemcpyDeviceToHost), "descents");
    return host == 0;
}

// ---- the references, one per demo ----

void reduce(const Config& cfg, size_t n) {
    for (const char* dtype : {"f32", "u32"}) {
        const bool f = !std::strcmp(dtype, "f32");
        Dev in(4 * n), out(8);
        generate(in.as<uint32_t>(), n, f ? Fill::UnitF32 : Fill::Uniform, 0, 0x5eed ^ n);
        // Host reference for the checks, at sizes where the copy is cheap.
        const bool check = n <= (1u << 22);
        const auto host = check ? to_host<uint32_t>(in.p, n) : std::vector<uint32_t>{};
        for (const char* op : {"sum", "min", "max"}) {
            const std::string variant = std::string(op) + "_" + dtype;
            const int o = op[1] == 'u' ? 0 : op[1] == 'i' ? 1 : 2;
            Timing t;
            if (f) {
                const float* x = in.as<float>();
                float* y = out.as<float>();
                t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
                    return o == 0 ? cub::DeviceReduce::Sum(tmp, bytes, x, y, int(n))
                         : o == 1 ? cub::DeviceReduce::Min(tmp, bytes, x, y, int(n))
                                  : cub::DeviceReduce::Max(tmp, bytes, x, y, int(n));
                });
            } else {
                const uint32_t* x = in.as<uint32_t>();
                uint32_t* y = out.as<uint32_t>();
                t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
                    return o == 0 ? cub::DeviceReduce::Sum(tmp, bytes, x, y, int(n))
                         : o == 1 ? cub::DeviceReduce::Min(tmp, bytes, x, y, int(n))
                                  : cub::DeviceReduce::Max(tmp, bytes, x, y, int(n));
                });
            }
            bool good = true;
            if (check && t.good) {
                const uint32_t got = to_host<uint32_t>(out.p, 1)[0];
                if (f) {
                    double sum = 0;
                    float mn = INFINITY, mx = -INFINITY;
                    for (uint32_t b : host) {
                        float v;
                        std::memcpy(&v, &b, 4);
                        sum += v;
                        mn = std::min(mn, v);
                        mx = std::max(mx, v);
                    }
                    float g;
                    std::memcpy(&g, &got, 4);
                    good = o == 0 ? std::fabs(g - sum) <= 1e-5 * std::max(1.0, sum) : g == (o == 1 ? mn : mx);
                } else {
                    uint32_t sum = 0, mn = ~0u, mx = 0;
                    for (uint32_t v : host) sum += v, mn = std::min(mn, v), mx = std::max(mx, v);
                    good = got == (o == 0 ? sum : o == 1 ? mn : mx);
                }
            }
            const std::string impl = std::string("cub::DeviceReduce::") + (o == 0 ? "Sum" : o == 1 ? "Min" : "Max");
            emit(cfg, "reduce", variant.c_str(), impl.c_str(), "CUB DeviceReduce (per-block partials, then one block)", n,
                 4ull * n, t, good, "");
        }
    }
}

void scan(const Config& cfg, size_t n) {
    Dev in(4 * n), out(4 * n);
    generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0x5ca1 ^ n);
    const uint32_t* x = in.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, x, y, int(n));
    });
    bool good = true;
    if (t.good && n <= (1u << 22)) {
        const auto a = to_host<uint32_t>(in.p, n), b = to_host<uint32_t>(out.p, n);
        uint32_t acc = 0;
        for (size_t i = 0; i < n && good; ++i) good = b[i] == acc, acc += a[i];
    }
    emit(cfg, "scan", "exclusive_u32", "cub::DeviceScan::ExclusiveSum",
         "CUB DeviceScan (single pass, decoupled look-back)", n, 8ull * n, t, good, "");
    // The operator scan: wavekit's Scan::with_operator (the demo's
    // `inclusive_max_u32` variant).
    const Timing m = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::InclusiveScan(tmp, bytes, x, y, cuda::maximum<uint32_t>{}, int(n));
    });
    good = true;
    if (m.good && n <= (1u << 22)) {
        const auto a = to_host<uint32_t>(in.p, n), b = to_host<uint32_t>(out.p, n);
        uint32_t acc = 0;
        for (size_t i = 0; i < n && good; ++i) acc = std::max(acc, a[i]), good = b[i] == acc;
    }
    emit(cfg, "scan", "inclusive_max_u32", "cub::DeviceScan::InclusiveScan (cuda::maximum)",
         "CUB DeviceScan (single pass, decoupled look-back)", n, 8ull * n, m, good, "");
}

struct BelowHalf {
    __host__ __device__ bool operator()(uint32_t x) const { return x < 0x80000000u; }
};

void compact(const Config& cfg, size_t n) {
    Dev in(4 * n), out(4 * n), count(sizeof(int));
    generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0xc0de ^ n);
    const uint32_t* x = in.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    int* selected = count.as<int>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceSelect::If(tmp, bytes, x, y, selected, int(n), BelowHalf{});
    });
    const int kept = t.good ? to_host<int>(count.p, 1)[0] : 0;
    // Half of uniform u32 pass: allow 5% (and any count at tiny n).
    const bool good = n < 4096 || std::fabs(kept - 0.5 * n) < 0.05 * n;
    emit(cfg, "compact", "u32_half", "cub::DeviceSelect::If (x < 2^31)",
         "CUB DeviceSelect (single pass, decoupled look-back)", n, 4ull * (n + size_t(kept)), t, good, "");
}

struct LowByte {
    __host__ __device__ uint32_t operator()(uint32_t x) const { return x & 0xffu; }
};

void histogram(const Config& cfg, size_t n) {
    for (const char* variant : {"uniform", "skewed"}) {
        const bool skewed = variant[0] == 's';
        Dev in(4 * n), bins(256 * sizeof(int));
        generate(in.as<uint32_t>(), n, skewed ? Fill::Skewed : Fill::Uniform, 0, 0x4157 ^ n);
        auto check = [&](const Timing& t) {
            if (!t.good) return false;
            long long total = 0;
            for (int c : to_host<int>(bins.p, 256)) total += c;
            return total == (long long)n;
        };
        // 1: 256 even bins over the low byte, read through a transform iterator.
        {
            auto samples = thrust::make_transform_iterator(in.as<uint32_t>(), LowByte{});
            int* h = bins.as<int>();
            const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
                return cub::DeviceHistogram::HistogramEven(tmp, bytes, samples, h, 257, 0u, 256u, int(n));
            });
            emit(cfg, "histogram", variant, "cub::DeviceHistogram::HistogramEven (x & 255)",
                 "CUB DeviceHistogram (shared-memory privatized, atomics)", n, 4ull * n, t, check(t), "");
        }
        // 2: each u32 as a 4-channel pixel of bytes, channel 0 (the low byte) active.
        {
            const uint8_t* samples = in.as<uint8_t>();
            int* h[1] = {bins.as<int>()};
            int levels[1] = {257};
            unsigned int lower[1] = {0}, upper[1] = {256};
            const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
                return cub::DeviceHistogram::MultiHistogramEven<4, 1>(tmp, bytes, samples, h, levels, lower, upper,
                                                                        int(n));
            });
            emit(cfg, "histogram", variant, "cub::DeviceHistogram::MultiHistogramEven<4,1> (low byte as channel 0)",
                 "CUB DeviceHistogram (shared-memory privatized, atomics)", n, 4ull * n, t, check(t), "");
        }
    }
}

void radix_sort(const Config& cfg, size_t n) {
    {
        Dev in(4 * n), out(4 * n);
        generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0x50e7 ^ n);
        const uint32_t* k = in.as<uint32_t>();
        uint32_t* ko = out.as<uint32_t>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceRadixSort::SortKeys(tmp, bytes, k, ko, int(n));
        });
        emit(cfg, "radix_sort", "keys", "cub::DeviceRadixSort::SortKeys<u32>",
             "CUB DeviceRadixSort (onesweep for large n)", n, 8ull * n, t, t.good && sorted(ko, n, n + 1), "");
    }
    {
        Dev kin(4 * n), kout(4 * n), vin(4 * n), vout(4 * n);
        generate(kin.as<uint32_t>(), n, Fill::PairKeys, 0, 0x9a15 ^ n);
        generate(vin.as<uint32_t>(), n, Fill::Iota, 0, 0);
        const uint32_t* k = kin.as<uint32_t>();
        const uint32_t* v = vin.as<uint32_t>();
        uint32_t* ko = kout.as<uint32_t>();
        uint32_t* vo = vout.as<uint32_t>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, ko, v, vo, int(n));
        });
        emit(cfg, "radix_sort", "pairs", "cub::DeviceRadixSort::SortPairs<u32, u32>",
             "CUB DeviceRadixSort (onesweep for large n; stable)", n, 16ull * n, t, t.good && sorted(ko, n, n + 1),
             "");
    }
}

void contact_sort(const Config& cfg, size_t n) {
    for (int length : {32, 16, 8}) {
        const std::string variant = "seg" + std::to_string(length);
        const int segments = int((n + length - 1) / length);
        Dev kin(4 * n), kout(4 * n), vin(4 * n), vout(4 * n), offsets(4 * (size_t(segments) + 1));
        generate(kin.as<uint32_t>(), n, Fill::ContactKeys, uint32_t(length), 0xc0a7 ^ n);
        generate(vin.as<uint32_t>(), n, Fill::ContactValues, uint32_t(length), 0xc0a7 ^ n);
        segment_offsets<<<(segments + 256) / 256, 256>>>(offsets.as<int>(), segments, length);
        // The last segment may be short when n is not a multiple (it is, for powers of two >= 32).
        const float* k = kin.as<float>();
        const uint32_t* v = vin.as<uint32_t>();
        float* ko = kout.as<float>();
        uint32_t* vo = vout.as<uint32_t>();
        const int* begin = offsets.as<int>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceSegmentedSort::SortPairs(tmp, bytes, k, ko, v, vo, int(n), segments, begin, begin + 1);
        });
        emit(cfg, "contact_sort", variant.c_str(), "cub::DeviceSegmentedSort::SortPairs<f32, u32>",
             "CUB DeviceSegmentedSort (small segments: warp-level merge sort)", n, 16ull * n, t,
             t.good && sorted(ko, n, size_t(length)),
             "ties ordered by CUB, not by value as wavekit's (key, value) order; the offsets array is read too");
    }
}

// demos/src/segmented_sort.rs: segments of lengths uniform in 1..=longest
// (offsets made here on the host; mixed_pairs 64, long_pairs 16384), keys
// ContactKeys' distances (every slot filled: param 1), random ids; checked on
// the host, segment by segment.
void segmented_sort_of(const Config& cfg, size_t n, size_t longest, const char* variant) {
    std::vector<int> offsets{0};
    uint64_t state = 0x5e9 ^ n;
    while (size_t(offsets.back()) < n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const size_t length = size_t(state >> 33) % longest + 1;
        offsets.push_back(int(std::min(n, size_t(offsets.back()) + length)));
    }
    const int segments = int(offsets.size()) - 1;
    Dev kin(4 * n), kout(4 * n), vin(4 * n), vout(4 * n), dev_offsets(4 * offsets.size());
    generate(kin.as<uint32_t>(), n, Fill::ContactKeys, 1, 0x5e95 ^ n);
    generate(vin.as<uint32_t>(), n, Fill::ContactValues, 1, 0x5e95 ^ n);
    ok(cudaMemcpy(dev_offsets.p, offsets.data(), 4 * offsets.size(), cudaMemcpyHostToDevice), "offsets");
    const float* k = kin.as<float>();
    const uint32_t* v = vin.as<uint32_t>();
    float* ko = kout.as<float>();
    uint32_t* vo = vout.as<uint32_t>();
    const int* begin = dev_offsets.as<int>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceSegmentedSort::SortPairs(tmp, bytes, k, ko, v, vo, int(n), segments, begin, begin + 1);
    });
    const std::vector<float> got = to_host<float>(ko, n);
    bool good = t.good;
    for (int s = 0; good && s < segments; ++s)
        for (int i = offsets[s] + 1; i < offsets[s + 1]; ++i)
            if (got[i] < got[i - 1]) good = false;
    emit(cfg, "segmented_sort", variant, "cub::DeviceSegmentedSort::SortPairs<f32, u32>",
         longest <= 64 ? "CUB DeviceSegmentedSort (segments of 1..=64: warp-level merge sorts)"
                       : "CUB DeviceSegmentedSort (segments of 1..=16384: mostly a block's radix sort each)",
         n, 16ull * n, t, good,
         "ties ordered by CUB, not by value as wavekit's (key, value) order; the offsets array is read too");
}

void segmented_sort(const Config& cfg, size_t n) {
    segmented_sort_of(cfg, n, 64, "mixed_pairs");
    segmented_sort_of(cfg, n, 16384, "long_pairs");
}

// ---- issue 35, third batch: merge sort, range histogram. CCCL 3.0 (CUDA
// 13.0's) has no cub::DeviceTopK: top_k's CUB row is cub_topk.cu, built
// with CCCL 13.2. ----

struct LessU32 {
    __host__ __device__ bool operator()(uint32_t a, uint32_t b) const { return a < b; }
};

// merge_sort pairs_u32: radix_sort pairs' inputs (n/8 distinct keys, so
// ties; values 0..n), sorted stably by `<` from an untouched copy each call.
void merge_sort(const Config& cfg, size_t n) {
    Dev kin(4 * n), kout(4 * n), vin(4 * n), vout(4 * n);
    generate(kin.as<uint32_t>(), n, Fill::PairKeys, 0, 0x9a15 ^ n);
    generate(vin.as<uint32_t>(), n, Fill::Iota, 0, 0);
    const uint32_t* k = kin.as<uint32_t>();
    const uint32_t* v = vin.as<uint32_t>();
    uint32_t* ko = kout.as<uint32_t>();
    uint32_t* vo = vout.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceMergeSort::SortPairsCopy(tmp, bytes, k, v, ko, vo, int(n), LessU32{});
    });
    emit(cfg, "merge_sort", "pairs_u32", "cub::DeviceMergeSort::SortPairsCopy<u32, u32> (less)",
         "CUB DeviceMergeSort (block merge sort, then merge-path passes; stable)", n, 16ull * n, t,
         t.good && sorted(ko, n, n + 1), "");
}

__global__ void range_levels(uint32_t* levels, int count) {
    // 257 uneven levels over u32: level i = i^2 * 65025 (0 .. 2^32 - 2^17).
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) levels[i] = uint32_t(i) * uint32_t(i) * 65025u;
}

// histogram_range uniform_u32: uniform u32 samples into 256 bins by 257
// uneven levels (range_levels).
void histogram_range(const Config& cfg, size_t n) {
    Dev in(4 * n), levels(4 * 257), bins(256 * sizeof(int));
    generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0x4a9e ^ n);
    range_levels<<<2, 256>>>(levels.as<uint32_t>(), 257);
    const uint32_t* samples = in.as<uint32_t>();
    const uint32_t* l = levels.as<uint32_t>();
    int* h = bins.as<int>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceHistogram::HistogramRange(tmp, bytes, samples, h, 257, l, int(n));
    });
    bool good = t.good;
    if (good) {
        // Every sample below the last level (2^32 - 2^17) is counted.
        const auto host = n <= (1u << 22) ? to_host<uint32_t>(in.p, n) : std::vector<uint32_t>{};
        long long total = 0, want = 0;
        for (int c : to_host<int>(bins.p, 256)) total += c;
        for (uint32_t x : host) want += x < 256u * 256u * 65025u;
        good = host.empty() ? total > 0 : total == want;
    }
    emit(cfg, "histogram_range", "uniform_u32", "cub::DeviceHistogram::HistogramRange (257 uneven levels)",
         "CUB DeviceHistogram (shared-memory privatized, binary search of the levels)", n, 4ull * n, t, good, "");
}

// The device-to-device copy, the ceiling of every memory-bound demo (also
// measured by torch_ref.py; the tables take the faster): 2^10 to 2^33 bytes
// copied, `bytes` counting reads and writes.
void copy(const Config& cfg) {
    for (int log2 = 10; log2 <= 33; ++log2) {
        const size_t bytes = size_t(1) << log2;
        Dev src(bytes), dst(bytes);
        if (!src.p || !dst.p) return;
        generate(src.as<uint32_t>(), bytes / 4, Fill::Uniform, 0, 0xc097 ^ bytes);
        const Timing t = time_calls(cfg, [&] { cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice); });
        emit(cfg, "copy", "d2d", "cudaMemcpyAsync (device to device)", "device-to-device copy", bytes / 4, 2ull * bytes,
             t, true, "n counts 4-byte words copied; bytes counts bytes read plus bytes written");
    }
}

// by_key (demos/src/by_key.rs): keys in runs of 1 to 64, consecutive runs of
// different keys below 2^20 (drawn on the host, the run boundaries being
// sequential; the demo's distribution, not its bits), values any u32.
// Variants: ReduceByKey with +, InclusiveSumByKey, and DeviceSegmentedReduce::Sum
// over segments of 1024 (offsets i * 1024, the end offsets one on).
std::vector<uint32_t> run_keys(size_t n, uint64_t seed) {
    std::vector<uint32_t> keys;
    keys.reserve(n);
    uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1;
    uint32_t key = 0;
    while (keys.size() < n) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const uint32_t w = uint32_t(x >> 32);
        const size_t len = std::min<size_t>(1 + (w >> 26), n - keys.size());
        key = (key + 1 + (w & 0xffffu)) & 0xfffffu;
        keys.insert(keys.end(), len, key);
    }
    return keys;
}

// by_key's segmented rows (demos/src/by_key.rs): DeviceSegmentedReduce::Sum
// over segments of `segment` (one block per segment), and, for
// SegmentedScan, DeviceScan::InclusiveSumByKey over the segment numbers
// (CUB 3.0 has no DeviceSegmentedScan: this is how its users scan
// segments). `values` is `v` on the host where the sizes are checked.
void segmented_sum(const Config& cfg, size_t n, const uint32_t* v, Dev& out,
                   const std::vector<uint32_t>& values, int segment, const char* variant) {
    const int segments = int(n / segment);
    if (segments == 0) return;
    Dev offsets(4 * (size_t(segments) + 1));
    segment_offsets<<<(segments + 256) / 256, 256>>>(offsets.as<int>(), segments, segment);
    ok(cudaGetLastError(), "segment_offsets");
    const int* begin = offsets.as<int>();
    uint32_t* sums = out.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceSegmentedReduce::Sum(tmp, bytes, v, sums, segments, begin, begin + 1);
    });
    bool good = true;
    if (!values.empty() && t.good) {
        const auto got = to_host<uint32_t>(out.p, size_t(segments));
        for (int s = 0; s < segments && good; ++s) {
            uint32_t sum = 0;
            for (int j = 0; j < segment; ++j) sum += values[size_t(s) * segment + j];
            good = got[s] == sum;
        }
    }
    const std::string what = "cub::DeviceSegmentedReduce::Sum (segments of " + std::to_string(segment) + ")";
    emit(cfg, "by_key", variant, what.c_str(), "CUB DeviceSegmentedReduce (one block per segment)", n,
         4ull * (size_t(segments) * segment + segments), t, good, "");
}

__global__ void segment_numbers(uint32_t* keys, size_t n, int segment) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) keys[i] = uint32_t(i / size_t(segment));
}

void segmented_scan(const Config& cfg, size_t n, const uint32_t* v, Dev& out,
                    const std::vector<uint32_t>& values, int segment, const char* variant) {
    const size_t scanned = n / size_t(segment) * size_t(segment);
    if (scanned == 0) return;
    Dev keys(4 * scanned);
    segment_numbers<<<unsigned((scanned + 255) / 256), 256>>>(keys.as<uint32_t>(), scanned, segment);
    ok(cudaGetLastError(), "segment_numbers");
    const uint32_t* k = keys.as<uint32_t>();
    uint32_t* o = out.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::InclusiveSumByKey(tmp, bytes, k, v, o, int(scanned));
    });
    const bool good = values.empty() || !t.good || segmented_sums_hold(out.p, values, scanned, size_t(segment));
    const std::string what =
        "cub::DeviceScan::InclusiveSumByKey over segment numbers (segments of " + std::to_string(segment) + ")";
    emit(cfg, "by_key", variant, what.c_str(), "CUB DeviceScanByKey (no DeviceSegmentedScan in CUB 3.0)", n,
         8ull * scanned, t, good, "");
}

void by_key(const Config& cfg, size_t n) {
    const auto keys = run_keys(n, 0xb1ce ^ n);
    Dev keys_in(4 * n), values_in(4 * n), out(4 * n), unique(4 * n), runs(sizeof(int));
    ok(cudaMemcpy(keys_in.p, keys.data(), 4 * n, cudaMemcpyHostToDevice), "keys to device");
    generate(values_in.as<uint32_t>(), n, Fill::Uniform, 0, 0xba1 ^ n);
    const uint32_t* k = keys_in.as<uint32_t>();
    const uint32_t* v = values_in.as<uint32_t>();
    const bool check = n <= (1u << 22);
    const auto values = check ? to_host<uint32_t>(values_in.p, n) : std::vector<uint32_t>{};

    // ReduceByKey.
    {
        uint32_t* keys_out = unique.as<uint32_t>();
        uint32_t* sums = out.as<uint32_t>();
        int* num_runs = runs.as<int>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceReduce::ReduceByKey(tmp, bytes, k, keys_out, v, sums, num_runs,
                                                  cuda::std::plus<uint32_t>{}, int(n));
        });
        const int got_runs = t.good ? to_host<int>(runs.p, 1)[0] : 0;
        bool good = true;
        if (check && t.good) {
            std::vector<uint32_t> want_keys, want_sums;
            for (size_t i = 0; i < n; ++i) {
                if (i == 0 || keys[i] != keys[i - 1]) want_keys.push_back(keys[i]), want_sums.push_back(0);
                want_sums.back() += values[i];
            }
            good = size_t(got_runs) == want_keys.size() &&
                   to_host<uint32_t>(unique.p, want_keys.size()) == want_keys &&
                   to_host<uint32_t>(out.p, want_sums.size()) == want_sums;
        }
        emit(cfg, "by_key", "reduce_sum_u32", "cub::DeviceReduce::ReduceByKey (+)",
             "CUB DeviceReduceByKey (single pass, decoupled look-back)", n, 8ull * n + 8ull * size_t(got_runs), t, good,
             "");
    }
    // InclusiveSumByKey.
    {
        uint32_t* y = out.as<uint32_t>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceScan::InclusiveSumByKey(tmp, bytes, k, v, y, int(n));
        });
        bool good = true;
        if (check && t.good) {
            const auto got = to_host<uint32_t>(out.p, n);
            uint32_t acc = 0;
            for (size_t i = 0; i < n && good; ++i) {
                if (i == 0 || keys[i] != keys[i - 1]) acc = 0;
                acc += values[i];
                good = got[i] == acc;
            }
        }
        emit(cfg, "by_key", "scan_sum_u32", "cub::DeviceScan::InclusiveSumByKey",
             "CUB DeviceScanByKey (single pass, decoupled look-back)", n, 12ull * n, t, good, "");
    }
    segmented_sum(cfg, n, v, out, values, 1024, "segmented_sum_u32");
    segmented_sum(cfg, n, v, out, values, 65536, "segmented_long_sum_u32");
    segmented_scan(cfg, n, v, out, values, 1024, "segmented_scan_u32");
    segmented_scan(cfg, n, v, out, values, 65536, "segmented_scan_long_u32");
}

// ---- issue 35, first batch (demos/src/first_batch.rs): arg_reduce,
// transform_reduce, adjacent_difference, binary_search, partition, unique ----

// arg_reduce min_f32 / max_f32: UnitF32 (ties from 2^24 on; the first index
// wins in CUB and wavekit alike), the new two-output ArgMin / ArgMax.
void arg_reduce(const Config& cfg, size_t n) {
    Dev in(4 * n), value(4), index(sizeof(int));
    generate(in.as<uint32_t>(), n, Fill::UnitF32, 0, 0xa59 ^ n);
    const bool check = n <= (1u << 22);
    const auto host = check ? to_host<float>(in.p, n) : std::vector<float>{};
    for (const bool max : {false, true}) {
        const float* x = in.as<float>();
        float* v = value.as<float>();
        int* i = index.as<int>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return max ? cub::DeviceReduce::ArgMax(tmp, bytes, x, v, i, int64_t(n))
                       : cub::DeviceReduce::ArgMin(tmp, bytes, x, v, i, int64_t(n));
        });
        bool good = t.good;
        if (check && good) {
            size_t best = 0;
            for (size_t j = 1; j < n; ++j)
                if (max ? host[j] > host[best] : host[j] < host[best]) best = j;
            good = size_t(to_host<int>(index.p, 1)[0]) == best && to_host<float>(value.p, 1)[0] == host[best];
        }
        emit(cfg, "arg_reduce", max ? "max_f32" : "min_f32",
             max ? "cub::DeviceReduce::ArgMax<f32> (value and index outputs)"
                 : "cub::DeviceReduce::ArgMin<f32> (value and index outputs)",
             "CUB DeviceReduce (per-block partials, then one block)", n, 4ull * n, t, good, "");
    }
}

struct Square {
    __host__ __device__ float operator()(float x) const { return x * x; }
};

// transform_reduce square_sum_f32: the sum of x * x over UnitF32.
void transform_reduce(const Config& cfg, size_t n) {
    Dev in(4 * n), out(4);
    generate(in.as<uint32_t>(), n, Fill::UnitF32, 0, 0x75ed ^ n);
    const float* x = in.as<float>();
    float* y = out.as<float>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, x, y, int64_t(n), cuda::std::plus<float>{}, Square{},
                                                  0.0f);
    });
    bool good = t.good;
    if (good && n <= (1u << 22)) {
        double want = 0;
        for (float v : to_host<float>(in.p, n)) want += double(v * v);
        good = std::fabs(to_host<float>(out.p, 1)[0] - want) <= 1e-5 * std::max(1.0, want);
    }
    emit(cfg, "transform_reduce", "square_sum_f32", "cub::DeviceReduce::TransformReduce (plus, x * x)",
         "CUB DeviceReduce (per-block partials, then one block; the map in registers)", n, 4ull * n, t, good, "");
}

// adjacent_difference left_u32: out[i] = in[i] - in[i - 1] (out[0] = in[0])
// of uniform u32, into another buffer.
void adjacent_difference(const Config& cfg, size_t n) {
    Dev in(4 * n), out(4 * n);
    generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0xad1f ^ n);
    const uint32_t* x = in.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp, bytes, x, y, int64_t(n));
    });
    bool good = t.good;
    if (good && n <= (1u << 22)) {
        const auto a = to_host<uint32_t>(in.p, n), b = to_host<uint32_t>(out.p, n);
        for (size_t i = 0; i < n && good; ++i) good = b[i] == (i == 0 ? a[0] : a[i] - a[i - 1]);
    }
    emit(cfg, "adjacent_difference", "left_u32", "cub::DeviceAdjacentDifference::SubtractLeftCopy<u32>",
         "CUB DeviceAdjacentDifference (tiles, each left neighbour loaded beside its tile)", n, 8ull * n, t, good, "");
}

// binary_search lower_u32 / upper_u32: n needles uniform below 2^24 in a
// haystack of 2^20 sorted elements uniform below 2^24 (sorted here, untimed).
// CCCL 13.0 has no cub::DeviceFind, so this is thrust's vectorised
// lower_bound / upper_bound (one search per needle through cuda_cub's
// parallel_for) with par_nosync, timed as the CUB calls are.
void binary_search(const Config& cfg, size_t n) {
    const size_t m = size_t(1) << 20;
    const uint32_t range = 1u << 24;
    Dev unsorted(4 * m), hay(4 * m), needles(4 * n), out(4 * n);
    generate(unsorted.as<uint32_t>(), m, Fill::Below, range, 0x4a75 ^ n);
    generate(needles.as<uint32_t>(), n, Fill::Below, range, 0x9ee1 ^ n);
    {
        const uint32_t* u = unsorted.as<uint32_t>();
        uint32_t* h = hay.as<uint32_t>();
        size_t bytes = 0;
        ok(cub::DeviceRadixSort::SortKeys(nullptr, bytes, u, h, int(m)), "haystack sort size");
        Dev tmp(bytes);
        ok(cub::DeviceRadixSort::SortKeys(tmp.p, bytes, u, h, int(m)), "haystack sort");
        ok(cudaDeviceSynchronize(), "haystack sort");
    }
    const uint32_t* h = hay.as<uint32_t>();
    const uint32_t* k = needles.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    const bool check = n <= (1u << 22);
    const auto host_hay = check ? to_host<uint32_t>(hay.p, m) : std::vector<uint32_t>{};
    const auto host_needles = check ? to_host<uint32_t>(needles.p, n) : std::vector<uint32_t>{};
    for (const bool upper : {false, true}) {
        const Timing t = time_calls(cfg, [&] {
            if (upper)
                thrust::upper_bound(thrust::cuda::par_nosync, h, h + m, k, k + n, y);
            else
                thrust::lower_bound(thrust::cuda::par_nosync, h, h + m, k, k + n, y);
        });
        bool good = t.good;
        if (check && good) {
            const auto got = to_host<uint32_t>(out.p, n);
            for (size_t i = 0; i < n && good; ++i) {
                const auto at = upper ? std::upper_bound(host_hay.begin(), host_hay.end(), host_needles[i])
                                      : std::lower_bound(host_hay.begin(), host_hay.end(), host_needles[i]);
                good = got[i] == uint32_t(at - host_hay.begin());
            }
        }
        emit(cfg, "binary_search", upper ? "upper_u32" : "lower_u32",
             upper ? "thrust::upper_bound (vectorised, par_nosync; haystack 2^20)"
                   : "thrust::lower_bound (vectorised, par_nosync; haystack 2^20)",
             "thrust binary search (one thread a needle, CUB parallel_for)", n, 8ull * n, t, good,
             "thrust, not CUB: CCCL 13.0 has no cub::DeviceFind");
    }
}

// partition half_u32: uniform u32 by x < 2^31 (compact's predicate), the
// selected first in order, the others after them in reverse order.
void partition(const Config& cfg, size_t n) {
    Dev in(4 * n), out(4 * n), count(sizeof(int));
    generate(in.as<uint32_t>(), n, Fill::Uniform, 0, 0x9a27 ^ n);
    const uint32_t* x = in.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    int* selected = count.as<int>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DevicePartition::If(tmp, bytes, x, y, selected, int64_t(n), BelowHalf{});
    });
    bool good = t.good;
    if (good && n <= (1u << 22)) {
        const auto a = to_host<uint32_t>(in.p, n), b = to_host<uint32_t>(out.p, n);
        std::vector<uint32_t> want, rejected;
        for (uint32_t v : a) (v < 0x80000000u ? want : rejected).push_back(v);
        good = size_t(to_host<int>(count.p, 1)[0]) == want.size();
        want.insert(want.end(), rejected.rbegin(), rejected.rend());
        good = good && b == want;
    }
    emit(cfg, "partition", "half_u32", "cub::DevicePartition::If (x < 2^31)",
         "CUB DevicePartition (single pass, decoupled look-back)", n, 8ull * n, t, good, "");
}

// unique runs_u32: by_key's keys (runs of 1 to 64, consecutive runs differ).
void unique(const Config& cfg, size_t n) {
    const auto keys = run_keys(n, 0x0417 ^ n);
    Dev in(4 * n), out(4 * n), count(sizeof(int));
    ok(cudaMemcpy(in.p, keys.data(), 4 * n, cudaMemcpyHostToDevice), "keys to device");
    const uint32_t* x = in.as<uint32_t>();
    uint32_t* y = out.as<uint32_t>();
    int* selected = count.as<int>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, x, y, selected, int64_t(n));
    });
    const int kept = t.good ? to_host<int>(count.p, 1)[0] : 0;
    bool good = t.good;
    if (good && n <= (1u << 22)) {
        std::vector<uint32_t> want(keys);
        want.erase(std::unique(want.begin(), want.end()), want.end());
        good = size_t(kept) == want.size() && to_host<uint32_t>(out.p, want.size()) == want;
    }
    emit(cfg, "unique", "runs_u32", "cub::DeviceSelect::Unique",
         "CUB DeviceSelect (single pass, decoupled look-back)", n, 4ull * (n + size_t(kept)), t, good, "");
}


}  // namespace

int main(int argc, char** argv) {
    Config cfg;
    if (!start(argc, argv, cfg, "cub_ref")) return 2;
    const std::vector<std::pair<const char*, DemoFn>> demos = {
        {"reduce", reduce}, {"scan", scan}, {"compact", compact}, {"histogram", histogram},
        {"radix_sort", radix_sort}, {"contact_sort", contact_sort}, {"segmented_sort", segmented_sort}, {"by_key", by_key},
        {"merge_sort", merge_sort}, {"histogram_range", histogram_range},
        {"arg_reduce", arg_reduce}, {"transform_reduce", transform_reduce},
        {"adjacent_difference", adjacent_difference}, {"binary_search", binary_search},
        {"partition", partition}, {"unique", unique},
    };
    if (wanted(cfg, "copy")) copy(cfg);
    return run_demos(cfg, demos);
}
