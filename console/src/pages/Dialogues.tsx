// Every dialogue, most recently active first, refreshed every few seconds (the API has no
// subscription across all dialogues; a dialogue's own page is live).
import { useState } from 'preact/hooks';
import { Link, navigate } from '../lib/router.js';
import { graphql, type VariablesOf } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { DialogueSummaryFields, nodes } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Select, StatusBadge, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

const QUERY = graphql(
  `
    query Dialogues($first: Int!, $platform: Platform, $type: DialogueType, $status: DialogueStatus) {
      dialogues(first: $first, platform: $platform, type: $type, status: $status) {
        edges {
          node {
            ...DialogueSummaryFields
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [DialogueSummaryFields],
);
type Filters = VariablesOf<typeof QUERY>;

const PAGE = 50;

export function Dialogues(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const all = { value: '', label: t('common.all') };
  const platform = p.query.get('platform') ?? '';
  const type = p.query.get('type') ?? '';
  const [first, setFirst] = useState(PAGE);
  const q = useQuery(
    QUERY,
    // Filters from the address: a value the API does not know is refused, shown as the list's error.
    {
      first,
      platform: (platform || null) as Filters['platform'],
      type: (type || null) as Filters['type'],
      status: null,
    },
    { pollMs: 5000 },
  );
  const setFilter = (k: string, v: string) => {
    const next = new URLSearchParams(p.query);
    if (v) next.set(k, v);
    else next.delete(k);
    navigate(`/dialogues${next.size ? `?${next.toString()}` : ''}`, { replace: true });
  };
  const list = nodes(q.data?.dialogues);
  return (
    <>
      <PageHeader
        title={t('dialogues.title')}
        sub={t('dialogues.sub')}
        actions={
          <>
            <Select
              label={t('th.platform')}
              value={platform}
              options={[all, ...['telegram', 'discord', 'web'].map((v) => ({ value: v, label: v }))]}
              onChange={(v) => setFilter('platform', v)}
            />
            <Select
              label={t('th.type')}
              value={type}
              options={[
                all,
                ...['human_ai', 'group', 'lio_group', 'ai_ai', 'ai_self'].map((v) => ({ value: v, label: v })),
              ]}
              onChange={(v) => setFilter('type', v)}
            />
          </>
        }
      />
      <Panel>
        {/* Where the list would be: a failed refresh is named, never an endless "Loading…". */}
        <div data-testid="dialogues-error">
          <ErrorBox error={q.error} title={q.data ? t('dialogues.refreshFailed') : t('dialogues.loadFailed')} />
        </div>
        {!q.data ? (
          !q.error && <Loading what="dialogues" />
        ) : list.length === 0 ? (
          <Empty>{t('dialogues.empty')}</Empty>
        ) : (
          <table class="table stack" data-testid="dialogue-list">
            <thead>
              <tr>
                <th scope="col">{t('th.dialogue')}</th>
                <th scope="col">{t('th.type')}</th>
                <th scope="col">{t('th.platformChat')}</th>
                <th scope="col">{t('th.people')}</th>
                <th scope="col">{t('th.agents')}</th>
                <th scope="col" class="num">
                  {t('th.messages')}
                </th>
                <th scope="col">{t('th.lastActivity')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr class="clickable" onClick={() => navigate(`/dialogues/${encodeURIComponent(d.id)}`)}>
                  <td data-label={t('th.dialogue')}>
                    <Link href={`/dialogues/${encodeURIComponent(d.id)}`} class="strong">
                      {d.title ?? <span class="muted">{t('common.untitled')}</span>}
                    </Link>
                    <div class="muted mono small">{d.id}</div>
                  </td>
                  <td data-label={t('th.type')}>
                    <Badge tone="plain">{d.type}</Badge> {d.status !== 'active' && <StatusBadge status={d.status} />}
                  </td>
                  <td data-label={t('th.platformChat')}>
                    {d.chat.platform} <span class="muted mono small">{d.chat.chatId}</span>
                  </td>
                  <td data-label={t('th.people')}>
                    {d.humans.map((h) => h.displayName).join(', ') || <span class="muted">—</span>}
                  </td>
                  <td data-label={t('th.agents')}>{d.agents.map((a) => a.name).join(', ')}</td>
                  <td data-label={t('th.messages')} class="num">
                    {d.messageCount}
                  </td>
                  <td data-label={t('th.lastActivity')}>
                    <Time at={d.lastActivityAt} relative />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {q.data?.dialogues.pageInfo?.hasNextPage && (
          <div class="more">
            <button onClick={() => setFirst((n) => n + PAGE)}>{t('dialogues.showMore', { n: PAGE })}</button>
          </div>
        )}
      </Panel>
    </>
  );
}
