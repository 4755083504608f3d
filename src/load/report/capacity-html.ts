/**
 * The capacity search's part of the load page: the closing line, the step table (each step's own
 * figures, its stage and attempt, how busy the load generator was), and achieved rate and latency
 * against the offered rate with the knee marked and the steps where the generator was saturated
 * in red.
 */
import { esc } from '../../text/escape-html.js';
import { capacityLine } from '../capacity/capacity.js';
import { lineChart, type Series } from './charts.js';
import type { Capacity } from '../types.js';
import { formatCount, formatUs, formatUsTick } from '../units.js';

export const SATURATED = { label: 'load generator saturated', colour: '#c33' } as const;

/** The capacity search: its step table, and achieved rate and p99 against offered rate with the knee marked. */
export function capacitySection(c: Capacity): string {
  const steps = c.steps;
  const breached = c.breachedRate != null ? { rate: c.breachedRate } : steps.find((x) => !x.held);
  const markers = [
    ...(c.maxRate !== null ? [{ x: c.maxRate, label: `held: ${formatCount(c.maxRate)} req/s`, colour: '#1a7f37' }] : []),
    ...(breached ? [{ x: breached.rate, label: `breached: ${formatCount(breached.rate)} req/s`, colour: '#c62828' }] : []),
  ];
  const busy = steps.filter((x) => x.generator?.saturated);
  const busyDots = (y: (x: (typeof steps)[number]) => number): Series[] =>
    busy.length > 0 ? [{ name: SATURATED.label, colour: SATURATED.colour, noLine: true, points: busy.map((x) => [x.rate, y(x)] as const) }] : [];
  // Bisection goes back and forth: the lines join the steps in order of rate.
  const byRate = [...steps].sort((a, b) => a.rate - b.rate);
  const rates = steps.map((x) => x.rate);
  const xLog = rates.length > 1 && Math.max(...rates) / Math.min(...rates) >= 8;
  const achieved = lineChart({
    title: 'Capacity: answers per second against the offered rate',
    series: [
      { name: 'offered (ideal)', colour: '#999', dashed: true, points: byRate.map((x) => [x.rate, x.rate] as const) },
      { name: 'achieved', colour: '#2a7', dots: true, points: byRate.map((x) => [x.rate, x.achieved] as const) },
      ...busyDots((x) => x.achieved),
    ],
    xLog,
    xFromZero: !xLog,
    markers,
    xFormat: formatCount,
    yFormat: formatCount,
    xLabel: 'offered rate (req/s)',
  });
  const latency = lineChart({
    title: 'Capacity: latency against the offered rate (coordinated-omission corrected)',
    series: [
      { name: 'p50', colour: '#58c', dots: true, points: byRate.map((x) => [x.rate, x.p50] as const) },
      { name: 'p99', colour: '#d80', dots: true, points: byRate.map((x) => [x.rate, x.p99] as const) },
      ...busyDots((x) => x.p99),
    ],
    xLog,
    xFromZero: !xLog,
    markers,
    xFormat: formatCount,
    yFormat: formatUsTick,
    xLabel: 'offered rate (req/s)',
  });
  const columns = ['step', 'offered req/s', 'achieved', 'answers', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors', 'broken chains', 'generator', '', 'why not'];
  const head = columns.map((h) => `<th>${h}</th>`).join('');
  const num = (v: string) => `<td class="num">${v}</td>`;
  const us = (v: number | undefined) => (v === undefined ? '-' : formatUs(v));
  const body = steps.map((x, i) => {
    const stage = `${i + 1} ${x.stage ?? 'ladder'}${(x.attempt ?? 1) > 1 ? ' retry' : ''}`;
    const load = x.load !== undefined ? `, load ${x.load.toFixed(1)}` : '';
    const cells = [
      formatCount(x.rate),
      formatCount(x.achieved),
      formatCount(x.measured?.responses ?? 0),
      us(x.p50),
      us(x.p90),
      us(x.p99),
      us(x.p999),
      us(x.max),
    ];
    const gen = x.generator ? `${Math.round(x.generator.busyPct)}% busy${x.generator.saturated ? ' ⚠ saturated' : ''}${load}` : '-';
    const figures = [...cells, String(x.errors), String(x.brokenChains)].map(num).join('');
    const status = x.status ?? (x.held ? 'held' : 'breached');
    const why = `<td class="why">${esc(x.reasons.join('; '))}</td>`;
    const verdict = `<td class="nw">${esc(gen)}</td><td class="${x.held ? 'pass' : 'fail'}">${esc(status)}</td>${why}`;
    return `<tr><td class="nw">${esc(stage)}</td>${figures}${verdict}</tr>`;
  });
  const table = `<table><tr>${head}</tr>${body.join('')}</table>`;
  const stable = c.maxRate !== null && c.stability?.verdict !== 'unstable';
  const verdict = `<p class="${stable ? 'pass' : 'fail'}">${esc(capacityLine(c).trim())}</p>${stabilityTable(c)}`;
  return `<h2>Capacity search</h2>${verdict}${table}${achieved}${latency}`;
}

/** Confirmation and stability: how many confirmations agreed, the range, and why the knee is unstable. */
function stabilityTable(c: Capacity): string {
  const s = c.stability;
  if (!s) return '';
  const range = s.low !== null ? `${formatCount(s.low)} – ${formatCount(s.high)} req/s` : `at most ${formatCount(s.high)} req/s`;
  const rows: [string, string][] = [
    ['stability', s.verdict],
    ['confirmed', `${s.confirmed}/${s.confirmations}`],
    ['the knee lies', range],
    ['retries that flipped', String(s.flips)],
    ['steps disturbed by the machine', String(s.disturbed)],
    ...(s.reasons.length > 0 ? [['why unstable', s.reasons.join('; ')] as [string, string]] : []),
  ];
  return `<table class="kv">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}
