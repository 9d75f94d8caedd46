// src/device/shaders/radix_onesweep.wgsl (wavekit::device::RadixSort's
// OneSweep sort, u32 keys alone): an LSD radix sort in 4 passes of 8 bits.
// `histogram` reads the keys once for all four passes' digit counts (and
// zeroes the look-back's tile state and tile counters), `digit_offsets`
// turns them into where each digit starts, then one `onesweep` dispatch per
// pass (one module for all: a pass's number is the length of its pass_info
// binding, p + 1 words) ranks a tile
// with sg::ballot per digit bit, finds its digits' output offsets by
// decoupled look-back with decoupled fallback over the earlier tiles'
// per-digit counts, and scatters; the passes ping-pong between two buffers.
// No workgroup waits on another being scheduled, which WebGPU does not
// promise.
import { lines, sample } from '../chart.js';
import { compare } from '../check.js';
import { grid } from '../gpu.js';

const RADIX = 256;
const PASSES = 4;
// Keys per thread: build.sh's (and the library's) 8.
const ITEMS = 8;
// Threads per workgroup of the shapes build.sh emits
// (radix_onesweep.blockB), largest first.
const BLOCKS = [256, 128];
// Counter rows of the native modules (build.sh: BLOCK / the smallest
// subgroup size they are emitted for); emulated: BLOCK / S.
const NATIVE_ROWS = 32;
// The most histogram workgroups (the library's MAX_HISTOGRAM_GROUPS).
const MAX_HISTOGRAM_GROUPS = 1024;

export default {
  id: 'radix_sort',
  title: 'Radix sort',
  about: 'u32 keys, OneSweep: one histogram read, then per 8-bit pass sg::ballot ranks, decoupled look-back (and fallback) over per-digit tile counts, and a scatter.',

  async run(gpu, { n, rand }) {
    const block = shape(gpu);
    const tile = block * ITEMS;
    const tiles = Math.max(Math.ceil(n / tile), 1);
    const input = keys(rand, n);
    const program = await gpu.program(`radix_onesweep.block${block}`, ['histogram', 'digit_offsets', 'onesweep']);
    const source = gpu.storage(input, 'keys');
    const ping = gpu.storage(n * 4, 'keys_ping');
    const pong = gpu.storage(n * 4, 'keys_pong');
    const digits = gpu.storage(PASSES * RADIX * 4, 'digits');
    const tileState = gpu.storage(tiles * RADIX * 4, 'tile_state');
    const tileCounter = gpu.storage(PASSES * 4, 'tile_counter');
    // Keys alone (PAIRS = false): the values' bindings take any 4-byte buffers.
    const valuesIn = gpu.storage(4, 'values_in');
    const valuesOut = gpu.storage(4, 'values_out');
    // Pass p's pass_info: p + 1 words, never read.
    const passInfo = Array.from({ length: PASSES }, (_, pass) => gpu.storage(4 * (pass + 1), `pass_info${pass}`));
    // Pass p reads what pass p - 1 wrote: source → ping → pong → ping → pong.
    const from = [source, ping, pong, ping];
    const to = [ping, pong, ping, pong];
    const bindGroups = passInfo.map((info, pass) =>
      gpu.bind(program, [from[pass], to[pass], valuesIn, valuesOut, digits, tileState, tileCounter, info]),
    );
    const { histogram, digit_offsets, onesweep } = program.pipelines;
    const steps = [
      { pipeline: histogram, bindGroup: bindGroups[0], workgroups: [Math.min(tiles, MAX_HISTOGRAM_GROUPS)] },
      { pipeline: digit_offsets, bindGroup: bindGroups[0], workgroups: [1] },
      ...bindGroups.map((bindGroup) => ({ pipeline: onesweep, bindGroup, workgroups: grid(tiles) })),
    ];
    const time = await gpu.time(steps, {
      // The histogram adds to `digits`: every run starts from zero (it
      // zeroes the tile state and counters itself).
      prologue: (encoder) => encoder.clearBuffer(digits),
    });
    const got = (await gpu.read(to[PASSES - 1], Uint32Array)).subarray(0, n);
    const want = input.slice().sort();
    return {
      ...compare(`sorted keys (${tiles} tiles of ${block} × ${ITEMS}, ${PASSES} passes)`, got, want),
      time,
      chart: lines(
        [
          { values: sample(Array.from(got), 160), colour: '#3b82f6' },
          { values: sample(Array.from(want), 160), colour: '#111827', dashed: true },
        ],
        { caption: `sorted keys, every ${Math.max(Math.floor(n / 160), 1)}th; flat runs: repeated keys; dashed: JavaScript reference` },
      ),
    };
  },
};

// The threads per workgroup: the largest shape whose modules were emitted
// for the adapter's subgroup sizes and whose workgroup memory (the
// library's Shape::workgroup_bytes: counter rows, the staged tile, the
// per-digit arrays) the device holds.
function shape(gpu) {
  const limit = gpu.device.limits.maxComputeWorkgroupStorageSize;
  for (const block of BLOCKS) {
    if (!gpu.fits(`radix_onesweep.block${block}`)) continue;
    const rows = gpu.emulated ? block / gpu.subgroupMinSize : NATIVE_ROWS;
    const bytes = 4 * (rows * 128 + block * ITEMS + 3 * RADIX + 2 * rows + 1);
    if (bytes <= limit) return block;
  }
  throw new Error(`no radix_onesweep modules fit this adapter’s subgroup sizes and ${limit} bytes of workgroup memory`);
}

// Keys of two kinds, so that every pass sees uneven digit counts: three in
// four uniform over all 32 bits, the rest drawn from 24 values that repeat
// (equal keys, and heavy digits in every pass).
function keys(rand, n) {
  const common = Array.from({ length: 24 }, () => Math.floor(rand() * 2 ** 32));
  return Uint32Array.from({ length: n }, () =>
    rand() < 0.75 ? Math.floor(rand() * 2 ** 32) : common[Math.floor(rand() * common.length)],
  );
}
