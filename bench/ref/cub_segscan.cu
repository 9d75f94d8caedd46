// CUB's DeviceSegmentedScan for the wavekit by-key demo's SegmentedScan rows
// (demos/src/by_key.rs: segmented_scan_u32, segmented_scan_long_u32), in a
// program of its own: cub/device/device_segmented_scan.cuh is in CCCL's
// main branch only (no release has it: CUDA 13.0's CCCL 3.0 and the
// nvidia-cuda-cccl 13.2.86 wheel lack it), so cub_ref.cu compares the demo
// with DeviceScan::InclusiveSumByKey over segment numbers instead. Built
// here with the pip nvcc wheel against a CCCL main checkout's headers (the
// commit is printed in every line's impl):
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -DCCCL_COMMIT='"<sha>"' \
//     -I CCCL/cub -I CCCL/libcudacxx/include -I CCCL/thrust \
//     -o cub_segscan bench/ref/cub_segscan.cu
//   ./cub_segscan [--log2 10 28] [--warmup 5] [--warmup-ms 200] [--runs 20] [--only by_key]
//
// The harness is cub_ref's (cub_common.cuh): the same timing, command line
// and JSON lines. The input is cub_ref's by-key values (Fill::Uniform, seed
// 0xba1 ^ n), scanned in fixed segments of 1024 and 65536 (cub_ref's
// offsets: begin at `offsets`, end at `offsets + 1`), inclusive sums,
// checked on the host up to 2^22.

#include <cub/device/device_segmented_scan.cuh>

#include "cub_common.cuh"

#include <cstdint>
#include <string>
#include <vector>

#ifndef CCCL_COMMIT
#define CCCL_COMMIT "main"
#endif

namespace {

void segmented_scan(const Config& cfg, size_t n, const uint32_t* v, Dev& out,
                    const std::vector<uint32_t>& values, int segment, const char* variant) {
    const int segments = int(n / size_t(segment));
    if (segments == 0) return;
    Dev offsets(4 * (size_t(segments) + 1));
    segment_offsets<<<(segments + 256) / 256, 256>>>(offsets.as<int>(), segments, segment);
    ok(cudaGetLastError(), "segment_offsets");
    const int* begin = offsets.as<int>();
    const int* end = begin + 1;
    uint32_t* o = out.as<uint32_t>();
    const Timing t = time_cub(cfg, [&](void* tmp, size_t& bytes) {
        return cub::DeviceSegmentedScan::InclusiveSegmentedSum(tmp, bytes, v, o, begin, end, segments);
    });
    const size_t scanned = size_t(segments) * size_t(segment);
    const bool good = values.empty() || !t.good || segmented_sums_hold(out.p, values, scanned, size_t(segment));
    const std::string what = "cub::DeviceSegmentedScan::InclusiveSegmentedSum (segments of " +
                             std::to_string(segment) + ", CCCL main " CCCL_COMMIT ")";
    emit(cfg, "by_key", variant, what.c_str(), "CUB DeviceSegmentedScan (blocks over segments, a tile loop each)", n,
         8ull * scanned, t, good, "");
}

void by_key(const Config& cfg, size_t n) {
    Dev values_in(4 * n), out(4 * n);
    generate(values_in.as<uint32_t>(), n, Fill::Uniform, 0, 0xba1 ^ n);
    const bool check = n <= (1u << 22);
    const auto values = check ? to_host<uint32_t>(values_in.p, n) : std::vector<uint32_t>{};
    const uint32_t* v = values_in.as<uint32_t>();
    segmented_scan(cfg, n, v, out, values, 1024, "segmented_scan_u32");
    segmented_scan(cfg, n, v, out, values, 65536, "segmented_scan_long_u32");
}

}  // namespace

int main(int argc, char** argv) {
    Config cfg;
    if (!start(argc, argv, cfg, "cub_segscan")) return 2;
    return run_demos(cfg, {{"by_key", by_key}});
}
