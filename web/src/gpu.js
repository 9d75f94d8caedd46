// The WebGPU plumbing every demo shares: the device, the emitted WGSL (from
// gen/, written by `make web`), buffers, bind groups and timed dispatches.
// On an adapter without the `subgroups` feature the device is opened without
// it and the shaders are the emulated ones (subgroups of the manifest's
// emulated size, exchanged through workgroup memory).

// Adapter limits worth raising to the adapter's own: the demos' larger sizes
// need big storage buffers, and some shaders bind many of them.
const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
];

// Why the page cannot run the demos, said to the person reading it.
export class Unsupported extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

// The browser's adapter, or Unsupported saying what is missing.
export async function requestAdapter() {
  if (!navigator.gpu) {
    throw new Unsupported('no-webgpu', 'This browser has no WebGPU (navigator.gpu is missing).');
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    throw new Unsupported('no-adapter', 'WebGPU is there, but the browser offers no adapter.');
  }
  return adapter;
}

export class Gpu {
  // Opens a device with `subgroups` where the adapter has it, else without it
  // and with the emulated shaders (and with timestamp queries and f16 where
  // the adapter has them), and loads gen/manifest.json.
  static async open(adapter) {
    const emulated = !adapter.features.has('subgroups');
    const optional = ['timestamp-query', 'shader-f16'].filter((f) => adapter.features.has(f));
    const requiredLimits = {};
    for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
    const device = await adapter.requestDevice({
      requiredFeatures: emulated ? optional : ['subgroups', ...optional],
      requiredLimits,
    });
    const response = await fetch('gen/manifest.json');
    if (!response.ok) {
      throw new Error('gen/manifest.json is missing: run `make web` to emit the WGSL.');
    }
    const manifest = await response.json();
    if (emulated && !manifest.emulated) {
      throw new Error('gen/manifest.json lists no emulated shaders: run `make web` to emit them.');
    }
    return new Gpu(adapter, device, manifest, emulated);
  }

  // `emulated`: the shaders are manifest.emulated's, whose subgroup size is
  // the one the demos see; else the adapter's own, in its reported range.
  constructor(adapter, device, manifest, emulated = false) {
    this.adapter = adapter;
    this.device = device;
    this.emulated = emulated;
    if (emulated) {
      this.manifest = manifest.emulated.shaders;
      this.subgroupMinSize = this.subgroupMaxSize = manifest.emulated.subgroupSize;
    } else {
      // compile_only: shaders the browser test compiles, no demo of the page's.
      const { emulated: _, compile_only: __, ...shaders } = manifest;
      this.manifest = shaders;
      this.subgroupMinSize = adapter.info.subgroupMinSize;
      this.subgroupMaxSize = adapter.info.subgroupMaxSize;
    }
    this.timestamps = device.features.has('timestamp-query');
    this.programs = new Map();
    if (this.timestamps) {
      this.querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
      this.queryResolve = device.createBuffer({
        size: 16,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
      this.queryRead = device.createBuffer({
        size: 16,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
    }
  }

  // Whether the emitted WGSL `name` was composed for this adapter's subgroup
  // sizes (the emulated size with emulated subgroups) (a shader with subgroup tiles is emitted per tile size, each for the
  // sizes that hold its tile).
  fits(name) {
    const entry = this.manifest[name];
    if (!entry) return false;
    const [min, max] = entry.range;
    return min <= this.subgroupMinSize && this.subgroupMaxSize <= max;
  }

  // The emitted WGSL file for `name`: the one for its whole subgroup range,
  // or, for a shader emitted per fixed size, the one for the adapter's size.
  wgslFile(name) {
    const entry = this.manifest[name];
    if (!entry) {
      throw new Error(`no WGSL for ${name}: \`make web\` did not emit it (is its shader in demos/shaders/?)`);
    }
    const [min, max] = [this.subgroupMinSize, this.subgroupMaxSize];
    if (!this.fits(name)) {
      throw new Error(`${name} was emitted for subgroup sizes ${entry.range.join('..')}, and this adapter's are ${min}..${max}`);
    }
    if (entry.file) return entry.file;
    if (min !== max) {
      throw new Error(`${name} is emitted per fixed subgroup size, and this adapter's size is only known to lie in ${min}..${max}`);
    }
    return entry.sizes[min];
  }

  // A compiled program: the shader module, one bind group layout built from the
  // shader's own @binding declarations (so every entry point of the shader
  // shares one bind group, whichever bindings it uses) and a pipeline per entry.
  // Kept by name and entry points: asked for again (by any demo), a program is not compiled again.
  async program(name, entryPoints) {
    const key = `${name}:${entryPoints.join(',')}`;
    if (!this.programs.has(key)) this.programs.set(key, this.compile(name, entryPoints));
    return this.programs.get(key);
  }

  async compile(name, entryPoints) {
    const file = this.wgslFile(name);
    const response = await fetch(`gen/${file}`);
    if (!response.ok) throw new Error(`gen/${file}: HTTP ${response.status}`);
    const code = await response.text();
    const module = this.device.createShaderModule({ label: file, code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length) {
      throw new Error(errors.map((m) => `gen/${file}:${m.lineNum}:${m.linePos}: ${m.message}`).join('\n'));
    }
    const layout = this.device.createBindGroupLayout({ label: file, entries: bindingsOf(code) });
    const pipelineLayout = this.device.createPipelineLayout({ bindGroupLayouts: [layout] });
    // Compiled side by side: on a CPU adapter (SwiftShader) compiling is most of a demo's time.
    const compiled = await Promise.all(
      entryPoints.map((entryPoint) =>
        this.device.createComputePipelineAsync({ label: `${file}:${entryPoint}`, layout: pipelineLayout, compute: { module, entryPoint } }),
      ),
    );
    const pipelines = Object.fromEntries(entryPoints.map((entryPoint, i) => [entryPoint, compiled[i]]));
    return { file, layout, pipelines };
  }

  // A storage buffer holding `data` (a typed array), or `data` zeroed bytes.
  storage(data, label) {
    const size = typeof data === 'number' ? data : data.byteLength;
    const buffer = this.device.createBuffer({
      label,
      size: Math.max(4, Math.ceil(size / 4) * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    if (typeof data !== 'number') this.device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  }

  // The bind group of a program: buffers[i] at @binding(i).
  bind(program, buffers) {
    return this.device.createBindGroup({
      layout: program.layout,
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  // Runs the steps ({pipeline, bindGroup, workgroups: [x, y, z]}) in one
  // compute pass, once to warm up and then `repeats` times, and returns the
  // median time in ms and which clock measured it: the GPU's timestamps where
  // the adapter has them, else the wall time from submit to onSubmittedWorkDone.
  // `prologue(encoder)` runs before each pass, outside the timed span: steps
  // that change their input (an in-place sort) restore it there.
  async time(steps, { repeats = 3, prologue } = {}) {
    const gpuTimes = [];
    const wallTimes = [];
    for (let run = 0; run <= repeats; run++) {
      const encoder = this.device.createCommandEncoder();
      prologue?.(encoder);
      const pass = encoder.beginComputePass(
        this.timestamps
          ? { timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } }
          : {},
      );
      for (const { pipeline, bindGroup, workgroups } of steps) {
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(...workgroups);
      }
      pass.end();
      if (this.timestamps) {
        encoder.resolveQuerySet(this.querySet, 0, 2, this.queryResolve, 0);
        encoder.copyBufferToBuffer(this.queryResolve, 0, this.queryRead, 0, 16);
      }
      const start = performance.now();
      this.device.queue.submit([encoder.finish()]);
      await this.device.queue.onSubmittedWorkDone();
      const wall = performance.now() - start;
      let gpu = NaN;
      if (this.timestamps) {
        await this.queryRead.mapAsync(GPUMapMode.READ);
        const [begin, end] = new BigUint64Array(this.queryRead.getMappedRange());
        gpu = Number(end - begin) / 1e6;
        this.queryRead.unmap();
      }
      if (run > 0) {
        gpuTimes.push(gpu);
        wallTimes.push(wall);
      }
    }
    // Browsers may quantise timestamps; a span that reads 0 says nothing.
    const gpu = median(gpuTimes);
    return gpu > 0
      ? { ms: gpu, clock: 'GPU timestamps', wallMs: median(wallTimes) }
      : { ms: median(wallTimes), clock: 'submit → done', wallMs: median(wallTimes) };
  }

  // The contents of a buffer as a typed array of the given type.
  async read(buffer, ArrayType) {
    const staging = this.device.createBuffer({
      size: buffer.size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = new ArrayType(staging.getMappedRange().slice(0));
    staging.destroy();
    return copy;
  }
}

// The bind group layout entries of a WGSL module's group-0 buffer bindings,
// read from its declarations (`@group(0) @binding(i) var<storage, read_write>`).
function bindingsOf(code) {
  const declaration = /@group\(\s*0\s*\)\s*@binding\(\s*(\d+)\s*\)\s*var<\s*(\w+)\s*(?:,\s*(\w+)\s*)?>/g;
  const entries = [];
  for (const [, binding, space, access] of code.matchAll(declaration)) {
    const type =
      space === 'uniform' ? 'uniform' : access === 'read_write' ? 'storage' : 'read-only-storage';
    entries.push({ binding: Number(binding), visibility: GPUShaderStage.COMPUTE, buffer: { type } });
  }
  return entries;
}

// Workgroup counts for `count` workgroups, spilling into y past the 65535
// a dimension may hold (the shaders number them wid.x + wid.y * nwg.x).
export function grid(count) {
  const x = Math.min(count, 65535);
  return [x, Math.ceil(count / x)];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
