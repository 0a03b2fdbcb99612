// Small presentational pieces shared by every page.
import type { ComponentChildren } from 'preact';
import { errorText } from '../lib/api.js';
import type { LiveState } from '../lib/live.js';
import { ago, formatTime } from '../lib/time.js';

export function PageHeader(p: { title: ComponentChildren; sub?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{p.title}</h1>
        {p.sub && <div class="sub">{p.sub}</div>}
      </div>
      {p.actions && <div class="actions">{p.actions}</div>}
    </header>
  );
}

export function Panel(p: {
  title?: ComponentChildren;
  actions?: ComponentChildren;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <section class={`panel ${p.class ?? ''}`}>
      {(p.title || p.actions) && (
        <div class="panel-head">
          <h2>{p.title}</h2>
          {p.actions && <div class="actions">{p.actions}</div>}
        </div>
      )}
      <div class="panel-body">{p.children}</div>
    </section>
  );
}

const TONES: Record<string, string> = {
  responded: 'ok',
  complete: 'ok',
  active: 'ok',
  open: 'ok',
  done: 'ok',
  ready: 'ok',
  pending: 'warn',
  streaming: 'info',
  processing: 'info',
  paused: 'warn',
  unresponded: 'bad',
  error: 'bad',
  failed: 'bad',
  timeout: 'bad',
  interrupted: 'warn',
  superseded: 'muted',
  merged: 'muted',
  pruned: 'muted',
  closed: 'muted',
  archived: 'muted',
};

export function Badge(p: { children: ComponentChildren; tone?: 'ok' | 'warn' | 'bad' | 'info' | 'muted' | 'plain' }) {
  const tone = p.tone ?? (typeof p.children === 'string' ? TONES[p.children] : undefined) ?? 'plain';
  return <span class={`badge ${tone}`}>{p.children}</span>;
}

export function ErrorBox(p: { error: unknown; title?: string }) {
  if (!p.error) return null;
  return (
    <div class="error-box" role="alert">
      {p.title && <strong>{p.title}: </strong>}
      {errorText(p.error)}
    </div>
  );
}

export const Loading = (p: { what?: string }) => <div class="loading">Loading {p.what ?? ''}…</div>;

export const Empty = (p: { children: ComponentChildren }) => <div class="empty">{p.children}</div>;

/** An instant in the display time zone; the hover shows UTC. */
export function Time(p: { at: string | null | undefined; relative?: boolean }) {
  if (!p.at) return <span class="muted">—</span>;
  return (
    <time dateTime={p.at} title={`${p.at} (UTC)`}>
      {p.relative ? ago(p.at) : formatTime(p.at)}
    </time>
  );
}

export function Json(p: { value: unknown }) {
  const text = typeof p.value === 'string' ? p.value : JSON.stringify(p.value, null, 2);
  return <pre class="json">{text}</pre>;
}

export function Collapsible(p: { summary: ComponentChildren; children: ComponentChildren; open?: boolean }) {
  return (
    <details class="collapsible" open={p.open}>
      <summary>{p.summary}</summary>
      <div class="collapsible-body">{p.children}</div>
    </details>
  );
}

const LIVE_TEXT: Record<LiveState, string> = {
  off: 'offline',
  connecting: 'connecting…',
  live: 'live',
  error: 'reconnecting…',
};

export function LiveDot(p: { state: LiveState; label?: string }) {
  return (
    <span
      class={`live-dot ${p.state}`}
      data-testid="live-state"
      title="Updates arrive over a GraphQL subscription (SSE)"
    >
      <i />
      {p.label ? `${p.label}: ` : ''}
      {LIVE_TEXT[p.state]}
    </span>
  );
}

export function Stat(p: { label: string; value: ComponentChildren; hint?: ComponentChildren }) {
  return (
    <div class="stat">
      <div class="stat-label">{p.label}</div>
      <div class="stat-value">{p.value}</div>
      {p.hint && <div class="stat-hint">{p.hint}</div>}
    </div>
  );
}

export function Select<T extends string>(p: {
  label: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (v: T) => void;
  testId?: string;
}) {
  return (
    <label class="inline-field">
      <span>{p.label}</span>
      <select value={p.value} data-testid={p.testId} onChange={(e) => p.onChange(e.currentTarget.value as T)}>
        {p.options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </select>
    </label>
  );
}

/** Why a control is off for this role, shown beside read-only pages. */
export const ReadOnlyNote = (p: { needs: string }) => (
  <div class="note">Read-only: changing this needs the {p.needs} role.</div>
);
