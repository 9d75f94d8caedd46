// src/device/shaders/histogram.wgsl (wavekit::device::Histogram's shader,
// with its default bin function): a 256-bin histogram of the low byte of each
// u32, counted in workgroup memory; a subgroup whose lanes share one bin
// (sg::all_equal) adds them with one atomic from an elected lane.
import { bars } from '../chart.js';
import { compare } from '../check.js';

const BLOCK = 256;
const BINS = 256;

export default {
  id: 'histogram',
  title: 'Histogram',
  about: '256 bins of the low byte: workgroup atomics, one per subgroup where sg::all_equal says its lanes share a bin.',

  async run(gpu, { n, rand }) {
    const input = skewed(rand, n);
    // About 4 rounds of BLOCK elements per workgroup.
    const groups = Math.min(Math.max(Math.ceil(n / (BLOCK * 4)), 1), 1024);
    const program = await gpu.program('histogram', ['histogram']);
    const bins = gpu.storage(BINS * 4, 'bins');
    const bindGroup = gpu.bind(program, [gpu.storage(input, 'input'), bins]);
    const time = await gpu.time([{ pipeline: program.pipelines.histogram, bindGroup, workgroups: [groups] }], {
      // The shader adds to `bins`: every run starts from zero.
      prologue: (encoder) => encoder.clearBuffer(bins),
    });
    const got = await gpu.read(bins, Uint32Array);
    const want = new Uint32Array(BINS);
    for (const x of input) want[x & 0xff]++;
    return {
      ...compare('bins', got, want),
      time,
      chart: bars(got, { caption: 'the 256 bins; ticks: JavaScript reference', reference: want }),
    };
  },
};

// Low bytes from a bell-shaped distribution, a third of them in runs of 64
// equal keys (where whole subgroups share a bin), over random high bytes.
function skewed(rand, n) {
  const bell = () => Math.floor((rand() + rand() + rand() + rand()) * 64);
  const input = new Uint32Array(n);
  for (let base = 0; base < n; base += 64) {
    const run = rand() < 1 / 3 ? bell() : -1;
    for (let i = base; i < Math.min(base + 64, n); i++) {
      input[i] = Math.floor(rand() * 2 ** 24) * 256 + (run >= 0 ? run : bell());
    }
  }
  return input;
}
