// Small presentational pieces shared by every page.
import type { ComponentChildren } from 'preact';
import { errorParts } from '../lib/api.js';
import type { LiveState } from '../lib/live.js';
import { ago, formatTime } from '../lib/time.js';
import { useI18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';

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

type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted' | 'plain';

const TONES: Record<string, Tone> = {
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

export function Badge(p: { children: ComponentChildren; tone?: Tone }) {
  const tone = p.tone ?? (typeof p.children === 'string' ? TONES[p.children] : undefined) ?? 'plain';
  return <span class={`badge ${tone}`}>{p.children}</span>;
}

/** A status word (responded, streaming, active…) in the console's language; unknown values as stored. */
export function useStatusLabel(): (status: string) => string {
  const { t } = useI18n();
  return (status) => {
    const key = `status.${status}`;
    return isMessageKey(key) ? t(key) : status;
  };
}

/** A role's name (admin, operator, viewer; human, ai, system) in the console's language. */
export function useRoleLabel(): (role: string) => string {
  const { t } = useI18n();
  return (role) => {
    const key = `role.${role}`;
    return isMessageKey(key) ? t(key) : role;
  };
}

/** A status badge: toned by the stored value, worded in the console's language. */
export function StatusBadge(p: { status: string; tone?: Tone }) {
  const label = useStatusLabel();
  return <Badge tone={p.tone ?? TONES[p.status] ?? 'plain'}>{label(p.status)}</Badge>;
}

export function ErrorBox(p: { error: unknown; title?: string }) {
  const { t } = useI18n();
  if (!p.error) return null;
  return (
    <div class="error-box" role="alert">
      {p.title && (
        <strong>
          {p.title}
          {t('error.detailSep')}
        </strong>
      )}
      <ErrorText error={p.error} />
    </div>
  );
}

/** A catalogue text with elements in its `{placeholders}` (t() without vars leaves them in). */
export function Rich(p: { text: string; parts: Record<string, ComponentChildren> }) {
  return <>{p.text.split(/\{(\w+)\}/).map((s, i) => (i % 2 ? (p.parts[s] ?? `{${s}}`) : s))}</>;
}

/**
 * An error in the page's language: the console's text for a known code, the server's message
 * (marked English: it is sent in English) and the code, e.g. "输入有误：name: … （BAD_REQUEST）".
 */
export function ErrorText(p: { error: unknown }) {
  const { locale, t } = useI18n();
  const x = errorParts(p.error, locale);
  if (!x.code) return <>{x.detail}</>;
  const detail = x.detail ? (
    <span class="error-detail" lang="en">
      {x.detail}
    </span>
  ) : null;
  return x.text && detail ? (
    <Rich text={t('error.formatDetail')} parts={{ text: x.text, detail, code: x.code }} />
  ) : (
    <Rich text={t('error.format')} parts={{ text: x.text ?? detail, code: x.code }} />
  );
}

/**
 * A problem beside a form field: the code first (it reads the same in any language), the
 * console's text for it where the page is not English, then the server's words for this field.
 */
export function CodedProblem(p: { code: string | null; message: string }) {
  const { locale, t } = useI18n();
  const key = `error.code.${p.code ?? ''}`;
  const text = p.code && locale !== 'en' && isMessageKey(key) ? t(key) : null;
  return (
    <>
      {p.code && <code class="error-code">{p.code}</code>}{' '}
      {text && (
        <>
          {text}
          {t('error.detailSep')}
        </>
      )}
      <span lang={p.code ? 'en' : undefined}>{p.message}</span>
    </>
  );
}

// `what` is an English noun from the page; other languages say only "loading" rather than mix.
export function Loading(p: { what?: string }) {
  const { locale, t } = useI18n();
  const text = locale === 'en' && p.what ? t('common.loading', { what: p.what }) : t('common.loadingPlain');
  return <div class="loading">{text}</div>;
}

export const Empty = (p: { children: ComponentChildren }) => <div class="empty">{p.children}</div>;

/** An instant in the display time zone; the hover shows UTC. */
export function Time(p: { at: string | null | undefined; relative?: boolean }) {
  const { t } = useI18n();
  if (!p.at) return <span class="muted">—</span>;
  return (
    <time dateTime={p.at} title={t('time.utcHint', { at: p.at })}>
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

export function LiveDot(p: { state: LiveState; label?: string }) {
  const { t } = useI18n();
  return (
    <span class={`live-dot ${p.state}`} data-testid="live-state" title={t('common.liveTitle')}>
      <i />
      {p.label ? `${p.label}: ` : ''}
      {t(`live.${p.state}`)}
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
export function ReadOnlyNote(p: { needs: string }) {
  const { t } = useI18n();
  const role = useRoleLabel();
  return <div class="note">{t('common.readOnlyNeeds', { role: role(p.needs) })}</div>;
}
