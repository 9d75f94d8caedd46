// The merge sorts' runs A and B (appended to merge_sort.wgsl and
// segmented_sort.wgsl). They declare `scratch` (the key runs, n = the
// input's length words each, from word 0), `keys_in` and `PAIRS`, and
// `load_run_value` / `store_run_value`: word k = run * n + i of the value
// runs, which each keeps in a binding of its own (so that no binding of a
// sort of 2^28 pairs exceeds 2 GiB + a word per tile or chunk).

/// Run A (0) or B (1): key i, value i (0 without PAIRS).
fn run_key(run: u32, i: u32) -> u32 {
    return scratch[run * arrayLength(&keys_in) + i];
}

fn run_value(run: u32, i: u32) -> u32 {
    if PAIRS {
        return load_run_value(run * arrayLength(&keys_in) + i);
    }
    return 0u;
}

fn store_run(run: u32, i: u32, key: u32, value: u32) {
    scratch[run * arrayLength(&keys_in) + i] = key;
    if PAIRS {
        store_run_value(run * arrayLength(&keys_in) + i, value);
    }
}
