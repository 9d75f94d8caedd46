// src/device/shaders/compact.wgsl (wavekit::device::SelectIf's shader, with
// its default predicate): stream compaction of the u32s below 2^31, in
// order, in its three-pass form: count_tiles counts each tile's kept
// elements, scan.wgsl turns the counts into tile offsets, and scatter places
// each kept element by sg::ballot and sg::lanemask_lt ranks. (The shader's
// single pass, select_lookback, is not run here: a workgroup waits for
// earlier ones, which WebGPU does not promise to keep running.)
import { bars } from '../chart.js';
import { all, compare, equal } from '../check.js';
import { grid } from '../gpu.js';
import { scanSteps } from './scan.js';

// Elements per tile: 256 threads × 16 (the shader's TILE).
const TILE = 4096;
const THRESHOLD = 0x80000000;

export default {
  id: 'compact',
  title: 'Compaction',
  about: 'Keep the u32s below 2^31, in order: sg::ballot and lane-mask ranks, tile offsets from the scan.',

  async run(gpu, { n, rand }) {
    // The kept fraction drifts along the input (10% to 90%), so tiles differ.
    const input = Uint32Array.from({ length: n }, (_, i) => {
      const keep = rand() < 0.5 + 0.4 * Math.sin((6 * Math.PI * i) / n);
      return (keep ? 0 : THRESHOLD) + Math.floor(rand() * THRESHOLD);
    });
    const tiles = Math.ceil(n / TILE);
    // The scan reads the counts as vec4s: a multiple of 4 words.
    const padded = Math.ceil(tiles / 4) * 4;
    const program = await gpu.program('compact', ['count_tiles', 'scatter']);
    const buffers = [
      gpu.storage(input, 'input'),
      gpu.storage(n * 4, 'output'),
      gpu.storage(padded * 4, 'tile_counts'),
      gpu.storage(padded * 4, 'tile_offsets'),
      gpu.storage(4, 'count'),
    ];
    const bindGroup = gpu.bind(program, buffers);
    const steps = [
      { pipeline: program.pipelines.count_tiles, bindGroup, workgroups: grid(tiles) },
      ...(await scanSteps(gpu, buffers[2], buffers[3], padded)),
      { pipeline: program.pipelines.scatter, bindGroup, workgroups: grid(tiles) },
    ];
    const time = await gpu.time(steps);
    const [count] = await gpu.read(buffers[4], Uint32Array);
    const output = await gpu.read(buffers[1], Uint32Array);
    const tileCounts = await gpu.read(buffers[2], Uint32Array);

    const kept = input.filter((x) => x < THRESHOLD);
    const wantCounts = Array.from({ length: tiles }, (_, t) =>
      input.subarray(t * TILE, (t + 1) * TILE).reduce((c, x) => c + (x < THRESHOLD), 0),
    );
    const shown = Math.min(tiles, 64);
    return {
      ...all(
        equal('kept', count, kept.length),
        compare('compacted elements', output.subarray(0, count), kept),
        compare('tile counts', tileCounts, wantCounts),
      ),
      time,
      chart: bars(tileCounts.slice(0, shown), {
        caption: `kept elements of the first ${shown} of ${tiles} tiles of ${TILE}; ticks: JavaScript reference`,
        reference: wantCounts.slice(0, shown),
      }),
    };
  },
};
