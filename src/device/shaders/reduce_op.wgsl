// The operators of wavekit::device::Reduce's kernels (appended to
// reduce.wgsl and reduce_final.wgsl, which declare `alias U`): each
// kernel folds under `op`, passed as a literal at every call, so the
// lowerings inline these functions (the native back ends mark every
// function always-inline) and fold the switch.
const ADD = 0u;
const MIN = 1u;
const MAX = 2u;

fn combine4(op: u32, a: vec4<U>, b: vec4<U>) -> vec4<U> {
    switch op {
        case 1u: {
            return min(a, b);
        }
        case 2u: {
            return max(a, b);
        }
        default: {
            return a + b;
        }
    }
}

fn combine(op: u32, a: U, b: U) -> U {
    return combine4(op, vec4<U>(a), vec4<U>(b)).x;
}
