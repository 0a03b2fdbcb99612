// The people list of the Access page: newest first, PAGE more at a time, each with their standing
// and quota (lib/accessQueries.ts PEOPLE, which also brings the mode and the per-person limit).
import { useI18n } from '../../lib/i18n.js';
import type { PersonView } from '../../lib/accessQueries.js';
import { Empty } from '../ui.js';
import { PersonRow } from './PersonRow.js';

export function PeopleList(p: { people: PersonView[]; limit: number; onChanged: () => void }) {
  const { t } = useI18n();
  if (p.people.length === 0) return <Empty>{t('access.people.empty')}</Empty>;
  return (
    <table class="table stack compact" data-testid="people">
      <thead>
        <tr>
          <th scope="col">{t('access.people.person')}</th>
          <th scope="col">{t('access.people.access')}</th>
          <th scope="col">{t('access.people.quota')}</th>
          <th scope="col">{t('access.people.firstSeen')}</th>
        </tr>
      </thead>
      <tbody>
        {p.people.map((h) => (
          <PersonRow key={h.id} h={h} limit={p.limit} onChanged={p.onChanged} />
        ))}
      </tbody>
    </table>
  );
}
