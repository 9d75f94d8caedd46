// Seeded inputs and result comparison for the demos' JavaScript references.

// A small seeded generator (mulberry32): the same inputs on every run, so a
// failure can be reproduced.
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Integers in [0, bound) as a Uint32Array of length n.
export function randomU32(rand, n, bound) {
  return Uint32Array.from({ length: n }, () => Math.floor(rand() * bound));
}

// Compares a GPU result with the reference element by element; `tolerance`
// is relative (for float sums, whose rounding depends on the order of the
// additions). Returns {ok, detail}, detail naming the first mismatch.
export function compare(what, got, want, { tolerance = 0 } = {}) {
  if (got.length < want.length) {
    return { ok: false, detail: `${what}: ${got.length} values, expected ${want.length}` };
  }
  let bad = 0;
  let first = -1;
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    const close = tolerance ? Math.abs(g - w) <= tolerance * Math.max(1, Math.abs(w)) : g === w;
    if (!close) {
      if (first < 0) first = i;
      bad++;
    }
  }
  if (bad === 0) return { ok: true, detail: `${what}: ${want.length} values match` };
  return {
    ok: false,
    detail: `${what}: ${bad} of ${want.length} differ; first at [${first}]: got ${got[first]}, expected ${want[first]}`,
  };
}

// One value, exactly; `show` formats it for the detail.
export function equal(what, got, want, show = String) {
  return got === want
    ? { ok: true, detail: `${what} = ${show(got)}` }
    : { ok: false, detail: `${what}: got ${show(got)}, expected ${show(want)}` };
}

// All checks together: ok when every one is, details joined.
export function all(...checks) {
  return { ok: checks.every((c) => c.ok), detail: checks.map((c) => c.detail).join('\n') };
}
