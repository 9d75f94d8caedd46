// The harness that bench/ref/cub_ref.cu and bench/ref/cub_topk.cu share, so
// that both time and report CUB alike: device allocations, the inputs'
// generator (a counter-based hash, the demos' distributions), CUDA-event
// timing behind a spin kernel, the JSON line of each (demo, variant, n), the
// command line and the loop over demos and sizes. cub_ref.cu's header says
// how the timing works. Header-only (an anonymous namespace): each program
// includes it once, after its CUB headers.
#pragma once

#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {
bool g_failed = false;

bool ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "FAIL %s: %s\n", what, cudaGetErrorString(e));
    g_failed = true;
    return false;
}

// A device allocation freed on scope exit.
struct Dev {
    void* p = nullptr;
    explicit Dev(size_t bytes) {
        if (!ok(cudaMalloc(&p, std::max<size_t>(bytes, 1)), "cudaMalloc")) p = nullptr;
    }
    ~Dev() { cudaFree(p); }
    Dev(const Dev&) = delete;
    Dev& operator=(const Dev&) = delete;
    template <class T>
    T* as() const { return static_cast<T*>(p); }
};

// ---- inputs (counter-based hash, so any n is generated in one pass) ----

__device__ __forceinline__ uint32_t hash32(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return uint32_t((x ^ (x >> 31)) >> 16);
}

enum class Fill { Uniform, UnitF32, Skewed, PairKeys, Iota, ContactKeys, ContactValues, Below };

// Distributions of the demos' inputs (demos/src/*.rs):
//   Uniform: any u32 (reduce u32, scan, compact, radix keys, histogram uniform)
//   UnitF32: [0, 1) with 24 random bits (reduce f32, top_k)
//   Skewed: runs of 64 equal keys, 90% of runs key 7 (histogram skewed)
//   PairKeys: n/8 distinct keys scrambled by 0x9e3779b1; Iota: values 0..n (radix pairs)
//   ContactKeys / ContactValues: segments of `param` slots, a random count
//     filled with (distance in [-8, 24) step 1/64, random id), the rest (+inf, ~0u)
//   Below: uniform below `param` (binary_search's haystack and needles)
__global__ void fill(uint32_t* out, size_t n, Fill kind, uint32_t param, uint64_t seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const uint32_t r = hash32(seed ^ (i * 0x632be59bd9b4e019ull));
        uint32_t v = r;
        switch (kind) {
            case Fill::Uniform: break;
            case Fill::UnitF32: v = __float_as_uint(float(r >> 8) / 16777216.0f); break;
            case Fill::Skewed: {
                const uint32_t run = hash32(seed ^ ((i / 64) * 0x2545f4914f6cdd1dull));
                v = run % 10 != 0 ? 7u : hash32(run);
                break;
            }
            case Fill::PairKeys: v = (r % uint32_t(n / 8 > 1 ? n / 8 : 1)) * 0x9e3779b1u; break;
            case Fill::Iota: v = uint32_t(i); break;
            case Fill::Below: v = r % param; break;
            case Fill::ContactKeys:
            case Fill::ContactValues: {
                const uint32_t filled = hash32(seed ^ 0xc0c0 ^ ((i / param) * 0x9e3779b97f4a7c15ull)) % param;
                const bool live = uint32_t(i % param) <= filled;
                if (kind == Fill::ContactKeys)
                    v = live ? __float_as_uint(float(r % 2048) / 64.0f - 8.0f) : 0x7f800000u;
                else
                    v = live ? hash32(r) : 0xffffffffu;
                break;
            }
        }
        out[i] = v;
    }
}

void generate(uint32_t* out, size_t n, Fill kind, uint32_t param, uint64_t seed) {
    fill<<<1024, 256>>>(out, n, kind, param, seed);
    ok(cudaGetLastError(), "fill");
}

template <class T>
std::vector<T> to_host(const void* p, size_t n) {
    std::vector<T> host(n);
    ok(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "to host");
    return host;
}

// offsets[i] = i * length for i <= segments: segments of one length, begin
// offsets at `offsets` and end offsets at `offsets + 1`.
__global__ void segment_offsets(int* offsets, int segments, int length) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= segments) offsets[i] = i * length;
}

// Whether the first `scanned` words at `out` (on the device) are the
// inclusive sums of `values` within fixed segments of `segment`.
bool segmented_sums_hold(const void* out, const std::vector<uint32_t>& values, size_t scanned, size_t segment) {
    const auto got = to_host<uint32_t>(out, scanned);
    uint32_t acc = 0;
    for (size_t i = 0; i < scanned; ++i) {
        if (i % segment == 0) acc = 0;
        acc += values[i];
        if (got[i] != acc) return false;
    }
    return true;
}

// ---- timing ----

__global__ void spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

struct Timing {
    double median_ms = NAN, min_ms = NAN;
    int runs = 0;
    bool good = false;
};

struct Config {
    int lo = 10, hi = 28, warmup = 5, runs = 20, warmup_ms = 200;
    std::string only;
    cudaDeviceProp prop{};
};

Timing time_calls(const Config& cfg, const std::function<void()>& call) {
    Timing t;
    for (int i = 0; i < cfg.warmup; ++i) call();
    if (!ok(cudaDeviceSynchronize(), "warm-up")) return t;
    // Then until --warmup-ms of wall time, as wavekit's demos do: the GPU
    // idled while the host prepared the input, and its clocks are down.
    const auto warm_start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - warm_start < std::chrono::milliseconds(cfg.warmup_ms)) {
        call();
        if (!ok(cudaDeviceSynchronize(), "warm-up")) return t;
    }
    std::vector<cudaEvent_t> events(2 * cfg.runs, nullptr);
    bool good = true;
    for (auto& e : events) good = good && ok(cudaEventCreate(&e), "cudaEventCreate");
    if (good) {
        // ~1 ms at 1.7 GHz plus 50 us a call: longer than enqueueing them.
        spin<<<1, 1>>>(2000000ll + 100000ll * cfg.runs);
        for (int i = 0; i < cfg.runs; ++i) {
            cudaEventRecord(events[2 * i]);
            call();
            cudaEventRecord(events[2 * i + 1]);
        }
        good = ok(cudaGetLastError(), "launch") && ok(cudaDeviceSynchronize(), "timed calls");
    }
    std::vector<float> ms(cfg.runs);
    for (int i = 0; good && i < cfg.runs; ++i)
        good = ok(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]), "elapsed");
    for (auto e : events)
        if (e) cudaEventDestroy(e);
    if (!good) return t;
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (double(ms[n / 2 - 1]) + ms[n / 2]);
    t.min_ms = ms[0];
    t.runs = cfg.runs;
    t.good = true;
    return t;
}

void emit(const Config& cfg, const char* demo, const char* variant, const char* impl, const char* algorithm,
          size_t n, unsigned long long bytes, const Timing& t, bool checked, const std::string& note) {
    if (!t.good) {
        std::fprintf(stderr, "FAIL %s %s n=%zu (%s)\n", demo, variant, n, impl);
        return;
    }
    const double s = t.median_ms / 1e3;
    const char* backend = std::strcmp(demo, "copy") ? "cub" : "copy";
    std::string full_note = note;
    if (!checked) {
        full_note = "CHECK FAILED; " + note;
        g_failed = true;
        std::fprintf(stderr, "FAIL check %s %s n=%zu (%s)\n", demo, variant, n, impl);
    }
    std::printf(
        "{\"demo\":\"%s\",\"variant\":\"%s\",\"backend\":\"%s\",\"impl\":\"%s\",\"device\":\"%s\","
        "\"algorithm\":\"%s\",\"n\":%zu,\"bytes\":%llu,\"timing\":{\"median_ms\":%.6f,\"min_ms\":%.6f,"
        "\"runs\":%d},\"items_per_s\":%.6e,\"gb_per_s\":%.6e,\"note\":\"%s\"}\n",
        demo, variant, backend, impl, cfg.prop.name, algorithm, n, bytes, t.median_ms, t.min_ms, t.runs,
        double(n) / s, double(bytes) / s / 1e9, full_note.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "ok  %-5s %-13s %-14s 2^%-2d %10.4f ms  %8.1f GB/s  %8.3f G items/s  %s\n", backend, demo,
                 variant, int(std::log2(double(n))), t.median_ms, double(bytes) / s / 1e9, double(n) / s / 1e9, impl);
}

// Runs a two-phase CUB call: the size query, one allocation, then the timed calls.
template <class Call>
Timing time_cub(const Config& cfg, Call call) {
    size_t temp_bytes = 0;
    if (!ok(call(nullptr, temp_bytes), "temp size query")) return {};
    Dev temp(temp_bytes);
    if (!temp.p) return {};
    return time_calls(cfg, [&] { call(temp.p, temp_bytes); });
}

bool parse(int argc, char** argv, Config& cfg, const char* program) {
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--log2") && i + 2 < argc) {
            cfg.lo = std::atoi(argv[++i]);
            cfg.hi = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--warmup") && i + 1 < argc) {
            cfg.warmup = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--warmup-ms") && i + 1 < argc) {
            cfg.warmup_ms = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
            cfg.runs = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
            cfg.only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--log2 LO HI] [--warmup N] [--warmup-ms MS] [--runs N] [--only copy,demo,...]\n",
                         program);
            return false;
        }
    }
    return cfg.lo >= 5 && cfg.lo <= cfg.hi && cfg.hi <= 30 && cfg.runs > 0 && cfg.warmup >= 0 && cfg.warmup_ms >= 0;
}

using DemoFn = void (*)(const Config&, size_t);

// Whether --only names `name` (or is empty).
bool wanted(const Config& cfg, const std::string& name) {
    return cfg.only.empty() || ("," + cfg.only + ",").find("," + name + ",") != std::string::npos;
}

// Parses the command line and reads the device: false (usage printed) on a
// bad command line or no device.
bool start(int argc, char** argv, Config& cfg, const char* program) {
    if (!parse(argc, argv, cfg, program)) return false;
    if (!ok(cudaGetDeviceProperties(&cfg.prop, 0), "cudaGetDeviceProperties")) return false;
    std::fprintf(stderr, "== %s, CUB %d.%d.%d\n", cfg.prop.name, CUB_MAJOR_VERSION, CUB_MINOR_VERSION,
                 CUB_SUBMINOR_VERSION);
    return true;
}

// Each wanted demo at 2^lo .. 2^hi; the exit status: 1 if anything failed.
int run_demos(const Config& cfg, const std::vector<std::pair<const char*, DemoFn>>& demos) {
    for (const auto& [name, run] : demos) {
        if (!wanted(cfg, name)) continue;
        for (int log2 = cfg.lo; log2 <= cfg.hi; ++log2) {
            run(cfg, size_t(1) << log2);
            // A sticky error (a faulting kernel) ends the run; others were printed.
            if (cudaPeekAtLastError() != cudaSuccess && !ok(cudaDeviceSynchronize(), name)) return 1;
        }
    }
    return g_failed ? 1 : 0;
}

}  // namespace
