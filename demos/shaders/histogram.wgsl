// 256-bin histogram of the low byte of each u32 of `input`.
//
// histogram: dispatch G workgroups (x only); `bins` zeroed first. Each
// workgroup counts into a workgroup-memory histogram, then adds its
// non-zero bins to the global one (at most 256 global atomics per
// workgroup). Rounds are uniform (every thread runs all of them) so that
// subgroup operations see every lane: in round r a thread looks at element
// r*G*BLOCK + wid*BLOCK + t. Subgroup-aggregated atomics: when
// `sg::all_equal<u32>` says the subgroup's lanes share one bin, one elected
// lane adds the subgroup size with a single atomic (runs of equal keys,
// skewed data); otherwise each lane adds 1 to its bin.
// Bindings: 0 input (array<u32>, n), 1 bins (array<atomic<u32>, 256>).
#import wavekit::subgroup as sg

const BLOCK = 256u;
const BINS = 256u;
// The bin of a lane past the end of the input: no bin.
const NO_BIN = 256u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, BINS>;

var<workgroup> local_bins: array<atomic<u32>, BINS>;

@compute @workgroup_size(BLOCK)
fn histogram(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    let rounds = (n + stride - 1u) / stride;
    for (var r = 0u; r < rounds; r++) {
        let i = r * stride + wid.x * BLOCK + t;
        var bin = NO_BIN;
        if i < n {
            bin = input[i] & 0xffu;
        }
        if sg::all_equal<u32>(bin) {
            if sg::elect() && bin != NO_BIN {
                atomicAdd(&local_bins[bin], sg::group_size());
            }
        } else if bin != NO_BIN {
            atomicAdd(&local_bins[bin], 1u);
        }
    }
    workgroupBarrier();
    let mine = atomicLoad(&local_bins[t]);
    if mine != 0u {
        atomicAdd(&bins[t], mine);
    }
}
