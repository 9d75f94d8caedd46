// CUB's DeviceTopK for the wavekit `top_k` demo (demos/src/breadth.rs), in a
// program of its own: cub/device/device_topk.cuh first ships in CCCL 13.2,
// and the device machine's nvcc (CUDA 13.0, CCCL 3.0), which builds
// cub_ref.cu there, lacks it. bench/pack.sh builds this one here, with the
// pip nvcc wheel and the nvidia-cuda-cccl==13.2.86 headers, and packs it as
// `cub_topk`:
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -I CCCL_13_2/nvidia/cu13/include/cccl -o cub_topk bench/ref/cub_topk.cu
//   ./cub_topk [--log2 10 28] [--warmup 5] [--warmup-ms 200] [--runs 20] [--only top_k]
//
// The harness is cub_ref's (cub_common.cuh): the same timing, command line
// and JSON lines, so the tables pair these rows with the demo's.
//
// top_k largest_f32_k64 / largest_f32_k1024: the k largest of n UnitF32 keys
// (uniform in [0, 1) with 24 random bits, as the demo's; the demo draws them
// with ChaCha8 on the host, this with the counter hash on the GPU: the same
// distribution, ties included, not the same bits) with their indices as
// values: cub::DeviceTopK::MaxPairs<f32, u32>. CCCL 13.2 implements only
// non-deterministic, unsorted results (any other requirement fails to
// compile; without requirements the defaults ask for sorted, run-to-run
// deterministic results, which fail too), so this is the call every user
// makes. wavekit's TopK returns them sorted, ties to the lower index.
// Checked at every size on the host: the keys are the n keys' k greatest as
// a multiset, each value an index whose key is the key beside it, no index
// twice.

#include <cub/device/device_topk.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>

#include "cub_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace {

// Whether (keys_out, values_out) is a top-k of `keys` by MaxPairs' contract.
bool top_k_holds(const std::vector<float>& keys, const std::vector<float>& keys_out,
                 const std::vector<uint32_t>& values_out) {
    const size_t k = keys_out.size();
    std::vector<float> want(keys);
    std::nth_element(want.begin(), want.begin() + (k - 1), want.end(), std::greater<float>());
    want.resize(k);
    std::sort(want.begin(), want.end(), std::greater<float>());
    std::vector<float> got(keys_out);
    std::sort(got.begin(), got.end(), std::greater<float>());
    if (std::memcmp(got.data(), want.data(), 4 * k) != 0) return false;
    std::vector<uint32_t> at(values_out);
    std::sort(at.begin(), at.end());
    if (std::adjacent_find(at.begin(), at.end()) != at.end()) return false;
    for (size_t j = 0; j < k; ++j)
        if (values_out[j] >= keys.size() || std::memcmp(&keys[values_out[j]], &keys_out[j], 4) != 0) return false;
    return true;
}

void top_k(const Config& cfg, size_t n) {
    Dev keys_in(4 * n), values_in(4 * n);
    generate(keys_in.as<uint32_t>(), n, Fill::UnitF32, 0, 0x70bc ^ n);
    generate(values_in.as<uint32_t>(), n, Fill::Iota, 0, 0);
    const auto host = to_host<float>(keys_in.p, n);
    const auto requirements = cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                       cuda::execution::output_ordering::unsorted);
    for (const int wanted_k : {64, 1024}) {
        const size_t k = std::min<size_t>(size_t(wanted_k), n);
        Dev keys_out(4 * k), values_out(4 * k);
        const float* ki = keys_in.as<float>();
        const uint32_t* vi = values_in.as<uint32_t>();
        float* ko = keys_out.as<float>();
        uint32_t* vo = values_out.as<uint32_t>();
        const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
            return cub::DeviceTopK::MaxPairs(tmp, bytes, ki, ko, vi, vo, uint32_t(n), uint32_t(k), requirements);
        });
        const bool good =
            t.good && top_k_holds(host, to_host<float>(keys_out.p, k), to_host<uint32_t>(values_out.p, k));
        emit(cfg, "top_k", wanted_k == 64 ? "largest_f32_k64" : "largest_f32_k1024",
             "cub::DeviceTopK::MaxPairs<f32, u32> (determinism not_guaranteed, output unsorted)",
             "CUB DeviceTopK (AIR top-k: 11-bit radix passes, candidates buffered once few enough)", n, 4ull * n,
             t, good,
             "unsorted, unstable: the only results CCCL 13.2 implements (wavekit's TopK sorts them, ties to the "
             "lower index, but in the _unordered variants); inputs of the demo's distribution, drawn on the GPU");
    }
}

}  // namespace

int main(int argc, char** argv) {
    Config cfg;
    if (!start(argc, argv, cfg, "cub_topk")) return 2;
    return run_demos(cfg, {{"top_k", top_k}});
}
