// One stored message as a chat bubble: who said it, what, when, and how its delivery went.
import type { MessageView } from '../lib/types.js';
import { Badge, StatusBadge, Time } from './ui.js';
import { Markdown } from './Markdown.js';
import { useI18n } from '../lib/i18n.js';
import { isMessageKey } from '../i18n/messages.js';

/** Why a message was refused (SPEC §14), in the console's words; the stable code on hover. */
/** Why a message was refused: a sender's reason (not let in, blocked…) where there is one, else the code. */
function RefusedBadge(p: { code: string; reason: string | null }) {
  const { t } = useI18n();
  const byReason = p.reason ? `message.refused.reason.${p.reason}` : undefined;
  const key = byReason && isMessageKey(byReason) ? byReason : `message.refused.${p.code}`;
  return (
    <span title={p.code} data-testid="refused" data-code={p.code} data-reason={p.reason ?? ''}>
      <Badge tone="bad">{isMessageKey(key) ? t(key) : t('message.refused.other', { code: p.code })}</Badge>
    </span>
  );
}

export function MessageBubble(p: { m: MessageView; names?: Record<string, string> }) {
  const { m } = p;
  const { t } = useI18n();
  const who = p.names?.[m.senderId] ?? (m.senderRole === 'system' ? t('role.system') : m.senderId);
  const state = m.delivery?.state;
  return (
    <div class={`bubble ${m.senderRole}${m.visible ? '' : ' hidden-msg'}`} data-testid="message">
      <div class="bubble-meta">
        <span class="who">{who}</span>
        <Time at={m.createdAt} />
        {m.contentType !== 'text' && <Badge tone="plain">{m.contentType}</Badge>}
        {state && state !== 'complete' && <StatusBadge status={state} />}
        {m.rejectedCode && <RefusedBadge code={m.rejectedCode} reason={m.rejectedReason} />}
        {!m.visible && <Badge tone="muted">{t('message.notShown')}</Badge>}
      </div>
      {m.content ? (
        <Markdown class="bubble-text" text={m.content} />
      ) : (
        <div class="bubble-text">
          <span class="muted">{t('message.noText')}</span>
        </div>
      )}
      {m.attachments.length > 0 && (
        <div class="bubble-attachments">
          {m.attachments.map((a) => (
            <Badge tone={a.state === 'failed' ? 'bad' : 'plain'}>
              {a.kind}
              {a.fileName ? ` · ${a.fileName}` : ''} · {a.state}
            </Badge>
          ))}
        </div>
      )}
      {m.sources.length > 0 && (
        <ol class="sources">
          {m.sources.map((s) => (
            <li value={s.n} title={s.content}>
              <strong>{s.documentName}</strong> <span class="muted small">relevance {s.relevanceScore.toFixed(2)}</span>
            </li>
          ))}
        </ol>
      )}
      {m.delivery?.error && (
        <div class="bubble-error">
          {m.delivery.error.code}: {m.delivery.error.message}
        </div>
      )}
    </div>
  );
}
