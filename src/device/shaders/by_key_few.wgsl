// The scans and reductions by key (wavekit::device::ScanByKey,
// ReduceByKey) of an input of 1 to 3 elements, where by_key.wgsl's vec4
// views of the keys and values cannot be bound (wgpu needs 16 bytes
// there): one thread visits the elements in order. K, T, INCLUSIVE,
// NON_TRIVIAL, `scan_op` and `scan_identity` as by_key.wgsl's, set by the
// host; its results are by_key.wgsl's (every element is its own tile's).
//
// Entry points (one workgroup of one thread):
// - scan_few: out_values gets the inclusive or exclusive (INCLUSIVE) scan
//   by key, the identity at each head for the exclusive one;
// - reduce_few: each run's first key (with NON_TRIVIAL, its offset) to
//   out_keys[run], its reduction (its length) to out_values[run], and the
//   number of runs to num_runs[0]; with NON_TRIVIAL only runs longer than
//   one count, and every value is 1.
// Bindings: by_key.wgsl's 0 to 4 (keys and values as bits, n words each;
//   out_values, out_keys and num_runs sized as there).
// Bounds: keys, values at i < n; out_values at i < n or a run below n;
//   out_keys at a run below n; num_runs word 0.

alias K = u32;
alias T = u32;
const INCLUSIVE = true;
const NON_TRIVIAL = false;

fn scan_op(a: T, b: T) -> T { return a + b; }
fn scan_identity() -> T { return T(); }

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@group(0) @binding(2) var<storage, read_write> out_values: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_keys: array<K>;
@group(0) @binding(4) var<storage, read_write> num_runs: array<u32>;

fn element_count() -> u32 {
    return arrayLength(&values);
}

/// Whether element `i` (< n) starts a run.
fn head(i: u32) -> bool {
    return i == 0u || bitcast<K>(keys[i]) != bitcast<K>(keys[i - 1u]);
}

/// Value `i`: its bits, or 1 with NON_TRIVIAL.
fn value_at(i: u32) -> T {
    if NON_TRIVIAL {
        return bitcast<T>(1u);
    }
    return bitcast<T>(values[i]);
}

@compute @workgroup_size(1)
fn scan_few() {
    var running = scan_identity();
    for (var i = 0u; i < element_count(); i++) {
        let first = head(i);
        let exclusive = select(running, scan_identity(), first);
        running = select(scan_op(running, value_at(i)), value_at(i), first);
        out_values[i] = bitcast<u32>(select(exclusive, running, INCLUSIVE));
    }
}

@compute @workgroup_size(1)
fn reduce_few() {
    let n = element_count();
    var running = scan_identity();
    var runs = 0u;
    for (var i = 0u; i < n; i++) {
        let first = head(i);
        let last = i + 1u == n || head(i + 1u);
        running = select(scan_op(running, value_at(i)), value_at(i), first);
        // A run of one is no non-trivial run.
        let counted = !(NON_TRIVIAL && first && last);
        if first && counted {
            if NON_TRIVIAL {
                out_keys[runs] = bitcast<K>(i);
            } else {
                out_keys[runs] = bitcast<K>(keys[i]);
            }
            runs += 1u;
        }
        if last && counted {
            out_values[runs - 1u] = bitcast<u32>(running);
        }
    }
    num_runs[0] = runs;
}
