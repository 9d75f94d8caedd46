// Device-wide stable merge sort of 32-bit keys by a comparator, alone or
// with u32 values (wavekit::device::MergeSort, as CUB's
// DeviceMergeSort::StableSortKeys / SortPairs), and the stable merge of two
// sorted inputs (wavekit::device::Merge, as CUB's DeviceMerge). The order
// is the caller's `less_than(a, b)`, a strict weak order on T (a pure
// function); keys that neither precedes keep their input order (merges:
// the first input's before the second's). This is segmented_sort.wgsl's
// chunk and merge machinery for one segment, with the comparator in place
// of the encoded (key, value) order; the places of a merge of runs come
// from sort_merge.wgsl (inside_run, partner_run, merge_target).
//
//   sort_chunk (ceil(n / CHUNK) workgroups): each aligned chunk of CHUNK
//     keys sorted in workgroup memory by log2(CHUNK) merge levels (each
//     key binary-searches its place in the partner run: the keys of a
//     lower run count the partner's keys that precede them, those of an
//     upper run the partner's keys they do not precede, so equal keys keep
//     their order; 2 barriers a level). Written to the outputs where n <=
//     CHUNK, else to run A of the scratch.
//   merge_pass (ceil(n / CHUNK) workgroups, 4 keys per thread), pass p =
//     arrayLength(&pass_info) - 1: the runs of width w = CHUNK << p merged
//     pairwise into runs of 2w, from run A (p even) or B (p odd) into the
//     other, or into the outputs once 2w >= n. The host records
//     ceil(log2(n / CHUNK)) passes.
//   merge (ceil((n_a + n_b) / BLOCK) workgroups, x and y): key i of the
//     first input (keys_in, n_a = its length) goes to i plus the second
//     input's keys that precede it, key j of the second (keys_b, n_b =
//     arrayLength(&keys_out) - n_a) to j plus the first's keys it does not
//     precede.
//
// Keys are held as their bits (u32) in workgroup memory and the scratch
// and compared as T.
// Parameters (set by name by the host): T (u32, i32, f32); PAIRS; the
// comparator `less_than` (its default: ascending).
// Bindings: 0 keys_in, 1 values_in (the sort's input or the merge's first
//   input; values any 4 bytes without PAIRS), 2 keys_b, 3 values_b (the
//   merge's second input; any 4 bytes for the sort), 4 keys_out, 5
//   values_out, 6 scratch (the sort's keys A, keys B, then with PAIRS
//   values A, values B, n words each), 7 pass_info (p + 1 words, not read).
//   Inputs are array<u32> (bits), compared through bitcast<T>.
// Append: sort_merge.wgsl (inside_run, partner_run, merge_target), sort_scratch.wgsl
// (run_key, run_value, store_run, value_in).

alias T = u32;
const PAIRS = true;
fn less_than(a: T, b: T) -> bool { return a < b; }

const BLOCK = 256u;
const CHUNK = 1024u;
const PER_THREAD = CHUNK / BLOCK;
// sort_merge.wgsl's register-tile merge is not used here.
const LOG2_TILE = 0u;
const LOG2_SEG = 0u;

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> values_in: array<u32>;
@group(0) @binding(2) var<storage, read> keys_b: array<u32>;
@group(0) @binding(3) var<storage, read> values_b: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read_write> values_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(7) var<storage, read_write> pass_info: array<u32>;

var<workgroup> merge_keys: array<u32, CHUNK>;
var<workgroup> merge_values: array<u32, CHUNK>;

/// Whether key bits `a` go before key bits `b`.
fn before(a: u32, b: u32) -> bool {
    return less_than(bitcast<T>(a), bitcast<T>(b));
}

/// Whether a key `mine` of the lower (`upper` false) or upper run goes
/// after the partner run's key `theirs`: the partner's keys that go before
/// it are counted (stable: the lower run's first among equals).
fn goes_after(theirs: u32, mine: u32, upper: bool) -> bool {
    return select(before(theirs, mine), !before(mine, theirs), upper);
}

fn store_out(i: u32, key: u32, value: u32) {
    keys_out[i] = key;
    if PAIRS {
        values_out[i] = value;
    }
}

@compute @workgroup_size(BLOCK)
fn sort_chunk(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * CHUNK;
    if first >= n {
        return;
    }
    // The chunk's keys, one segment; places past n stay alone.
    let chunk = vec2<u32>(first, min(first + CHUNK, n));
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        var key = 0u;
        var value = 0u;
        if p < n {
            key = keys_in[p];
            value = value_in(p);
        }
        merge_keys[t + BLOCK * k] = key;
        merge_values[t + BLOCK * k] = value;
    }
    workgroupBarrier();
    for (var w = 1u; w < CHUNK; w *= 2u) {
        var dests: array<u32, PER_THREAD>;
        var keys: array<u32, PER_THREAD>;
        var values: array<u32, PER_THREAD>;
        for (var k = 0u; k < PER_THREAD; k++) {
            let p = first + t + BLOCK * k;
            let key = merge_keys[t + BLOCK * k];
            keys[k] = key;
            values[k] = merge_values[t + BLOCK * k];
            if p >= n {
                dests[k] = p - first;
                continue;
            }
            let partner = partner_run(p, chunk, w);
            let upper = ((p / w) & 1u) == 1u;
            var a = partner.x;
            var b = partner.y;
            while a < b {
                let mid = (a + b) / 2u;
                if goes_after(merge_keys[mid - first], key, upper) {
                    a = mid + 1u;
                } else {
                    b = mid;
                }
            }
            dests[k] = merge_target(p, chunk, w, a - partner.x) - first;
        }
        workgroupBarrier();
        for (var k = 0u; k < PER_THREAD; k++) {
            merge_keys[dests[k]] = keys[k];
            merge_values[dests[k]] = values[k];
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        if p < n {
            let key = merge_keys[t + BLOCK * k];
            let value = merge_values[t + BLOCK * k];
            if n <= CHUNK {
                store_out(p, key, value);
            } else {
                store_run(0u, p, key, value);
            }
        }
    }
}

@compute @workgroup_size(BLOCK)
fn merge_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&keys_in);
    let first = (wid.x + wid.y * nwg.x) * CHUNK;
    let w = CHUNK << (arrayLength(&pass_info) - 1u);
    let src = (arrayLength(&pass_info) - 1u) & 1u;
    let all = vec2<u32>(0u, n);
    for (var k = 0u; k < PER_THREAD; k++) {
        let p = first + t + BLOCK * k;
        if p >= n {
            break;
        }
        let key = run_key(src, p);
        let value = run_value(src, p);
        let partner = partner_run(p, all, w);
        let upper = ((p / w) & 1u) == 1u;
        var a = partner.x;
        var b = partner.y;
        while a < b {
            let mid = (a + b) / 2u;
            if goes_after(run_key(src, mid), key, upper) {
                a = mid + 1u;
            } else {
                b = mid;
            }
        }
        let dest = merge_target(p, all, w, a - partner.x);
        if inside_run(all, 2u * w) {
            store_out(dest, key, value);
        } else {
            store_run(1u - src, dest, key, value);
        }
    }
}

@compute @workgroup_size(BLOCK)
fn merge(@builtin(global_invocation_id) gid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * BLOCK;
    let n_a = arrayLength(&keys_in);
    let total = arrayLength(&keys_out);
    let n_b = total - n_a;
    if i >= total {
        return;
    }
    var key = 0u;
    var value = 0u;
    var own = i;
    var upper = false;
    if i < n_a {
        key = keys_in[i];
        value = value_in(i);
    } else {
        own = i - n_a;
        upper = true;
        key = keys_b[own];
        if PAIRS {
            value = values_b[own];
        }
    }
    // The other input's keys that go before this one.
    var a = 0u;
    var b = select(n_b, n_a, upper);
    while a < b {
        let mid = (a + b) / 2u;
        var theirs = 0u;
        if upper {
            theirs = keys_in[mid];
        } else {
            theirs = keys_b[mid];
        }
        if goes_after(theirs, key, upper) {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    store_out(own + a, key, value);
}
