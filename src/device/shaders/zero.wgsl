// Zeroes every word of `words`: a dispatch of ceil(len / 256) workgroups
// (spilling into y), one word per thread. Every clear of wavekit::device on
// wgpu (look-back state, a zero count, histogram bins) is this dispatch in
// the call's compute pass: `clear_buffer` would end the pass, add a
// transfer barrier and need COPY_DST on the caller's buffer.
// Bindings: 0 words (array<u32>).

@group(0) @binding(0) var<storage, read_write> words: array<u32>;

@compute @workgroup_size(256)
fn zero(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 256u;
    if i < arrayLength(&words) {
        words[i] = 0u;
    }
}
