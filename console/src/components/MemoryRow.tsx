// One memory: its text, kind, weight and recall statistics, where it came from and where it may
// be recalled (SPEC §13), the chain of entries that replaced it, and (for operators) retire,
// edit and the choice between recalled only where learned and shared.
import { graphql, type FragmentOf } from '../lib/graphql.js';
import { Time } from './ui.js';
import { MemoryStatus } from './MemoryScore.js';
import { useMemoryActions } from './memories/useMemoryActions.js';
import { MemoryMeta } from './memories/MemoryMeta.js';
import { MemoryActions, MemoryEdit } from './memories/MemoryActions.js';

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

export function MemoryRow(p: {
  m: MemoryView;
  canAct: boolean;
  /** A search hit's score and the best score of the same search (shown as a share of it). */
  score?: { value: number; best: number };
  onChanged: () => void;
}) {
  const { m } = p;
  const a = useMemoryActions(m, p.onChanged);
  return (
    <li class={`memory ${m.status}`} data-testid="memory">
      <div class="memory-main">
        {a.editing ? <MemoryEdit a={a} /> : <div class="memory-text">{m.text}</div>}
        <MemoryMeta m={m} score={p.score} />
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
        {a.error && <div class="field-error">{a.error}</div>}
      </div>
      {p.canAct && m.status === 'active' && !a.editing && <MemoryActions m={m} a={a} />}
    </li>
  );
}
