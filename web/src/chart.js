// Small SVG charts, a few lines each: enough to see a demo's result at a
// glance without a chart library.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 120;
const PAD = 4;
const COLORS = ['#3b82f6', '#93c5fd'];

function svg(caption) {
  const root = document.createElementNS(SVG, 'svg');
  root.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  root.setAttribute('class', 'chart');
  root.setAttribute('role', 'img');
  root.setAttribute('aria-label', caption);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = caption;
  root.append(title);
  return root;
}

function add(root, tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  root.append(node);
  return node;
}

// y of a value on a chart whose values span [0, max] (or [min, max]).
function scale(min, max) {
  const span = max - min || 1;
  return (value) => HEIGHT - PAD - ((value - min) / span) * (HEIGHT - 2 * PAD);
}

// One bar per value. `groupSize` alternates the bars' colour every groupSize
// bars (a subgroup, a tile); `reference` draws the JavaScript reference's value
// as a dark tick on each bar, so a mismatch shows as a tick off its bar's top.
export function bars(values, { caption, groupSize = 0, reference } = {}) {
  const root = svg(caption);
  const all = reference ? [...values, ...reference] : [...values];
  const min = Math.min(0, ...all);
  const y = scale(min, Math.max(...all));
  const step = (WIDTH - 2 * PAD) / values.length;
  const gap = step > 3 ? 1 : 0;
  values.forEach((value, i) => {
    const top = Math.min(y(value), y(0));
    const colour = COLORS[groupSize ? Math.floor(i / groupSize) % 2 : 0];
    add(root, 'rect', {
      x: PAD + i * step,
      y: top,
      width: Math.max(step - gap, 0.5),
      height: Math.max(Math.abs(y(value) - y(0)), 0.5),
      fill: colour,
    });
    if (reference) {
      add(root, 'rect', { x: PAD + i * step, y: y(reference[i]) - 1, width: Math.max(step - gap, 0.5), height: 2, fill: '#111827' });
    }
  });
  return root;
}

// Polylines over a common x axis (index) and y range: series are
// {values, colour, dashed?}.
export function lines(series, { caption } = {}) {
  const root = svg(caption);
  const all = series.flatMap((s) => [...s.values]);
  const y = scale(Math.min(...all), Math.max(...all));
  for (const { values, colour, dashed } of series) {
    const dx = (WIDTH - 2 * PAD) / Math.max(values.length - 1, 1);
    const points = Array.from(values, (v, i) => `${(PAD + i * dx).toFixed(1)},${y(v).toFixed(1)}`);
    add(root, 'polyline', {
      points: points.join(' '),
      fill: 'none',
      stroke: colour,
      'stroke-width': dashed ? 1.5 : 2.5,
      ...(dashed ? { 'stroke-dasharray': '4 3' } : {}),
    });
  }
  return root;
}

// At most `count` evenly spaced samples of a long array, for a chart.
export function sample(values, count) {
  if (values.length <= count) return Array.from(values);
  const step = values.length / count;
  return Array.from({ length: count }, (_, i) => values[Math.floor(i * step)]);
}
