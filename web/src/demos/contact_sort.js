// src/device/shaders/contact_sort.wgsl: many small key/value sorts, the
// contact-pruning pattern. Each body's segment of 32 contact slots (key: f32
// signed distance, value: u32 contact id; empty slots (+inf, 0xffffffff)) is
// sorted ascending on (key, value) by sg::bitonic_sort_kv_tiled in registers,
// then merged through workgroup memory where a subgroup is narrower than a
// segment.
import { bars } from '../chart.js';
import { all, compare } from '../check.js';
import { grid } from '../gpu.js';

const SEGMENT = 32; // 2^LOG2_SEG, the shader's LOG2_SEG = 5
const BLOCK = 256;
const EMPTY_VALUE = 0xffffffff;

export default {
  id: 'contact_sort',
  title: 'Contact sort',
  about: 'Segments of 32 (distance, id) pairs sorted: sg::bitonic_sort_kv_tiled per subgroup tile, merged across tiles.',

  async run(gpu, { n, rand }) {
    // The tile is the largest the adapter's smallest subgroup holds (up to a
    // whole segment): `make web` emits one file per tile size.
    const variant = [5, 4, 3, 2].map((t) => `contact_sort.tile${t}`).find((name) => gpu.fits(name));
    if (!variant) throw new Error('no contact_sort WGSL fits this adapter’s subgroup sizes');
    const tile = 2 ** Number(variant.at(-1));

    const { keys, values } = contacts(rand, n);
    const program = await gpu.program(variant, ['main']);
    const buffers = [
      gpu.storage(keys, 'keys_in'),
      gpu.storage(values, 'values_in'),
      gpu.storage(n * 4, 'keys_out'),
      gpu.storage(n * 4, 'values_out'),
    ];
    const bindGroup = gpu.bind(program, buffers);
    const time = await gpu.time([{ pipeline: program.pipelines.main, bindGroup, workgroups: grid(Math.ceil(n / BLOCK)) }]);
    const gotKeys = await gpu.read(buffers[2], Float32Array);
    const gotValues = await gpu.read(buffers[3], Uint32Array);
    const want = reference(keys, values);

    // +inf (an empty slot) drawn just above the largest distance.
    const drawn = (k) => Array.from(k.slice(0, 2 * SEGMENT), (x) => (x === Infinity ? 1.25 : x));
    return {
      ...all(
        compare(`keys (tiles of ${tile} lanes)`, gotKeys, want.keys),
        compare('values', gotValues, want.values),
      ),
      time,
      chart: bars(drawn(gotKeys), {
        caption: 'the first two segments’ sorted distances (empty slots at the top); ticks: JavaScript reference',
        groupSize: SEGMENT,
        reference: drawn(want.keys),
      }),
    };
  },
};

// Each segment holds a random number of contacts in random slots, the rest
// empty. Distances are multiples of 1/16 in [-1, 1), so equal keys are common
// and the ids decide their order.
function contacts(rand, n) {
  const keys = new Float32Array(n);
  const values = new Uint32Array(n);
  for (let base = 0; base < n; base += SEGMENT) {
    const fill = rand();
    for (let i = base; i < Math.min(base + SEGMENT, n); i++) {
      const contact = rand() < fill;
      keys[i] = contact ? Math.floor(rand() * 32) / 16 - 1 : Infinity;
      values[i] = contact ? Math.floor(rand() * 2 ** 31) : EMPTY_VALUE;
    }
  }
  return { keys, values };
}

function reference(keys, values) {
  const out = { keys: new Float32Array(keys.length), values: new Uint32Array(values.length) };
  for (let base = 0; base < keys.length; base += SEGMENT) {
    const order = [];
    for (let i = base; i < Math.min(base + SEGMENT, keys.length); i++) order.push(i);
    order.sort((a, b) => (keys[a] !== keys[b] ? (keys[a] < keys[b] ? -1 : 1) : values[a] - values[b]));
    order.forEach((from, k) => {
      out.keys[base + k] = keys[from];
      out.values[base + k] = values[from];
    });
  }
  return out;
}
