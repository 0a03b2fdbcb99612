// An operator's word on a person or a group: allowed, blocked, or left to the access mode.
import { STANDINGS, type Standing } from '../../lib/accessQueries.js';
import { useI18n } from '../../lib/i18n.js';
import { Badge } from '../ui.js';

export function StandingSelect(p: {
  value: Standing;
  label: string;
  disabled: boolean;
  onChange: (s: Standing) => void;
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <select
      aria-label={p.label}
      value={p.value}
      disabled={p.disabled}
      data-testid={p.testId}
      onChange={(e) => p.onChange(e.currentTarget.value as Standing)}
    >
      {STANDINGS.map((s) => (
        <option value={s}>{t(s === 'DEFAULT' ? 'access.standing.defaultLong' : `access.standing.${s}`)}</option>
      ))}
    </select>
  );
}

/** A standing as a badge: allowed in green, blocked in red; the default says nothing. */
export function StandingBadge(p: { value: Standing }) {
  const { t } = useI18n();
  if (p.value === 'DEFAULT') return null;
  return (
    <Badge tone={p.value === 'BLOCKED' ? 'bad' : 'ok'}>
      <span data-testid="standing" data-standing={p.value}>
        {t(`access.standing.${p.value}`)}
      </span>
    </Badge>
  );
}
