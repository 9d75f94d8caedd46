// Histogram: BINS u32 counts of the elements of `input` by `bin(x)`, added
// to `bins` (wavekit::device::Histogram zeroes them first; the demos'
// `histogram` with the default parameters: 256 bins of the low byte of u32).
//
// Parameters (declared below, set by name by the host): the element type T (u32,
// i32 or f32); BINS; SHARED_BINS (the workgroup histogram's size: BINS for
// `histogram`, or 1 where the bins do not fit workgroup memory and the host
// runs `histogram_global`); the bin function `bin` (the bin of an element:
// a pure function of it; a bin of BINS or more drops the element; the
// default is the low byte). The host's `bin` may bring helper functions of
// its own.
//
// histogram: dispatch G workgroups (x only); `bins` zeroed first. Each
// workgroup counts into a workgroup-memory histogram, then adds its
// non-zero bins to the global one (at most BINS global atomics per
// workgroup). Rounds are uniform (every thread runs all of them) so that
// subgroup operations see every lane: in round r a thread looks at element
// r*G*BLOCK + wid*BLOCK + t. Subgroup-aggregated atomics: when
// `sg::all_equal<u32>` says the subgroup's lanes share one bin, one elected
// lane adds the subgroup size with a single atomic (runs of equal keys,
// skewed data); otherwise each lane adds 1 to its bin.
// histogram_global: the same rounds, adding straight to `bins` (for more
// bins than workgroup memory holds).
// Bindings: 0 input (array<T>, n), 1 bins (array<atomic<u32>>, BINS).
#import wavekit::subgroup as sg

alias T = u32;
const BINS = 256u;
const SHARED_BINS = 256u;
fn bin(x: T) -> u32 { return x & 0xffu; }

const BLOCK = 256u;
// The bin of a lane past the end of the input, or of a dropped element.
const NO_BIN = 0xffffffffu;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

var<workgroup> local_bins: array<atomic<u32>, SHARED_BINS>;

/// The bin of element `i` (NO_BIN past the end or out of range).
fn bin_of(i: u32, n: u32) -> u32 {
    if i >= n {
        return NO_BIN;
    }
    let b = bin(input[i]);
    return select(NO_BIN, b, b < BINS);
}

@compute @workgroup_size(BLOCK)
fn histogram(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    let rounds = (n + stride - 1u) / stride;
    for (var r = 0u; r < rounds; r++) {
        let bin = bin_of(r * stride + wid.x * BLOCK + t, n);
        if sg::all_equal<u32>(bin) {
            if sg::elect() && bin != NO_BIN {
                atomicAdd(&local_bins[bin], sg::group_size());
            }
        } else if bin != NO_BIN {
            atomicAdd(&local_bins[bin], 1u);
        }
    }
    workgroupBarrier();
    for (var b = t; b < BINS; b += BLOCK) {
        let mine = atomicLoad(&local_bins[b]);
        if mine != 0u {
            atomicAdd(&bins[b], mine);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn histogram_global(@builtin(local_invocation_index) t: u32,
                    @builtin(workgroup_id) wid: vec3<u32>,
                    @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * BLOCK;
    let rounds = (n + stride - 1u) / stride;
    for (var r = 0u; r < rounds; r++) {
        let bin = bin_of(r * stride + wid.x * BLOCK + t, n);
        if sg::all_equal<u32>(bin) {
            if sg::elect() && bin != NO_BIN {
                atomicAdd(&bins[bin], sg::group_size());
            }
        } else if bin != NO_BIN {
            atomicAdd(&bins[bin], 1u);
        }
    }
}
