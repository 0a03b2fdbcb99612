// Picks a room's members in asking order: add from the agents not yet in, move up or down, remove.
import { useState } from 'preact/hooks';
import { useI18n } from '../../lib/i18n.js';
import type { Named } from '../../lib/types.js';

const moved = (ids: string[], i: number, by: -1 | 1): string[] => {
  const next = [...ids];
  const j = i + by;
  if (j < 0 || j >= next.length) return ids;
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
};

export function MemberOrder(p: { id: string; agents: Named[]; value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useI18n();
  const [pick, setPick] = useState('');
  const names = Object.fromEntries(p.agents.map((a) => [a.id, a.name]));
  const left = p.agents.filter((a) => !p.value.includes(a.id));
  const add = () => {
    const id = pick || left[0]?.id;
    if (id) p.onChange([...p.value, id]);
    setPick('');
  };
  return (
    <div class="member-order">
      <ol data-testid="room-members-order">
        {p.value.map((id, i) => (
          <li class="row">
            <span class="grow">{names[id] ?? id}</span>
            <button
              type="button"
              class="small"
              aria-label={t('setup.rooms.moveUp')}
              onClick={() => p.onChange(moved(p.value, i, -1))}
            >
              ↑
            </button>
            <button
              type="button"
              class="small"
              aria-label={t('setup.rooms.moveDown')}
              onClick={() => p.onChange(moved(p.value, i, 1))}
            >
              ↓
            </button>
            <button type="button" class="small danger" onClick={() => p.onChange(p.value.filter((x) => x !== id))}>
              {t('setup.rooms.removeMember')}
            </button>
          </li>
        ))}
      </ol>
      <div class="row">
        <select
          id={p.id}
          value={pick}
          onChange={(e) => setPick(e.currentTarget.value)}
          aria-label={t('setup.rooms.pickAgent')}
        >
          {left.map((a) => (
            <option value={a.id}>{a.name}</option>
          ))}
        </select>
        <button type="button" class="small" disabled={left.length === 0} onClick={add} data-testid="room-member-add">
          {t('setup.rooms.addMember')}
        </button>
      </div>
    </div>
  );
}
