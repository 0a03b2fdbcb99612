// Small inline-SVG charts (no chart library): bars for a few values, stacked bars over time,
// lines over time. Sized by a viewBox so they scale with their container.
import { formatNumber } from '../lib/time.js';

const W = 640;
const H = 200;
const PAD = { l: 56, r: 12, t: 12, b: 28 };

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v) ?? v;
}

function Axis(p: { max: number; fmt: (n: number) => string }) {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <g class="axis">
      {ticks.map((f) => {
        const y = PAD.t + (1 - f) * (H - PAD.t - PAD.b);
        return (
          <g>
            <line x1={PAD.l} x2={W - PAD.r} y1={y} y2={y} />
            <text x={PAD.l - 6} y={y + 4} text-anchor="end">
              {p.fmt(f * p.max)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

export interface Series {
  label: string;
  color: string;
  values: Array<number | null>;
}

function XLabels(p: { labels: string[] }) {
  const n = p.labels.length;
  const step = Math.max(1, Math.ceil(n / 6));
  const bw = (W - PAD.l - PAD.r) / Math.max(1, n);
  return (
    <g class="axis">
      {p.labels.map((l, i) =>
        i % step === 0 ? (
          <text x={PAD.l + i * bw + bw / 2} y={H - 8} text-anchor="middle">
            {l}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function Legend(p: { series: Array<Pick<Series, 'label' | 'color'>> }) {
  return (
    <div class="legend">
      {p.series.map((s) => (
        <span>
          <i style={{ background: s.color }} />
          {s.label}
        </span>
      ))}
    </div>
  );
}

/** Bars stacked per bucket (e.g. prompt + completion tokens). */
export function StackedBars(p: { labels: string[]; series: Series[]; fmt?: (n: number) => string; title: string }) {
  const fmt = p.fmt ?? ((n: number) => formatNumber(n));
  const totals = p.labels.map((_, i) => p.series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const bw = (W - PAD.l - PAD.r) / Math.max(1, p.labels.length);
  const y = (v: number) => ((H - PAD.t - PAD.b) * v) / max;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={p.title}>
        <Axis max={max} fmt={fmt} />
        {p.labels.map((l, i) => {
          let base = H - PAD.b;
          return (
            <g>
              <title>
                {l}: {p.series.map((s) => `${s.label} ${fmt(s.values[i] ?? 0)}`).join(', ')}
              </title>
              {p.series.map((s) => {
                const h = y(s.values[i] ?? 0);
                base -= h;
                return <rect x={PAD.l + i * bw + 1} y={base} width={Math.max(1, bw - 2)} height={h} fill={s.color} />;
              })}
            </g>
          );
        })}
        <XLabels labels={p.labels} />
      </svg>
      <Legend series={p.series} />
    </figure>
  );
}

/** Lines over buckets; a null value breaks the line (no data in that bucket). */
export function Lines(p: { labels: string[]; series: Series[]; fmt?: (n: number) => string; title: string }) {
  const fmt = p.fmt ?? ((n: number) => formatNumber(n));
  const max = niceMax(Math.max(0, ...p.series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const bw = (W - PAD.l - PAD.r) / Math.max(1, p.labels.length);
  const x = (i: number) => PAD.l + i * bw + bw / 2;
  const y = (v: number) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / max;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={p.title}>
        <Axis max={max} fmt={fmt} />
        {p.series.map((s) => {
          const runs: string[] = [];
          let run = '';
          s.values.forEach((v, i) => {
            if (v === null) {
              if (run) runs.push(run);
              run = '';
            } else run += `${run ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
          });
          if (run) runs.push(run);
          return (
            <g>
              {runs.map((d) => (
                <path d={d} fill="none" stroke={s.color} stroke-width="2" />
              ))}
              {s.values.map((v, i) =>
                v === null ? null : (
                  <circle cx={x(i)} cy={y(v)} r="3" fill={s.color}>
                    <title>
                      {p.labels[i]}: {s.label} {fmt(v)}
                    </title>
                  </circle>
                ),
              )}
            </g>
          );
        })}
        <XLabels labels={p.labels} />
      </svg>
      <Legend series={p.series} />
    </figure>
  );
}

/** A few labelled values as horizontal bars (e.g. latency percentiles). */
export function HBars(p: {
  items: Array<{ label: string; value: number | null; color: string }>;
  fmt: (n: number) => string;
}) {
  const max = Math.max(1, ...p.items.map((i) => i.value ?? 0));
  return (
    <div class="hbars">
      {p.items.map((i) => (
        <div class="hbar">
          <span class="hbar-label">{i.label}</span>
          <span class="hbar-track">
            <i style={{ width: `${(100 * (i.value ?? 0)) / max}%`, background: i.color }} />
          </span>
          <span class="hbar-value">{i.value === null ? '—' : p.fmt(i.value)}</span>
        </div>
      ))}
    </div>
  );
}
