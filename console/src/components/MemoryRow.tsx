// One memory: its text, kind, weight and recall statistics, where it came from and where it may
// be recalled (SPEC §13), the chain of entries that replaced it, and (for operators) retire,
// edit and the choice between recalled only where learned and shared.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql, type FragmentOf } from '../lib/graphql.js';
import { Link } from '../lib/router.js';
import { Badge, Select, Time } from './ui.js';
import { Importance, MemoryStatus, Relevance } from './MemoryScore.js';
import { useI18n } from '../lib/i18n.js';
import type { MessageKey } from '../i18n/messages.js';

export const MemoryFields = graphql(`
  fragment MemoryFields on Memory {
    id
    text
    kind
    status
    importance
    recallCount
    lastRecalledAt
    occurredAt
    updatedAt
    supersededAt
    subject {
      id
      displayName
    }
    sources {
      dialogueId
      turnIds
    }
    chain {
      id
      text
      status
      updatedAt
    }
    origin {
      dialogueId
      scope
      dialogue {
        id
        title
      }
    }
    visibility
  }
`);
export type MemoryView = FragmentOf<typeof MemoryFields>;

type Visibility = MemoryView['visibility'];
const VISIBILITIES: Array<{ value: Visibility; label: MessageKey }> = [
  { value: 'ORIGIN', label: 'memory.onlyWhereLearned' },
  { value: 'SHARED', label: 'memory.shared' },
];

const RETIRE = graphql(`
  mutation Retire($id: ID!) {
    retireMemory(id: $id) {
      id
      status
    }
  }
`);
const EDIT = graphql(`
  mutation Edit($id: ID!, $text: String!) {
    editMemory(id: $id, text: $text) {
      id
    }
  }
`);
const VISIBILITY = graphql(`
  mutation Visibility($id: ID!, $v: MemoryVisibility!) {
    setMemoryVisibility(id: $id, visibility: $v) {
      id
      visibility
    }
  }
`);

/** Where the memory was learned: a private chat, a group (named, linked), or unknown (older data). */
function Origin(p: { origin: MemoryView['origin'] }) {
  const o = p.origin;
  const { t } = useI18n();
  if (!o) return <span data-testid="memory-origin">{t('memory.learnedUnknown')}</span>;
  const href = `/dialogues/${encodeURIComponent(o.dialogueId)}`;
  const name =
    o.scope === 'PRIVATE'
      ? t('memory.private')
      : t('memory.group', { name: o.dialogue ? (o.dialogue.title ?? t('common.untitled')) : t('memory.deleted') });
  return (
    <span data-testid="memory-origin">
      {t('memory.learnedIn')} {o.dialogue ? <Link href={href}>{name}</Link> : name}
    </span>
  );
}

export function MemoryRow(p: {
  m: MemoryView;
  canAct: boolean;
  /** A search hit's score and the best score of the same search (shown as a share of it). */
  score?: { value: number; best: number };
  onChanged: () => void;
}) {
  const { m } = p;
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(m.text);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      setEditing(false);
      p.onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const turn = m.sources.turnIds.at(-1);
  return (
    <li class={`memory ${m.status}`} data-testid="memory">
      <div class="memory-main">
        {editing ? (
          <div class="memory-edit">
            <textarea rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
            <div class="row">
              <button
                class="primary small"
                disabled={busy || !text.trim()}
                onClick={() => run(() => gql(EDIT, { id: m.id, text }))}
              >
                {t('memory.saveNew')}
              </button>
              <button class="small" onClick={() => setEditing(false)}>
                {t('common.cancel')}
              </button>
              <span class="muted small">{t('memory.oldStays')}</span>
            </div>
          </div>
        ) : (
          <div class="memory-text">{m.text}</div>
        )}
        <div class="memory-meta">
          <MemoryStatus status={m.status} /> <Badge tone="plain">{m.kind}</Badge>
          <Importance value={m.importance} />
          {p.score !== undefined && <Relevance score={p.score.value} best={p.score.best} />}
          <span>
            {t('memory.recalled', { n: m.recallCount })}{' '}
            {m.lastRecalledAt && (
              <>
                ({t('memory.last')} <Time at={m.lastRecalledAt} relative />)
              </>
            )}
          </span>
          {m.subject && <span>{t('common.about', { name: m.subject.displayName })}</span>}
          <Origin origin={m.origin} />
          {m.visibility === 'SHARED' && (
            <span title={t('memory.sharedTip')}>
              <Badge tone="info">{t('memory.sharedBadge')}</Badge>
            </span>
          )}
          <span>
            {t('memory.happened')} <Time at={m.occurredAt} />
          </span>
          {m.sources.dialogueId && (
            <Link href={`/dialogues/${encodeURIComponent(m.sources.dialogueId)}`}>{t('memory.dialogue')}</Link>
          )}
          {turn && <Link href={`/turns/${encodeURIComponent(turn)}`}>{t('memory.turn')}</Link>}
        </div>
        {m.chain.length > 0 && (
          <ol class="chain" data-testid="memory-chain">
            {m.chain.map((c) => (
              <li>
                <span class="arrow">↳</span> {c.text} <MemoryStatus status={c.status} />{' '}
                <span class="muted small">
                  <Time at={c.updatedAt} />
                </span>
              </li>
            ))}
          </ol>
        )}
        {error && <div class="field-error">{error}</div>}
      </div>
      {p.canAct && m.status === 'active' && !editing && (
        <div class="memory-actions">
          <button class="small" onClick={() => setEditing(true)} data-testid="memory-edit">
            {t('setup.common.edit')}
          </button>
          <button
            class="small danger"
            disabled={busy}
            onClick={() => confirm(t('memory.retireConfirm')) && run(() => gql(RETIRE, { id: m.id }))}
          >
            {t('memory.retire')}
          </button>
          <Select
            label={t('memory.recalledLabel')}
            value={m.visibility}
            options={VISIBILITIES.map((v) => ({ value: v.value, label: t(v.label) }))}
            testId="memory-visibility"
            onChange={(v) => void run(() => gql(VISIBILITY, { id: m.id, v }))}
          />
        </div>
      )}
    </li>
  );
}
