// Picks another turn of the session (the previous one first) and opens the context diff with it.
import { useState } from 'preact/hooks';
import { useI18n } from '../../lib/i18n.js';
import { navigate } from '../../lib/router.js';
import { formatTime } from '../../lib/time.js';
import { nodes } from '../../lib/types.js';
import type { TracedTurn } from '../../lib/turnTraceQuery.js';
import { useStatusLabel } from '../ui.js';

export function DiffPicker(p: { turn: TracedTurn }) {
  const i18n = useI18n();
  const statusLabel = useStatusLabel();
  const [other, setOther] = useState('');
  const t = p.turn;
  const siblings = nodes(t.session.turns).filter((x) => x.id !== t.id);
  const previous = [...siblings].reverse().find((x) => x.startedAt < t.startedAt);
  const diffWith = other || previous?.id || siblings[0]?.id || '';
  if (siblings.length === 0) return null;
  return (
    <span class="inline-field">
      <select value={diffWith} onChange={(e) => setOther(e.currentTarget.value)}>
        {siblings.map((s) => (
          <option value={s.id}>
            {i18n.t('turnTrace.turnOf', { at: formatTime(s.startedAt), status: statusLabel(s.status) })}
          </option>
        ))}
      </select>
      <button
        data-testid="diff-button"
        onClick={() => navigate(`/diff?a=${encodeURIComponent(diffWith)}&b=${encodeURIComponent(t.id)}`)}
      >
        {i18n.t('turnTrace.diff')}
      </button>
    </span>
  );
}
