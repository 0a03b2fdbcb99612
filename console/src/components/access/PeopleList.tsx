// The people list of the Access page: newest first, a page at a time (each page its own request,
// the next one after the last one's cursor), each person with their standing and quota.
import { useState } from 'preact/hooks';
import { PEOPLE } from '../../lib/accessQueries.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { nodes } from '../../lib/types.js';
import { Empty, ErrorBox, Loading } from '../ui.js';
import { PersonRow } from './PersonRow.js';

export const PAGE = 50;

/** One page of people; the last page loaded offers the next. */
function PeoplePage(p: { after: string | null; limit: number; last: boolean; onMore: (cursor: string) => void }) {
  const { t } = useI18n();
  const q = useQuery(PEOPLE, { first: PAGE, after: p.after });
  const info = q.data?.humans.pageInfo;
  return (
    <>
      {q.error ? (
        <tr>
          <td colSpan={4}>
            <ErrorBox error={q.error} />
          </td>
        </tr>
      ) : (
        !q.data && (
          <tr>
            <td colSpan={4}>
              <Loading what="people" />
            </td>
          </tr>
        )
      )}
      {p.after === null && q.data?.humans.edges.length === 0 && (
        <tr>
          <td colSpan={4}>
            <Empty>{t('access.people.empty')}</Empty>
          </td>
        </tr>
      )}
      {nodes(q.data?.humans).map((h) => (
        <PersonRow key={h.id} h={h} limit={p.limit} onChanged={() => void q.reload()} />
      ))}
      {p.last && info?.hasNextPage && info.endCursor && (
        <tr>
          <td colSpan={4} class="more">
            <button onClick={() => p.onMore(info.endCursor!)}>{t('access.people.showMore', { n: PAGE })}</button>
          </td>
        </tr>
      )}
    </>
  );
}

export function PeopleList(p: { limit: number }) {
  const { t } = useI18n();
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
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
        {cursors.map((after, i) => (
          <PeoplePage
            key={after ?? ''}
            after={after}
            limit={p.limit}
            last={i === cursors.length - 1}
            onMore={(c) => setCursors((cs) => [...cs, c])}
          />
        ))}
      </tbody>
    </table>
  );
}
