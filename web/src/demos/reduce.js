// src/device/shaders/reduce.wgsl: device-wide sum, min and max in two passes
// (per-workgroup partials through blk::reduce_<op>, then one workgroup over
// the partials), for f32 and, with `alias T = u32`, for u32.
import { bars } from '../chart.js';
import { all, equal, randomU32 } from '../check.js';

const BLOCK = 256;
const OPS = ['add', 'min', 'max'];

export default {
  id: 'reduce',
  title: 'Reduce',
  about: 'Sum, min and max of all elements: blk::reduce_<op> per workgroup, then over the partials (f32 and u32).',

  async run(gpu, { n, rand }) {
    n = Math.ceil(n / 4) * 4; // the shader reads vec4s
    const quads = n / 4;
    // A vec4 per thread, up to 1024 workgroups (then each thread folds several).
    const groups = Math.min(Math.ceil(quads / BLOCK), 1024);
    const f32 = Float32Array.from({ length: n }, () => rand());
    const u32 = randomU32(rand, n, 2 ** 32);

    const checks = [];
    let time;
    let partials;
    for (const [shader, input] of [['reduce', f32], ['reduce.u32', u32]]) {
      const program = await gpu.program(shader, OPS.flatMap((op) => [`partial_${op}`, `final_${op}`]));
      const Type = input.constructor;
      // arrayLength(&partials) is the number of workgroups: the buffer is exactly that long.
      const buffers = [gpu.storage(input, 'input'), gpu.storage(groups * 4, 'partials'), gpu.storage(4, 'result')];
      const bindGroup = gpu.bind(program, buffers);
      for (const op of OPS) {
        const steps = [
          { pipeline: program.pipelines[`partial_${op}`], bindGroup, workgroups: [groups] },
          { pipeline: program.pipelines[`final_${op}`], bindGroup, workgroups: [1] },
        ];
        const t = await gpu.time(steps);
        const [got] = await gpu.read(buffers[2], Type);
        checks.push(check(shader, op, got, input));
        if (shader === 'reduce' && op === 'add') {
          time = t;
          partials = await gpu.read(buffers[1], Type);
        }
      }
    }
    const shown = Math.min(groups, 64);
    return {
      ...all(...checks),
      time,
      chart: bars(partials.slice(0, shown), {
        caption: `f32 sum: the first ${shown} of ${groups} workgroup partials; ticks: JavaScript reference`,
        reference: referencePartials(f32, groups).slice(0, shown),
      }),
    };
  },
};

// The GPU's result against the exact one: float sums within the error any
// order of additions allows, (n - 1) ulp-sized steps of the sum of |x|;
// everything else exactly.
function check(shader, op, got, input) {
  const dtype = shader === 'reduce' ? 'f32' : 'u32';
  const want = reference(op, input);
  if (op === 'add' && dtype === 'f32') {
    let magnitude = 0;
    for (const x of input) magnitude += Math.abs(x);
    const bound = (input.length - 1) * 2 ** -24 * magnitude;
    const error = Math.abs(got - want);
    return {
      ok: error <= bound,
      detail: `f32 sum = ${got.toPrecision(8)} (exact ${want.toPrecision(8)}, error ${error.toExponential(1)} ≤ ${bound.toExponential(1)})`,
    };
  }
  return equal(`${dtype} ${op}`, got, want, dtype === 'f32' ? (x) => x.toPrecision(9) : String);
}

// Exact for f32 (float64's rounding is far below the f32 bound), modulo 2^32
// for u32.
function reference(op, input) {
  if (op === 'min') return input.reduce((a, b) => Math.min(a, b));
  if (op === 'max') return input.reduce((a, b) => Math.max(a, b));
  if (input instanceof Uint32Array) return input.reduce((a, b) => (a + b) >>> 0, 0);
  return input.reduce((a, b) => a + b, 0);
}

// Workgroup g of partial_add folds the vec4s i with floor(i / BLOCK) % groups == g.
function referencePartials(input, groups) {
  const sums = new Float64Array(groups);
  for (let i = 0; i < input.length; i++) sums[Math.floor(i / 4 / BLOCK) % groups] += input[i];
  return sums;
}
