// The browser demo in a real browser: Debian's Chromium, headless, with WebGPU
// on SwiftShader (CPU Vulkan, subgroups of 4 lanes), driven by playwright-core.
// Needs `make web` (the WGSL in web/gen/) and /usr/bin/chromium (scripts/setup).
//
//   node --test web/test/        # CHROMIUM=/path/to/chrome picks another browser
//
// Compiles every shader of the manifest (the page's and "compile_only"'s:
// every wavekit::device shader, web/build.sh says how each is composed)
// with every entry point's pipeline, on the adapter's subgroups and on
// emulated ones. Then runs the page twice: on the adapter's subgroups, and
// with the `subgroups` feature withheld, where every demo must pass on
// emulated subgroups. Both
// runs include the single-pass scan and compaction (decoupled look-back with
// decoupled fallback) and the OneSweep radix sort, on sizes of several
// tiles, so that each tile's look-back walks over earlier ones. Keeps a
// screenshot of each in web/artifacts/ (browser-demo.png,
// browser-demo-emulated.png).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const artifacts = path.join(web, 'artifacts');

// Every demo the page must run and pass (the issue's list).
const DEMOS = ['reduce', 'scan', 'compact', 'histogram', 'radix_sort', 'contact_sort', 'normalise'];
// 2^14 elements: large enough for many workgroups, small enough for SwiftShader.
const LOG2 = 14;
// The look-back demos' own sizes (the page's n.ID parameters), none a whole
// number of tiles: the scan's 9 tiles of 8192 (the last with 5 elements, n
// not a multiple of the vec4 the shader reads), the compaction's 9 of 4096,
// the sort's 33 of 128 × 8 keys (SwiftShader's subgroups of 4) or 17 of
// 256 × 8 (emulated, 32 lanes).
const SIZES = { scan: 2 ** 16 + 5, compact: 2 ** 15 + 3, radix_sort: 2 ** 15 + 7 };
const QUERY = `?log2=${LOG2}${Object.entries(SIZES)
  .map(([id, n]) => `&n.${id}=${n}`)
  .join('')}`;
const TIMEOUT_MS = 90_000;

// WebGPU on SwiftShader in headless Chromium; without the networking flags
// Chromium keeps trying hosts this machine cannot reach. playwright's launch()
// gives the browser a fresh, empty user data dir of its own.
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let server;
let browser;
let origin;

before(async () => {
  assert.ok(fs.existsSync(path.join(web, 'gen', 'manifest.json')), 'web/gen/ is missing: run `make web` first');
  server = await serve(0);
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: FLAGS,
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

// Opens the page, waits for it to finish and returns its window.wavekit state
// and everything it logged as an error (printed when a check fails).
async function load(page, query) {
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(`${origin}/${query}`);
  try {
    await page.waitForFunction(() => window.wavekit?.done, null, { timeout: TIMEOUT_MS });
  } catch (error) {
    throw new Error(`the page did not finish in ${TIMEOUT_MS} ms\n${errors.join('\n')}`, { cause: error });
  }
  const state = await page.evaluate(() => window.wavekit);
  return { state, errors: errors.join('\n') };
}

async function screenshot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, name);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${path.relative(process.cwd(), file)}`);
}

// Each demo ran on the elements asked for: SIZES for the look-back demos,
// 2^LOG2 for the others; and the look-back demos in the tiles above, as
// their details say (sortTiles: the sort's, with its shape).
function checkSizes(state, sortTiles) {
  for (const r of state.results) {
    assert.equal(r.n, SIZES[r.id] ?? 2 ** LOG2, `${r.id} runs on the elements the test asks for`);
  }
  const tiles = { scan: '9 tiles', compact: '9 tiles', radix_sort: sortTiles };
  for (const [id, want] of Object.entries(tiles)) {
    const { detail } = state.results.find((r) => r.id === id);
    assert.ok(detail.includes(`(${want}`), `${id} runs on ${want}: ${detail}`);
  }
}

// The gen/ files of manifest entries (`{file}`, or `{sizes: {S: file}}`).
function files(entries) {
  return Object.values(entries).flatMap((e) => (e.file ? [e.file] : Object.values(e.sizes)));
}

// A module the browser must refuse (a barrier under control flow that
// depends on a read of workgroup memory): the check below fails where it
// should.
const REFUSED = `var<workgroup> w: u32;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32) {
    if w == t {
        workgroupBarrier();
    }
}`;

// Compiles each of `list` (gen/ names) and the module REFUSED in the page,
// on a device with the `subgroups` feature or without it (and the adapter's
// limits the demo page raises): the module's compilation messages, and a
// pipeline (layout 'auto') of each entry point, under validation and
// internal error scopes. Returns, for each file, its entry points and
// every error (and REFUSED's as `refused`).
function compileInPage(page, list, subgroups) {
  return page.evaluate(
    async ({ list, subgroups, refused }) => {
      const adapter = await navigator.gpu.requestAdapter();
      const raised = [
        'maxStorageBufferBindingSize',
        'maxStorageBuffersPerShaderStage',
        'maxComputeWorkgroupStorageSize',
        'maxComputeInvocationsPerWorkgroup',
        'maxComputeWorkgroupSizeX',
      ];
      const requiredLimits = Object.fromEntries(raised.map((name) => [name, adapter.limits[name]]));
      const device = await adapter.requestDevice({ requiredFeatures: subgroups ? ['subgroups'] : [], requiredLimits });
      const uncaptured = [];
      device.addEventListener('uncapturederror', (e) => uncaptured.push(e.error.message));
      // Pushed and popped with nothing awaited between: the scopes are the device's stack.
      const scoped = (make) => {
        device.pushErrorScope('internal');
        device.pushErrorScope('validation');
        const made = make();
        const popped = [device.popErrorScope(), device.popErrorScope()];
        return { made, errors: Promise.all(popped).then((es) => es.filter(Boolean).map((e) => e.message)) };
      };
      const compile = async (file, code) => {
        const entries = [...code.matchAll(/@compute\b[^{;]*?\bfn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)].map((m) => m[1]);
        const { made: module, errors: moduleErrors } = scoped(() => device.createShaderModule({ label: file, code }));
        const info = await module.getCompilationInfo();
        const errors = info.messages
          .filter((m) => m.type === 'error')
          .map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`);
        errors.push(...(await moduleErrors));
        for (const entryPoint of entries) {
          const { errors: pipelineErrors } = scoped(() =>
            device.createComputePipeline({ label: `${file}:${entryPoint}`, layout: 'auto', compute: { module, entryPoint } }),
          );
          errors.push(...(await pipelineErrors).map((e) => `${entryPoint}: ${e}`));
        }
        return { file, entries, errors };
      };
      const results = [];
      for (const file of list) {
        const response = await fetch(`/gen/${file}`);
        if (!response.ok) {
          results.push({ file, entries: [], errors: [`not served: ${response.status}`] });
          continue;
        }
        results.push(await compile(file, await response.text()));
      }
      const canary = await compile('refused', refused);
      device.destroy();
      return { results, uncaptured, refused: canary.errors };
    },
    { list, subgroups, refused: REFUSED },
  );
}

test('every shader of the manifest compiles, each entry point a pipeline, native and emulated', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(web, 'gen', 'manifest.json'), 'utf8'));
  const { emulated, compile_only: compileOnly, ...native } = manifest;
  assert.ok(compileOnly, 'the manifest has compile_only (web/build.sh)');
  const names = Object.keys(compileOnly.native);
  assert.ok(names.length > 0, 'compile_only lists shaders');
  assert.deepEqual(Object.keys(compileOnly.emulated), names, 'every compile-only shader has its emulated form');
  const forms = [
    { subgroups: true, list: [...new Set([...files(native), ...files(compileOnly.native)])] },
    { subgroups: false, list: [...new Set([...files(emulated.shaders), ...files(compileOnly.emulated)])] },
  ];
  // A browser of its own, whose Dawn does not zero workgroup memory: the
  // zeroing code the backend compiles into each pipeline made SwiftShader's
  // compile of them all 5x slower (43 s against 9), and WGSL's validation
  // (the uniformity analysis included) and the pipeline's precede it.
  const compiler = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [...FLAGS, '--enable-dawn-features=disable_workgroup_init'],
  });
  try {
    const page = await compiler.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    // Any page of the server: a secure context, with WebGPU.
    await page.goto(`${origin}/gen/manifest.json`);
    const failures = [];
    for (const { subgroups, list } of forms) {
      const started = Date.now();
      const { results, uncaptured, refused } = await compileInPage(page, list, subgroups);
      assert.ok(
        refused.some((e) => e.includes('uniform control flow')),
        `Chromium refuses a barrier under non-uniform control flow: ${refused.join('\n')}`,
      );
      const pipelines = results.reduce((sum, r) => sum + r.entries.length, 0);
      console.log(
        `compiled ${results.length} shaders, ${pipelines} pipelines (${subgroups ? 'subgroups' : 'emulated'}) in ${Date.now() - started} ms`,
      );
      assert.deepEqual(results.map((r) => r.file), list, 'every file was compiled');
      for (const r of results) {
        if (r.entries.length === 0) failures.push(`${r.file}: no entry point found`);
        for (const e of r.errors) failures.push(`${r.file}: ${e}`);
      }
      failures.push(...uncaptured.map((m) => `uncaptured: ${m}`));
    }
    assert.deepEqual(failures, [], `Chromium refuses shaders:\n${failures.join('\n')}`);
    assert.deepEqual(errors, [], 'the page ran without errors');
  } finally {
    await compiler.close();
  }
});

test('every demo passes on SwiftShader at subgroup size 4', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const { state, errors } = await load(page, QUERY);
  await screenshot(page, 'browser-demo.png');

  for (const r of state.results) {
    console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.id.padEnd(13)} n=${String(r.n).padEnd(6)} ${r.ms?.toFixed(3) ?? '-'} ms (${r.clock ?? 'no time'})${r.ok ? '' : `: ${r.detail}`}`);
  }
  const why = `${state.error ?? ''}\n${errors}`;
  assert.equal(state.status, 'pass', `page status ${state.status}${why}`);
  assert.equal(state.adapter.subgroupMinSize, 4, 'SwiftShader reports subgroups of 4');
  assert.equal(state.adapter.subgroupMaxSize, 4, 'SwiftShader reports subgroups of 4');
  assert.equal(await page.textContent('#subgroup-size'), '4', 'the page shows the subgroup size');
  assert.deepEqual(state.subgroups, { mode: 'native' }, 'the adapter has subgroups: no emulation');
  assert.match(await page.textContent('#subgroups'), /the adapter’s own/);
  assert.deepEqual(state.results.map((r) => r.id), DEMOS, 'the page runs every demo');
  checkSizes(state, '33 tiles of 128 × 8');
  for (const r of state.results) {
    assert.ok(r.ok, `${r.id}: ${r.detail}${why}`);
    assert.ok(r.ms > 0, `${r.id} has a time`);
    assert.equal(await page.getAttribute(`#demo-${r.id}`, 'data-result'), 'pass');
    assert.equal(await page.locator(`#demo-${r.id} svg.chart`).count(), 1, `${r.id} has a chart`);
  }
  await page.close();
});

test('without the subgroups feature every demo runs emulated and the page says so', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Hide the feature from the page, as an adapter without subgroups would,
  // and record the features the page asks its device for.
  await page.addInitScript(() => {
    const has = GPUSupportedFeatures.prototype.has;
    GPUSupportedFeatures.prototype.has = function (feature) {
      return feature !== 'subgroups' && has.call(this, feature);
    };
    const requestDevice = GPUAdapter.prototype.requestDevice;
    window.requestedFeatures = [];
    GPUAdapter.prototype.requestDevice = function (descriptor) {
      window.requestedFeatures.push([...(descriptor?.requiredFeatures ?? [])]);
      return requestDevice.call(this, descriptor);
    };
  });
  const { state, errors } = await load(page, QUERY);
  await screenshot(page, 'browser-demo-emulated.png');

  for (const r of state.results) {
    console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.id.padEnd(13)} n=${String(r.n).padEnd(6)} ${r.ms?.toFixed(3) ?? '-'} ms (${r.clock ?? 'no time'}, emulated)${r.ok ? '' : `: ${r.detail}`}`);
  }
  const why = `${state.error ?? ''}\n${errors}`;
  assert.equal(state.status, 'pass', `page status ${state.status}${why}`);
  const requested = await page.evaluate(() => window.requestedFeatures);
  assert.equal(requested.length, 1, 'the page opens one device');
  assert.ok(!requested[0].includes('subgroups'), `the device is requested without subgroups: ${requested[0]}`);
  assert.deepEqual(state.subgroups, { mode: 'emulated', size: 32 }, 'the page runs emulated subgroups of 32');
  assert.match(await page.textContent('#subgroups'), /emulated in workgroup memory, S = 32/, 'the page says so');
  assert.deepEqual(state.results.map((r) => r.id), DEMOS, 'the page runs every demo');
  checkSizes(state, '17 tiles of 256 × 8');
  for (const r of state.results) {
    assert.ok(r.ok, `${r.id}: ${r.detail}${why}`);
    assert.equal(await page.getAttribute(`#demo-${r.id}`, 'data-result'), 'pass');
  }
  await page.close();
});
