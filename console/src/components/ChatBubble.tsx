// One message of a web conversation as the Chat page and a room's web view show it: who wrote
// it, its state (a failed reply never looks like a normal one), Markdown text and cited sources.
import type { SourceRef } from '../lib/chatApi.js';
import { useI18n, type I18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';
import { Badge, Time, useStatusLabel } from './ui.js';
import { Markdown } from './Markdown.js';

/** A reply that did not complete: shown as such, not like a normal answer. */
const FAILED_STATES = new Set(['error', 'interrupted', 'timeout', 'failed', 'rejected']);

/** The web API's role (user, assistant, system) as a word in the page's language. */
const roleWord = (t: I18n['t'], role: string): string => {
  const key = `chat.role.${role}`;
  return isMessageKey(key) ? t(key) : role;
};

export function ChatBubble(p: {
  role: string;
  /** Shown instead of the role: the agent's name in a room. */
  who?: string | undefined;
  /** The message's state from the web API (adapters/web): streaming, complete, error… */
  state: string;
  content: string;
  sources: SourceRef[];
  usage?: { inputTokens?: number; outputTokens?: number } | undefined;
  at?: string;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  const status = useStatusLabel();
  const streaming = p.state === 'streaming';
  const failed = FAILED_STATES.has(p.state);
  return (
    <div
      class={`bubble ${p.role === 'user' ? 'human' : p.role === 'assistant' ? 'ai' : 'system'}${failed ? ' failed' : ''}`}
      data-testid={`chat-${p.role}`}
      data-state={p.state}
    >
      <div class="bubble-meta">
        <span class="who">{p.who ?? roleWord(t, p.role)}</span>
        {p.at && <Time at={p.at} />}
        {streaming && <Badge tone="info">{t('chat.streaming')}</Badge>}
        {p.state !== 'complete' && !streaming && (
          <Badge tone={failed ? 'bad' : 'warn'}>
            {failed ? t('chat.failedState', { state: status(p.state) }) : status(p.state)}
          </Badge>
        )}
        {p.usage && (
          <span class="muted small">
            {t('chat.tokens', { in: p.usage.inputTokens ?? '?', out: p.usage.outputTokens ?? '?' })}
          </span>
        )}
      </div>
      {p.content ? (
        <Markdown class="bubble-text" text={p.content} />
      ) : (
        <div class="bubble-text">{streaming ? <span class="muted">…</span> : ''}</div>
      )}
      {p.error && <div class="bubble-error">{p.error}</div>}
      {p.sources.length > 0 && (
        <ol class="sources">
          {p.sources.map((s) => (
            <li title={s.content}>
              <strong>{s.documentName}</strong>{' '}
              <span class="muted small">{t('chat.relevance', { score: s.relevanceScore.toFixed(2) })}</span>
              <div class="small muted clamp">{s.content}</div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
