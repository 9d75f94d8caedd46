// demos/shaders/normalise.wgsl: each value divided by its subgroup's sum
// (sg::reduce_all_add) and the workgroup's exclusive prefix sum
// (blk::exclusive_add<u32, 128>).
import { bars } from '../chart.js';
import { all, compare, randomU32 } from '../check.js';

const WORKGROUP = 128;

export default {
  id: 'normalise',
  title: 'Normalise',
  about: 'x / (sum of x over its subgroup), and the workgroup’s exclusive prefix sum.',

  async run(gpu, { n, rand }) {
    n = Math.ceil(n / WORKGROUP) * WORKGROUP;
    // Small integers: every subgroup sum is exact, whatever the order of additions.
    const input = Float32Array.from(randomU32(rand, n, 15), (v) => v + 1);
    const program = await gpu.program('normalise', ['main']);
    const buffers = [gpu.storage(input, 'input'), gpu.storage(n * 4, 'normalised'), gpu.storage(n * 4, 'prefix')];
    const bindGroup = gpu.bind(program, buffers);
    const time = await gpu.time([{ pipeline: program.pipelines.main, bindGroup, workgroups: [n / WORKGROUP] }]);
    const normalised = await gpu.read(buffers[1], Float32Array);
    const prefix = await gpu.read(buffers[2], Uint32Array);

    // The sums depend on the subgroup size, which an adapter may choose per
    // pipeline within its range: the result must match one size in the range.
    let size = 0;
    let sums = { ok: false, detail: 'no subgroup size in range' };
    for (let s = gpu.subgroupMinSize; s <= gpu.subgroupMaxSize && !sums.ok; s *= 2) {
      sums = compare(`x / subgroup sum (size ${s})`, normalised, referenceNormalised(input, s), { tolerance: 1e-6 });
      size = s;
    }
    const check = all(sums, compare('workgroup exclusive prefix', prefix, referencePrefix(input)));
    return {
      ...check,
      time,
      chart: bars(normalised.slice(0, 64), {
        caption: `first 64 outputs; colours alternate per subgroup of ${size}; ticks: JavaScript reference`,
        groupSize: size,
        reference: referenceNormalised(input.slice(0, 64), size),
      }),
    };
  },
};

function referenceNormalised(input, subgroupSize) {
  const out = new Float32Array(input.length);
  for (let base = 0; base < input.length; base += subgroupSize) {
    let sum = 0;
    for (let i = base; i < base + subgroupSize; i++) sum += input[i];
    for (let i = base; i < base + subgroupSize; i++) out[i] = input[i] / sum;
  }
  return out;
}

function referencePrefix(input) {
  const out = new Uint32Array(input.length);
  for (let base = 0; base < input.length; base += WORKGROUP) {
    let running = 0;
    for (let i = base; i < base + WORKGROUP; i++) {
      out[i] = running;
      running += input[i];
    }
  }
  return out;
}
