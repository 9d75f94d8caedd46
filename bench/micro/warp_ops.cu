// CUDA C++ twin of demos/shaders/micro.wgsl: the same dependent chain of one
// warp op per step, written with CUB (cub::WarpReduce, cub::WarpScan) and the
// __shfl_*_sync / __reduce_*_sync intrinsics, timed the way wavekit's CUDA
// back end times a dispatch (events around each launch, launches back to back,
// median after warm-up). Prints one JSON line per op × dtype × implementation
// with the fields `micro` (demos/src/bin/micro.rs) prints.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -o warp_ops bench/micro/warp_ops.cu
//   ./warp_ops --sms 132 [--blocks-per-sm 32] [--trips 128] [--warmup 3] [--runs 20]
//
// Per thread: x = k; for trips times { 8 × (x = op(x) * s + k) }; out[gid] = x.
// s and k are loaded from memory, so nothing folds or hoists; each step needs
// the previous x; the final store keeps the chain live. The float `* s + k`
// is __fmul_rn then __fadd_rn: wavekit's lowering emits mul.rn + add.rn (no
// FMA contraction), and the two loops must cost the same outside the op.
// Shuffle masks and broadcast lanes are the shader's (below 4).

#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kStepsPerTrip = 8;
constexpr unsigned kFull = 0xffffffffu;

// The shader's shuffle_xor masks and broadcast lanes, step by step.
__device__ __forceinline__ int xor_mask(int step) { return step % 3 + 1; }  // 1 2 3 1 2 3 1 2
__device__ __forceinline__ int bcast_lane(int step) { return step & 3; }    // 0 1 2 3 0 1 2 3

__device__ __forceinline__ float combine(float v, float s, float k) {
    return __fadd_rn(__fmul_rn(v, s), k);
}
__device__ __forceinline__ unsigned combine(unsigned v, unsigned s, unsigned k) { return v * s + k; }

// CUB's warp collectives take shared temp storage; the shuffle-based
// specialisations that full 32-lane warps of 4-byte types get do not touch it.
template <class T>
struct Temp {
    typename cub::WarpReduce<T>::TempStorage reduce[kWarps];
    typename cub::WarpScan<T>::TempStorage scan[kWarps];
};

// One implementation of one op: `apply(x, step, temp)` is one step's op.
struct ReduceAddCub {
    static constexpr const char* op = "reduce_add";
    static constexpr const char* impl = "cub::WarpReduce<T>::Sum (result in lane 0)";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>& temp) {
        return cub::WarpReduce<T>(temp.reduce[threadIdx.x / 32]).Sum(x);
    }
};

struct ReduceAddButterfly {
    static constexpr const char* op = "reduce_add";
    static constexpr const char* impl = "__shfl_xor_sync butterfly (result in every lane)";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>&) {
#pragma unroll
        for (int m = 16; m >= 1; m /= 2) x = x + __shfl_xor_sync(kFull, x, m);
        return x;
    }
};

struct ReduceAddRedux {
    static constexpr const char* op = "reduce_add";
    static constexpr const char* impl = "__reduce_add_sync (redux.sync)";
    __device__ __forceinline__ static unsigned apply(unsigned x, int, Temp<unsigned>&) {
        return __reduce_add_sync(kFull, x);
    }
};

struct ReduceMaxCub {
    static constexpr const char* op = "reduce_max";
    static constexpr const char* impl = "cub::WarpReduce<T>::Reduce(cuda::maximum<>) (result in lane 0)";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>& temp) {
        return cub::WarpReduce<T>(temp.reduce[threadIdx.x / 32]).Reduce(x, cuda::maximum<>{});
    }
};

struct ReduceMaxButterfly {
    static constexpr const char* op = "reduce_max";
    static constexpr const char* impl = "__shfl_xor_sync butterfly + max (result in every lane)";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>&) {
#pragma unroll
        for (int m = 16; m >= 1; m /= 2) x = max(x, __shfl_xor_sync(kFull, x, m));
        return x;
    }
};

struct ReduceMaxRedux {
    static constexpr const char* op = "reduce_max";
    static constexpr const char* impl = "__reduce_max_sync (redux.sync)";
    __device__ __forceinline__ static unsigned apply(unsigned x, int, Temp<unsigned>&) {
        return __reduce_max_sync(kFull, x);
    }
};

struct InclusiveAddCub {
    static constexpr const char* op = "inclusive_add";
    static constexpr const char* impl = "cub::WarpScan<T>::InclusiveSum";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>& temp) {
        T y;
        cub::WarpScan<T>(temp.scan[threadIdx.x / 32]).InclusiveSum(x, y);
        return y;
    }
};

struct ExclusiveAddCub {
    static constexpr const char* op = "exclusive_add";
    static constexpr const char* impl = "cub::WarpScan<T>::ExclusiveSum";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int, Temp<T>& temp) {
        T y;
        cub::WarpScan<T>(temp.scan[threadIdx.x / 32]).ExclusiveSum(x, y);
        return y;
    }
};

struct ShuffleXor {
    static constexpr const char* op = "shuffle_xor";
    static constexpr const char* impl = "__shfl_xor_sync";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int step, Temp<T>&) {
        return __shfl_xor_sync(kFull, x, xor_mask(step));
    }
};

struct Broadcast {
    static constexpr const char* op = "broadcast";
    static constexpr const char* impl = "__shfl_sync";
    template <class T>
    __device__ __forceinline__ static T apply(T x, int step, Temp<T>&) {
        return __shfl_sync(kFull, x, bcast_lane(step));
    }
};

template <class T, class Op>
__global__ void __launch_bounds__(kBlock) chain(const T* __restrict__ params,
                                                const unsigned* __restrict__ trips, T* __restrict__ out) {
    __shared__ Temp<T> temp;
    const unsigned gid = blockIdx.x * kBlock + threadIdx.x;
    const T s = params[0];
    const T k = params[1] + T(gid & 31u);
    const unsigned n = trips[0];
    T x = k;
    // A runtime trip count over an 8-step unrolled body, as in the shader;
    // unrolling the trip loop further is left to the compiler, as ptxas
    // decides for wavekit's PTX.
    for (unsigned i = 0; i < n; ++i) {
#pragma unroll
        for (int step = 0; step < kStepsPerTrip; ++step) x = combine(Op::apply(x, step, temp), s, k);
    }
    out[gid] = x;
}

struct Config {
    int sms = 0;  // 0: the device's count
    int blocks_per_sm = 32;
    unsigned trips = 128;
    int warmup = 3;
    int runs = 20;
};

bool ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "FAIL %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

const char* dtype_name(float) { return "f32"; }
const char* dtype_name(unsigned) { return "u32"; }

// Params (s, k) as in micro.rs: f32 s = 1/32 keeps sums of 32 lanes bounded.
void params_of(float* p) { p[0] = 1.0f / 32.0f; p[1] = 1.0f; }
void params_of(unsigned* p) { p[0] = 1u; p[1] = 1u; }

std::string json_escape(const char* s) {
    std::string out;
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') out += '\\';
        out += *s;
    }
    return out;
}

// Times one op × dtype; prints its JSON line. False on any CUDA error.
template <class T, class Op>
bool measure(const Config& cfg, const cudaDeviceProp& prop) {
    const unsigned groups = unsigned(cfg.sms * cfg.blocks_per_sm);
    const unsigned long long threads = 1ull * groups * kBlock;
    T host_params[2];
    params_of(host_params);
    T* params = nullptr;
    unsigned* trips = nullptr;
    T* out = nullptr;
    bool good = ok(cudaMalloc(&params, sizeof host_params), "cudaMalloc params") &&
                ok(cudaMalloc(&trips, sizeof(unsigned)), "cudaMalloc trips") &&
                ok(cudaMalloc(&out, threads * sizeof(T)), "cudaMalloc out") &&
                ok(cudaMemcpy(params, host_params, sizeof host_params, cudaMemcpyHostToDevice), "params") &&
                ok(cudaMemcpy(trips, &cfg.trips, sizeof(unsigned), cudaMemcpyHostToDevice), "trips");
    std::vector<cudaEvent_t> events(2 * cfg.runs);
    for (auto& e : events) good = good && ok(cudaEventCreate(&e), "cudaEventCreate");
    std::vector<float> ms(cfg.runs);
    if (good) {
        for (int i = 0; i < cfg.warmup; ++i) chain<T, Op><<<groups, kBlock>>>(params, trips, out);
        for (int i = 0; i < cfg.runs; ++i) {
            cudaEventRecord(events[2 * i]);
            chain<T, Op><<<groups, kBlock>>>(params, trips, out);
            cudaEventRecord(events[2 * i + 1]);
        }
        good = ok(cudaGetLastError(), "launch") && ok(cudaDeviceSynchronize(), "kernel");
        for (int i = 0; good && i < cfg.runs; ++i)
            good = ok(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]), "elapsed");
    }
    for (auto& e : events)
        if (e) cudaEventDestroy(e);
    cudaFree(params);
    cudaFree(trips);
    cudaFree(out);
    if (!good) {
        std::fprintf(stderr, "FAIL %s %s (%s)\n", Op::op, dtype_name(T{}), Op::impl);
        return false;
    }
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    const double median_ms = n % 2 ? ms[n / 2] : 0.5 * (double(ms[n / 2 - 1]) + ms[n / 2]);
    const unsigned long long steps = 1ull * cfg.trips * kStepsPerTrip;
    const unsigned long long warp_ops = threads / 32 * steps;
    const double rate = double(warp_ops) / (median_ms / 1e3) / cfg.sms;
    std::printf(
        "{\"side\":\"cuda-cpp\",\"backend\":\"cuda\",\"device\":\"%s\",\"op\":\"%s\",\"dtype\":\"%s\","
        "\"impl\":\"%s\",\"subgroup_size\":32,\"threads\":%llu,\"steps_per_thread\":%llu,"
        "\"warp_ops\":%llu,\"ns\":%.1f,\"min_ns\":%.1f,\"runs\":%d,\"sms\":%d,\"ops_per_s_per_sm\":%.6e}\n",
        json_escape(prop.name).c_str(), Op::op, dtype_name(T{}), json_escape(Op::impl).c_str(), threads,
        steps, warp_ops, median_ms * 1e6, double(ms[0]) * 1e6, cfg.runs, cfg.sms, rate);
    std::fflush(stdout);
    std::fprintf(stderr, "ok  %-14s %s  %10.1f us  %8.3f G ops/s/SM  %s\n", Op::op, dtype_name(T{}),
                 median_ms * 1e3, rate / 1e9, Op::impl);
    return true;
}

template <class T>
bool measure_all(const Config& cfg, const cudaDeviceProp& prop) {
    bool good = true;
    good &= measure<T, ReduceAddCub>(cfg, prop);
    good &= measure<T, ReduceAddButterfly>(cfg, prop);
    good &= measure<T, ReduceMaxCub>(cfg, prop);
    good &= measure<T, ReduceMaxButterfly>(cfg, prop);
    good &= measure<T, InclusiveAddCub>(cfg, prop);
    good &= measure<T, ExclusiveAddCub>(cfg, prop);
    good &= measure<T, ShuffleXor>(cfg, prop);
    good &= measure<T, Broadcast>(cfg, prop);
    return good;
}

// redux.sync exists for 32-bit integers only.
bool measure_redux(const Config& cfg, const cudaDeviceProp& prop) {
    bool good = measure<unsigned, ReduceAddRedux>(cfg, prop);
    good &= measure<unsigned, ReduceMaxRedux>(cfg, prop);
    return good;
}

bool parse(int argc, char** argv, Config& cfg) {
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        auto value = [&]() { return std::atoll(argv[++i]); };
        if (!std::strcmp(argv[i], "--sms") && has_value) cfg.sms = int(value());
        else if (!std::strcmp(argv[i], "--blocks-per-sm") && has_value) cfg.blocks_per_sm = int(value());
        else if (!std::strcmp(argv[i], "--trips") && has_value) cfg.trips = unsigned(value());
        else if (!std::strcmp(argv[i], "--warmup") && has_value) cfg.warmup = int(value());
        else if (!std::strcmp(argv[i], "--runs") && has_value) cfg.runs = int(value());
        else {
            std::fprintf(stderr,
                         "usage: warp_ops [--sms N] [--blocks-per-sm N] [--trips N] [--warmup N] [--runs N]\n");
            return false;
        }
    }
    return cfg.blocks_per_sm > 0 && cfg.trips > 0 && cfg.runs > 0 && cfg.warmup >= 0 && cfg.sms >= 0;
}

}  // namespace

int main(int argc, char** argv) {
    Config cfg;
    if (!parse(argc, argv, cfg)) return 2;
    cudaDeviceProp prop;
    if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 2;
    if (cfg.sms == 0) cfg.sms = prop.multiProcessorCount;
    std::fprintf(stderr, "== %s, %d SMs (rates per SM of %d), sm_%d%d\n", prop.name, prop.multiProcessorCount,
                 cfg.sms, prop.major, prop.minor);
    bool good = measure_all<float>(cfg, prop);
    good &= measure_all<unsigned>(cfg, prop);
    good &= measure_redux(cfg, prop);
    return good ? 0 : 1;
}
