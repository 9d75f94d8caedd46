// src/device/shaders/compact.wgsl (wavekit::device::SelectIf's shader, with
// its default predicate): stream compaction of the u32s below 2^31, in
// order, in one pass, select_lookback: each workgroup takes the next tile
// from the tile counter, ranks its kept elements by sg::ballot and
// sg::lanemask_lt, publishes its count and finds the kept elements of the
// tiles before it by decoupled look-back with decoupled fallback
// (look_back.wgsl), then scatters. No workgroup waits on another being
// scheduled, which WebGPU does not promise. On emulated subgroups thread 0
// walks back alone (build.sh edits `const WINDOW` to false).
import { bars } from '../chart.js';
import { all, compare, equal } from '../check.js';
import { grid } from '../gpu.js';

// Elements per tile: 256 threads × 16 (the shader's TILE).
const TILE = 4096;
const THRESHOLD = 0x80000000;
// A tile's publication: one word, `state << 30 | count`.
const STATE_PREFIX = 0x80000000;
const STATE_MASK = 0xc0000000;
const COUNT_MASK = 0x3fffffff;

export default {
  id: 'compact',
  title: 'Compaction',
  about: 'Keep the u32s below 2^31, in order: sg::ballot and lane-mask ranks, one pass with decoupled look-back (and fallback) for the tile offsets.',

  async run(gpu, { n, rand }) {
    // The kept fraction drifts along the input (10% to 90%), so tiles differ.
    const input = Uint32Array.from({ length: n }, (_, i) => {
      const keep = rand() < 0.5 + 0.4 * Math.sin((6 * Math.PI * i) / n);
      return (keep ? 0 : THRESHOLD) + Math.floor(rand() * THRESHOLD);
    });
    const tiles = Math.ceil(n / TILE);
    const program = await gpu.program('compact', ['select_lookback']);
    const buffers = [
      gpu.storage(input, 'input'),
      gpu.storage(n * 4, 'output'),
      // The look-back's state: one word per tile.
      gpu.storage(tiles * 4, 'tile_counts'),
      // select_lookback's tile counter, in word 0.
      gpu.storage(4 * 4, 'tile_offsets'),
      gpu.storage(4, 'count'),
    ];
    const bindGroup = gpu.bind(program, buffers);
    const time = await gpu.time([{ pipeline: program.pipelines.select_lookback, bindGroup, workgroups: grid(tiles) }], {
      // The look-back's state and the tile counter start from zero on every run.
      prologue: (encoder) => {
        encoder.clearBuffer(buffers[2]);
        encoder.clearBuffer(buffers[3]);
      },
    });
    const [count] = await gpu.read(buffers[4], Uint32Array);
    const output = await gpu.read(buffers[1], Uint32Array);
    // Each tile ends with its inclusive prefix (kept elements up to its
    // end) tagged PREFIX: its count is the step from the tile before.
    const state = await gpu.read(buffers[2], Uint32Array);
    const prefixes = Array.from(state.subarray(0, tiles), (w) => ((w & STATE_MASK) >>> 0 === STATE_PREFIX ? w & COUNT_MASK : NaN));
    const tileCounts = prefixes.map((p, t) => p - (t ? prefixes[t - 1] : 0));

    const kept = input.filter((x) => x < THRESHOLD);
    const wantCounts = Array.from({ length: tiles }, (_, t) =>
      input.subarray(t * TILE, (t + 1) * TILE).reduce((c, x) => c + (x < THRESHOLD), 0),
    );
    const shown = Math.min(tiles, 64);
    return {
      ...all(
        equal('kept', count, kept.length),
        compare(`compacted elements (${tiles} tiles, one pass)`, output.subarray(0, count), kept),
        compare('tile counts (from the published prefixes)', tileCounts, wantCounts),
      ),
      time,
      // (A tile that did not end with its prefix drawn at 0.)
      chart: bars(tileCounts.slice(0, shown).map((c) => c || 0), {
        caption: `kept elements of the first ${shown} of ${tiles} tiles of ${TILE}; ticks: JavaScript reference`,
        reference: wantCounts.slice(0, shown),
      }),
    };
  },
};
