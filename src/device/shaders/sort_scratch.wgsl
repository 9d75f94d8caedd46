// The merge sorts' scratch runs (appended to merge_sort.wgsl and
// segmented_sort.wgsl, which declare `scratch`, `keys_in`, `values_in` and
// `PAIRS`, and say where the value runs live: `load_run_value` and
// `store_run_value` of word k = run * n + i): keys A, keys B in `scratch`,
// n = the input's length words each; with PAIRS values A, values B, n words
// each; and the input's values.

/// Run A (0) or B (1) of the scratch: key i, value i.
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

/// Value i of the input (0 without PAIRS).
fn value_in(i: u32) -> u32 {
    if PAIRS {
        return values_in[i];
    }
    return 0u;
}
