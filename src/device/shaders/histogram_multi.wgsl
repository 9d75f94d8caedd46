// Multi-channel and range histograms (wavekit::device::Histogram::range,
// wavekit::device::MultiHistogram; CUB's DeviceHistogram::HistogramRange,
// MultiHistogramEven and MultiHistogramRange): the input is pixels of
// CHANNELS interleaved samples (`input[p * CHANNELS + c]` is channel c of
// pixel p); the first ACTIVE channels are counted, channel c into bins
// BIN_BASE[c] .. BIN_BASE[c + 1] of `bins` (the channels' histograms one
// after another). The single-channel even and bin-function histograms run
// histogram.wgsl, whose code this file does not change.
//
// Parameters (declared below, set by name by the host): the sample type T
// (u32, i32 or f32); CHANNELS (1..4); ACTIVE (1..CHANNELS); TOTAL_BINS (the
// sum of the channels' bins); BIN_BASE (each channel's first bin, and
// TOTAL_BINS after the last active one); BINS_IN_SHARED (TOTAL_BINS fits
// workgroup memory: counted there first, as histogram.wgsl's `histogram`;
// else straight into `bins`, as its `histogram_global`); SHARED_BINS (the
// workgroup histogram's size, 1 without BINS_IN_SHARED); LEVELS_IN_SHARED
// and SHARED_LEVELS (the range levels copied into workgroup memory first,
// or searched in `levels`); the function `channel_bin(c, x)`: the bin
// within channel c of sample x, NO_BIN (or any bin of the channel's count
// or more) to drop it. The host gives, for even bins, a switch over the
// channels' even bin functions (histogram.rs), and for ranges a call of
// `range_bin`.
//
// range_bin: channel c has BIN_BASE[c + 1] - BIN_BASE[c] = B bins and the
// B + 1 non-decreasing levels at `levels[BIN_BASE[c] + c ..]`; a sample x
// with levels[0] <= x < levels[B] goes to the bin i with levels[i] <= x <
// levels[i + 1] (a binary search: the levels at most x, less one; CUB's
// upper bound), any other (f32 NaN included) is dropped.
//
// histogram_multi: dispatch G workgroups (x only); `bins` zeroed first.
// Rounds are uniform (every thread runs all of them, every channel) so that
// subgroup operations see every lane: in round r a thread takes pixel
// r*G*BLOCK + wid*BLOCK + t, and for each active channel adds its sample's
// bin as histogram.wgsl does (one atomic from an elected lane where the
// subgroup's lanes share one bin).
// Bindings: 0 input (array<T>, pixels * CHANNELS), 1 bins
// (array<atomic<u32>>, TOTAL_BINS), 2 levels (array<T>, TOTAL_BINS +
// ACTIVE; any 4 bytes of the input for even bins, not read).
#import wavekit::subgroup as sg

alias T = u32;
const CHANNELS = 1u;
const ACTIVE = 1u;
const TOTAL_BINS = 256u;
const BIN_BASE = array<u32, 5>(0u, 256u, 256u, 256u, 256u);
const BINS_IN_SHARED = true;
const SHARED_BINS = 256u;
const LEVELS_IN_SHARED = false;
const SHARED_LEVELS = 1u;
fn channel_bin(c: u32, x: T) -> u32 { return x & 0xffu; }

const BLOCK = 256u;
// The bin of a lane past the end of the input, or of a dropped sample.
const NO_BIN = 0xffffffffu;

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> levels: array<T>;

var<workgroup> local_bins: array<atomic<u32>, SHARED_BINS>;
var<workgroup> local_levels: array<T, SHARED_LEVELS>;

/// Level i of all channels' levels.
fn level(i: u32) -> T {
    if LEVELS_IN_SHARED {
        return local_levels[i];
    }
    return levels[i];
}

/// The bin of `x` in channel `c` by its levels (see the header).
fn range_bin(c: u32, x: T) -> u32 {
    var base = BIN_BASE;
    let count = base[c + 1u] - base[c];
    let first = base[c] + c;
    if !(x >= level(first) && x < level(first + count)) {
        return NO_BIN;
    }
    // The levels first + 1 .. first + count at most x.
    var a = 0u;
    var b = count - 1u;
    while a < b {
        let mid = (a + b) / 2u;
        if level(first + 1u + mid) <= x {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    return a;
}

/// The bin (of all channels') of sample `c` of pixel `p` (NO_BIN past the
/// end or dropped).
fn bin_of(p: u32, c: u32, pixels: u32) -> u32 {
    if p >= pixels {
        return NO_BIN;
    }
    var base = BIN_BASE;
    let b = channel_bin(c, input[p * CHANNELS + c]);
    return select(NO_BIN, base[c] + b, b < base[c + 1u] - base[c]);
}

fn add(b: u32, count: u32) {
    if BINS_IN_SHARED {
        atomicAdd(&local_bins[b], count);
    } else {
        atomicAdd(&bins[b], count);
    }
}

@compute @workgroup_size(BLOCK)
fn histogram_multi(@builtin(local_invocation_index) t: u32,
                   @builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(num_workgroups) nwg: vec3<u32>) {
    if LEVELS_IN_SHARED {
        for (var i = t; i < TOTAL_BINS + ACTIVE; i += BLOCK) {
            local_levels[i] = levels[i];
        }
        workgroupBarrier();
    }
    let pixels = arrayLength(&input) / CHANNELS;
    let stride = nwg.x * BLOCK;
    let rounds = (pixels + stride - 1u) / stride;
    for (var r = 0u; r < rounds; r++) {
        let p = r * stride + wid.x * BLOCK + t;
        for (var c = 0u; c < ACTIVE; c++) {
            let bin = bin_of(p, c, pixels);
            if sg::all_equal<u32>(bin) {
                if sg::elect() && bin != NO_BIN {
                    add(bin, sg::group_size());
                }
            } else if bin != NO_BIN {
                add(bin, 1u);
            }
        }
    }
    if BINS_IN_SHARED {
        workgroupBarrier();
        for (var b = t; b < TOTAL_BINS; b += BLOCK) {
            let mine = atomicLoad(&local_bins[b]);
            if mine != 0u {
                atomicAdd(&bins[b], mine);
            }
        }
    }
}
