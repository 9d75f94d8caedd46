// src/device/shaders/scan.wgsl: device-wide exclusive prefix sum of u32, by
// reduce-then-scan (tile sums, a scan of them, then each tile scanned from its
// offset). The shader's single-pass look-back is not run here: a workgroup
// waits for earlier ones, which WebGPU does not promise to keep running.
import { lines, sample } from '../chart.js';
import { compare, randomU32 } from '../check.js';
import { grid } from '../gpu.js';

// Elements per tile: 2048 vec4s (the shader's TILE_QUADS).
const TILE = 8192;

export default {
  id: 'scan',
  title: 'Scan',
  about: 'Exclusive prefix sum of u32: sg::inclusive_add per lane-striped vec4, reduce-then-scan across tiles.',

  async run(gpu, { n, rand }) {
    n = Math.ceil(n / 4) * 4; // the shader reads vec4s
    // Below 256, so the sum of up to 2^24 elements does not wrap: the chart stays readable.
    const input = randomU32(rand, n, 256);
    const output = gpu.storage(n * 4, 'output');
    const steps = await scanSteps(gpu, gpu.storage(input, 'input'), output, n);
    const time = await gpu.time(steps);
    const got = await gpu.read(output, Uint32Array);
    const want = reference(input);
    // The prefix less its straight-line trend: a random walk, where a wrong
    // tile offset shows as a step.
    const slope = want[n - 1] / n;
    const detrend = (values) => sample(values.map((v, i) => v - slope * i), 160);
    return {
      ...compare('exclusive prefix sum', got, want),
      time,
      chart: lines(
        [
          { values: detrend(Array.from(got)), colour: '#3b82f6' },
          { values: detrend(Array.from(want)), colour: '#111827', dashed: true },
        ],
        { caption: `prefix sum minus its trend, ${Math.ceil(n / TILE)} tiles of ${TILE}; dashed: JavaScript reference` },
      ),
    };
  },
};

// The steps that scan `input` into `output` (u32 buffers of n elements, n a
// multiple of 4): tile_reduce, scan_tile_sums, tile_scan. Compaction uses it
// for its tile offsets.
export async function scanSteps(gpu, input, output, n) {
  const program = await gpu.program('scan', ['tile_reduce', 'scan_tile_sums', 'tile_scan']);
  const tiles = Math.ceil(n / TILE);
  // Reduce-then-scan keeps one word per tile in tile_state; tile_counter is the look-back's.
  const bindGroup = gpu.bind(program, [input, output, gpu.storage(tiles * 4, 'tile_state'), gpu.storage(4, 'tile_counter')]);
  const { tile_reduce, scan_tile_sums, tile_scan } = program.pipelines;
  return [
    { pipeline: tile_reduce, bindGroup, workgroups: grid(tiles) },
    { pipeline: scan_tile_sums, bindGroup, workgroups: [1] },
    { pipeline: tile_scan, bindGroup, workgroups: grid(tiles) },
  ];
}

function reference(input) {
  const out = new Uint32Array(input.length);
  let running = 0;
  for (let i = 0; i < input.length; i++) {
    out[i] = running;
    running = (running + input[i]) >>> 0;
  }
  return out;
}
