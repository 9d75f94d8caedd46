// The page: finds an adapter, shows its subgroup size range and whether the
// demos run on its subgroups or on emulated ones (adapters without the
// `subgroups` feature), runs every demo and shows pass/fail, time and a chart
// for each.
//
// URL parameters (the form sets them): log2 (elements = 2^log2, default 16),
// seed (inputs, default 1); and n.ID (any count from 1 to 2^24) gives demo
// ID its own number of elements, such as n.scan=65541 (the browser test's
// sizes of several look-back tiles). window.wavekit holds the state for
// scripts (the browser test waits for window.wavekit.done); each result
// says how many elements its demo ran on.
import { Gpu, requestAdapter, Unsupported } from './gpu.js';
import { random } from './check.js';
import demos from './demos/index.js';

const params = new URLSearchParams(location.search);
const log2 = clamp(Number(params.get('log2') ?? 16), 8, 24);
const seed = Number(params.get('seed') ?? 1) >>> 0;

const state = (window.wavekit = { done: false, status: 'starting', adapter: null, subgroups: null, results: [], error: null });

setUpControls();
run()
  .catch((error) => {
    state.status = error instanceof Unsupported ? error.kind : 'error';
    state.error = String(error.message ?? error);
    showMessage(error instanceof Unsupported ? 'unsupported' : 'error', state.error);
    if (!(error instanceof Unsupported)) console.error(error);
  })
  .finally(() => {
    state.done = true;
    document.body.dataset.done = state.status;
  });

async function run() {
  const adapter = await requestAdapter();
  const { vendor, architecture, description, subgroupMinSize, subgroupMaxSize } = adapter.info;
  state.adapter = { vendor, architecture, description, subgroupMinSize, subgroupMaxSize };
  const name = [vendor, architecture, description].filter(Boolean).join(' · ') || 'unnamed adapter';
  const adapterLine = document.querySelector('#adapter');
  adapterLine.innerHTML = '';
  adapterLine.append(
    field('Adapter', name),
    field('Subgroup size', sizeRange(subgroupMinSize, subgroupMaxSize), 'subgroup-size'),
  );

  const gpu = await Gpu.open(adapter);
  state.subgroups = gpu.emulated ? { mode: 'emulated', size: gpu.subgroupMinSize } : { mode: 'native' };
  adapterLine.append(
    field(
      'Subgroups',
      gpu.emulated
        ? `emulated in workgroup memory, S = ${gpu.subgroupMinSize} (no “subgroups” feature)`
        : 'the adapter’s own (“subgroups” feature)',
      'subgroups',
    ),
  );
  adapterLine.append(field('Timing', gpu.timestamps ? 'GPU timestamp queries' : 'submit → onSubmittedWorkDone'));
  gpu.device.lost.then((info) => info.reason !== 'destroyed' && showMessage('error', `GPU device lost: ${info.message}`));
  state.status = 'running';

  for (const [index, demo] of demos.entries()) {
    const n = elements(demo);
    const card = demoCard(demo, n);
    const result = await runDemo(gpu, demo, { n, rand: random(seed + index) });
    state.results.push({ id: demo.id, n, ok: result.ok, detail: result.detail, ms: result.time?.ms, clock: result.time?.clock });
    fillCard(card, result);
  }
  state.status = state.results.every((r) => r.ok) ? 'pass' : 'fail';
}

// The elements demo `demo` runs on: its n.ID parameter, else 2^log2.
function elements(demo) {
  const n = Number(params.get(`n.${demo.id}`) ?? NaN);
  return Number.isFinite(n) ? Math.min(Math.max(Math.round(n), 1), 2 ** 24) : 2 ** log2;
}

// One demo, with WebGPU validation errors (which WebGPU reports
// asynchronously, not as exceptions) caught and shown as its failure.
async function runDemo(gpu, demo, inputs) {
  const { device } = gpu;
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result;
  let threw = false;
  try {
    result = await demo.run(gpu, inputs);
  } catch (error) {
    console.error(`${demo.id}:`, error);
    result = { ok: false, detail: String(error.message ?? error) };
    threw = true;
  }
  const errors = (await Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()])).filter(Boolean);
  for (const error of errors) console.error(`${demo.id}: WebGPU error: ${error.message}`);
  // A demo that threw has said why already (a shader's compilation error says
  // it more plainly than the validation error that follows it).
  if (errors.length && !threw) {
    result = { ...result, ok: false, detail: errors.map((e) => e.message).join('\n') };
  }
  return result;
}

function demoCard(demo, n) {
  const card = element('article', { class: 'demo', id: `demo-${demo.id}` });
  card.append(
    element('h2', {}, demo.title),
    element('p', { class: 'about' }, demo.about),
    element('p', { class: 'status running' }, `running on ${n.toLocaleString('en')} elements…`),
  );
  document.querySelector('#demos').append(card);
  return card;
}

function fillCard(card, { ok, detail, time, chart }) {
  card.dataset.result = ok ? 'pass' : 'fail';
  const status = card.querySelector('.status');
  status.className = `status ${ok ? 'pass' : 'fail'}`;
  status.textContent = ok ? 'PASS' : 'FAIL';
  if (time) {
    status.append(element('span', { class: 'time', title: time.clock }, ` ${formatMs(time.ms)} (${time.clock})`));
  }
  if (chart) card.append(chart);
  card.append(element('pre', { class: 'detail' }, detail));
}

function showMessage(kind, text) {
  const message = document.querySelector('#message');
  message.hidden = false;
  message.className = kind;
  message.textContent = text;
}

function setUpControls() {
  const select = document.querySelector('#log2');
  for (let l = 12; l <= 22; l += 2) {
    select.append(element('option', { value: l, ...(l === log2 ? { selected: '' } : {}) }, `2^${l} = ${(2 ** l).toLocaleString('en')}`));
  }
  if (![...select.options].some((o) => o.selected)) {
    select.prepend(element('option', { value: log2, selected: '' }, `2^${log2}`));
  }
  document.querySelector('#seed').value = seed;
}

function field(label, value, id) {
  const span = element('span', { class: 'field' }, `${label}: `);
  span.append(element('strong', id ? { id } : {}, value));
  return span;
}

function element(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// adapter.info's subgroup sizes, as one size or a range; browsers without
// subgroups may leave them out.
function sizeRange(min, max) {
  if (min === undefined || max === undefined) return 'not reported';
  return min === max ? `${min}` : `${min} … ${max}`;
}

function formatMs(ms) {
  return ms >= 10 ? `${ms.toFixed(1)} ms` : ms >= 0.1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

function clamp(value, min, max) {
  return Number.isFinite(value) ? Math.min(Math.max(Math.round(value), min), max) : 16;
}
