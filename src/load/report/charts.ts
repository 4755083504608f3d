/**
 * Inline SVG line charts for the load page: as wide as the page (a viewBox scaled to 100% width),
 * axes with round ticks (1, 2, 2.5 or 5 times a power of ten; whole seconds; 1-2-5 decades on a log
 * axis), optional vertical markers (the knee of a capacity search), shaded bands (seconds in which
 * the load generator was saturated), dashed series (an ideal line), dots-only series. A time axis
 * ends where the run ended, not at the next round tick. No script, no fonts to load; every text is
 * escaped.
 */
import { esc } from '../../text/escape-html.js';

export interface Series {
  readonly name: string;
  readonly colour: string;
  readonly points: readonly (readonly [number, number])[];
  readonly dashed?: boolean;
  /** Draw a dot on every point (few points, e.g. capacity steps). */
  readonly dots?: boolean;
  /** Dots only, no line between them (marks on another series' points). */
  readonly noLine?: boolean;
}

interface Marker {
  readonly x: number;
  readonly label: string;
  readonly colour: string;
}

interface Chart {
  readonly title: string;
  readonly series: readonly Series[];
  readonly xLabel: string;
  readonly yFormat: (v: number) => string;
  readonly xFormat: (v: number) => string;
  /** Fixed x ticks (e.g. percentiles); otherwise round ones are chosen. */
  readonly xTicks?: readonly { x: number; label: string }[];
  /** Logarithmic x axis (offered rates that grow by a factor). */
  readonly xLog?: boolean;
  readonly markers?: readonly Marker[];
  /** Include 0 on the x axis (time axes). */
  readonly xFromZero?: boolean;
  /** The x axis ends exactly here (the end of the measured phase), its ticks inside. */
  readonly xEnd?: number;
  /** Shaded x ranges, and what they mean (one legend entry). */
  readonly bands?: { readonly ranges: readonly { readonly from: number; readonly to: number }[]; readonly label: string; readonly colour: string };
}

const W = 1000;
const H = 300;
const PAD = { left: 72, right: 20, top: 34, bottom: 46 };

/** Round tick values covering [lo, hi], about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const first = Math.floor(lo / step + 1e-9) * step;
  const out: number[] = [];
  for (let v = first; v <= hi + step * 1e-9 + 1e-12 && out.length < 50; v += step) out.push(Number(v.toPrecision(12)));
  if (out[out.length - 1]! < hi - 1e-9) out.push(Number((out[out.length - 1]! + step).toPrecision(12)));
  return out;
}

/** Ticks of a log axis: 1, 2, 5 times powers of ten within [lo, hi] (at least the decades). */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

export function lineChart(c: Chart): string {
  const pts = c.series.flatMap((s) => s.points);
  if (pts.length === 0) return `<figure><figcaption>${esc(c.title)}</figcaption><p class="muted">no data</p></figure>`;
  const xs = [...pts.map((p) => p[0]), ...(c.markers ?? []).map((m) => m.x)];
  let x0 = Math.min(...xs, ...(c.xFromZero ? [0] : []));
  let x1 = c.xEnd ?? Math.max(...xs);
  let xTicks: { x: number; label: string }[];
  if (c.xTicks) {
    xTicks = [...c.xTicks];
    x0 = Math.min(x0, ...xTicks.map((t) => t.x));
    x1 = Math.max(x1, ...xTicks.map((t) => t.x));
  } else if (c.xLog) {
    x0 = x0 / 1.15;
    x1 = x1 * 1.15;
    xTicks = logTicks(x0, x1).map((x) => ({ x, label: c.xFormat(x) }));
  } else {
    const t = niceTicks(x0, x1, 10);
    x0 = t[0]!;
    const end = c.xEnd;
    if (end === undefined) x1 = t[t.length - 1]!;
    xTicks = t.filter((x) => end === undefined || x <= end + 1e-9).map((x) => ({ x, label: c.xFormat(x) }));
  }
  if (x1 <= x0) x1 = x0 + 1;
  const yTicks = niceTicks(0, Math.max(...pts.map((p) => p[1]), 0) || 1, 5);
  const y1 = yTicks[yTicks.length - 1]!;
  const fx = c.xLog ? (x: number) => Math.log10(Math.max(x, 1e-9)) : (x: number) => x;
  const sx = (x: number) => PAD.left + ((fx(x) - fx(x0)) / (fx(x1) - fx(x0))) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (y / y1) * (H - PAD.top - PAD.bottom);
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [];
  for (const b of c.bands?.ranges ?? []) {
    const from = sx(Math.max(x0, b.from));
    const width = Math.max(1, sx(Math.min(x1, b.to)) - from);
    parts.push(`<rect x="${f(from)}" y="${PAD.top}" width="${f(width)}" height="${H - PAD.top - PAD.bottom}" fill="${c.bands!.colour}" opacity="0.18"/>`);
  }
  for (const v of yTicks) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(sy(v))}" y2="${f(sy(v))}" class="grid"/>`);
    parts.push(`<text x="${PAD.left - 8}" y="${f(sy(v) + 4)}" text-anchor="end">${esc(c.yFormat(v))}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line x1="${f(sx(t.x))}" x2="${f(sx(t.x))}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom + 5}" class="axis"/>`);
    parts.push(`<text x="${f(sx(t.x))}" y="${H - PAD.bottom + 19}" text-anchor="middle">${esc(t.label)}</text>`);
  }
  parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" class="axis"/>`);
  parts.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle" class="muted">${esc(c.xLabel)}</text>`);
  c.markers?.forEach((m, i) => {
    const x = sx(m.x);
    // Labels on the right half are drawn to the left of their line, so they stay on the page.
    const right = x > (PAD.left + W - PAD.right) / 2;
    parts.push(`<line x1="${f(x)}" x2="${f(x)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="${m.colour}" stroke-width="1.5" stroke-dasharray="5 4"/>`);
    const anchor = right ? 'end' : 'start';
    parts.push(`<text x="${f(right ? x - 5 : x + 5)}" y="${PAD.top + 12 + 14 * i}" fill="${m.colour}" text-anchor="${anchor}">${esc(m.label)}</text>`);
  });
  let legendX = PAD.left + 8;
  for (const s of c.series) {
    if (s.points.length > 0) {
      const d = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${f(sx(p[0]))},${f(sy(p[1]))}`).join(' ');
      if (!s.noLine) parts.push(`<path d="${d}" fill="none" stroke="${s.colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
      const r = s.noLine ? 6 : 3.5;
      if (s.dots || s.noLine || s.points.length === 1)
        for (const p of s.points) parts.push(`<circle cx="${f(sx(p[0]))}" cy="${f(sy(p[1]))}" r="${r}" fill="${s.colour}"/>`);
    }
    parts.push(`<rect x="${legendX}" y="10" width="10" height="10" fill="${s.colour}"/><text x="${legendX + 14}" y="19">${esc(s.name)}</text>`);
    legendX += 24 + s.name.length * 7;
  }
  if (c.bands && c.bands.ranges.length > 0) {
    parts.push(`<rect x="${legendX}" y="10" width="10" height="10" fill="${c.bands.colour}" opacity="0.35"/>`);
    parts.push(`<text x="${legendX + 14}" y="19">${esc(c.bands.label)}</text>`);
  }
  return (
    `<figure><figcaption>${esc(c.title)}</figcaption>` +
    `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMidYMid meet" role="img" aria-label="${esc(c.title)}">${parts.join('')}</svg></figure>`
  );
}
