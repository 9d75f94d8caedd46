// src/device/shaders/scan.wgsl: device-wide exclusive prefix sum of u32 in
// one pass, scan_lookback: each workgroup takes the next tile from
// tile_counter, scans it, publishes its sum and finds the sum of the tiles
// before it by decoupled look-back with decoupled fallback (look_back.wgsl):
// a predecessor that stays unpublished is summed from its input by the
// waiting workgroup itself, so no workgroup waits on another being
// scheduled, which WebGPU does not promise. On emulated subgroups thread 0
// walks back alone (build.sh edits `const WINDOW` to false).
import { lines, sample } from '../chart.js';
import { all, compare } from '../check.js';
import { grid } from '../gpu.js';

// Elements per tile: 2048 vec4s (the shader's TILE_QUADS).
const TILE = 8192;
// The look-back's publication of a tile's inclusive prefix: 2 words per
// tile, each `state << 30 | 16 bits` (low half, then high half).
const STATE_PREFIX = 0x80000000;
const STATE_MASK = 0xc0000000;

export default {
  id: 'scan',
  title: 'Scan',
  about: 'Exclusive prefix sum of u32: sg::inclusive_add per lane-striped vec4, one pass with decoupled look-back (and fallback) across tiles.',

  async run(gpu, { n, rand }) {
    // Below 256, so the sum of up to 2^24 elements does not wrap: the chart stays readable.
    const input = randomPadded(rand, n);
    // The shader reads vec4s: zeros pad the input to a multiple of 4.
    const padded = input.length;
    const tiles = Math.ceil(padded / TILE);
    const program = await gpu.program('scan', ['scan_lookback']);
    const output = gpu.storage(padded * 4, 'output');
    const tileState = gpu.storage(tiles * 2 * 4, 'tile_state');
    const tileCounter = gpu.storage(4, 'tile_counter');
    const bindGroup = gpu.bind(program, [gpu.storage(input, 'input'), output, tileState, tileCounter]);
    const time = await gpu.time([{ pipeline: program.pipelines.scan_lookback, bindGroup, workgroups: grid(tiles) }], {
      // The look-back's state and the tile counter start from zero on every run.
      prologue: (encoder) => {
        encoder.clearBuffer(tileState);
        encoder.clearBuffer(tileCounter);
      },
    });
    const got = (await gpu.read(output, Uint32Array)).subarray(0, n);
    const state = await gpu.read(tileState, Uint32Array);
    const want = reference(input.subarray(0, n));
    // The prefix less its straight-line trend: a random walk, where a wrong
    // tile offset shows as a step.
    const slope = n > 1 ? want[n - 1] / n : 0;
    const detrend = (values) => sample(values.map((v, i) => v - slope * i), 160);
    return {
      ...all(
        compare(`exclusive prefix sum (${tiles} tiles, one pass)`, got, want),
        compare('tiles’ published inclusive prefixes', published(state, tiles), tilePrefixes(input, tiles)),
      ),
      time,
      chart: lines(
        [
          { values: detrend(Array.from(got)), colour: '#3b82f6' },
          { values: detrend(Array.from(want)), colour: '#111827', dashed: true },
        ],
        { caption: `prefix sum minus its trend, ${tiles} tiles of ${TILE}; dashed: JavaScript reference` },
      ),
    };
  },
};

// n values below 256, then zeros up to a multiple of 4.
function randomPadded(rand, n) {
  const input = new Uint32Array(Math.max(Math.ceil(n / 4) * 4, 4));
  for (let i = 0; i < n; i++) input[i] = Math.floor(rand() * 256);
  return input;
}

// Each tile's publication, once the pass is done: its inclusive prefix,
// tagged PREFIX in both words (NaN where a tile did not end so).
function published(state, tiles) {
  return Array.from({ length: tiles }, (_, t) => {
    const [low, high] = [state[2 * t], state[2 * t + 1]];
    if ((low & STATE_MASK) >>> 0 !== STATE_PREFIX || (high & STATE_MASK) >>> 0 !== STATE_PREFIX) return NaN;
    return ((low & 0xffff) | ((high & 0xffff) << 16)) >>> 0;
  });
}

function tilePrefixes(input, tiles) {
  const prefixes = [];
  let running = 0;
  for (let t = 0; t < tiles; t++) {
    for (const x of input.subarray(t * TILE, (t + 1) * TILE)) running = (running + x) >>> 0;
    prefixes.push(running);
  }
  return prefixes;
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
