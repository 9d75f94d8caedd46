// The demos the page runs, in order: one module per demo shader (in
// demos/shaders/ or src/device/shaders/), each with its JavaScript reference.
import normalise from './normalise.js';
import reduce from './reduce.js';
import scan from './scan.js';
import compact from './compact.js';
import histogram from './histogram.js';
import contactSort from './contact_sort.js';
import radixSort from './radix_sort.js';

export default [reduce, scan, compact, histogram, radixSort, contactSort, normalise];
