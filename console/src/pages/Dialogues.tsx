// Every dialogue, most recently active first, refreshed every few seconds (the API has no
// subscription across all dialogues; a dialogue's own page is live).
import { useState } from 'preact/hooks';
import { Link, navigate } from '../lib/router.js';
import { useQuery } from '../lib/hooks.js';
import { nodes, type Conn, type DialogueSummary } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Select, Time } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';

const QUERY = `query Dialogues($first: Int!, $platform: Platform, $type: DialogueType, $status: DialogueStatus) {
  dialogues(first: $first, platform: $platform, type: $type, status: $status) {
    edges { node { id title type status messageCount lastActivityAt createdAt
      chat { platform chatId threadId } humans { id displayName } agents { id name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const PAGE = 50;
const all = { value: '', label: 'All' };

export function Dialogues(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const platform = p.query.get('platform') ?? '';
  const type = p.query.get('type') ?? '';
  const [first, setFirst] = useState(PAGE);
  const q = useQuery<{ dialogues: Conn<DialogueSummary> }>(
    QUERY,
    { first, platform: platform || null, type: type || null, status: null },
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
              label="Platform"
              value={platform}
              options={[all, ...['telegram', 'discord', 'web'].map((v) => ({ value: v, label: v }))]}
              onChange={(v) => setFilter('platform', v)}
            />
            <Select
              label="Type"
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
          <ErrorBox
            error={q.error}
            title={q.data ? 'The list could not be refreshed' : 'The dialogues could not be loaded'}
          />
        </div>
        {!q.data ? (
          !q.error && <Loading what="dialogues" />
        ) : list.length === 0 ? (
          <Empty>No dialogues yet. They appear when someone talks to an agent.</Empty>
        ) : (
          <table class="table stack" data-testid="dialogue-list">
            <thead>
              <tr>
                <th scope="col">Dialogue</th>
                <th scope="col">Type</th>
                <th scope="col">Platform · chat</th>
                <th scope="col">People</th>
                <th scope="col">Agents</th>
                <th scope="col" class="num">
                  Messages
                </th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr class="clickable" onClick={() => navigate(`/dialogues/${encodeURIComponent(d.id)}`)}>
                  <td data-label="Dialogue">
                    <Link href={`/dialogues/${encodeURIComponent(d.id)}`} class="strong">
                      {d.title ?? <span class="muted">untitled</span>}
                    </Link>
                    <div class="muted mono small">{d.id}</div>
                  </td>
                  <td data-label="Type">
                    <Badge tone="plain">{d.type}</Badge> {d.status !== 'active' && <Badge>{d.status}</Badge>}
                  </td>
                  <td data-label="Platform · chat">
                    {d.chat.platform} <span class="muted mono small">{d.chat.chatId}</span>
                  </td>
                  <td data-label="People">
                    {d.humans.map((h) => h.displayName).join(', ') || <span class="muted">—</span>}
                  </td>
                  <td data-label="Agents">{d.agents.map((a) => a.name).join(', ')}</td>
                  <td data-label="Messages" class="num">
                    {d.messageCount}
                  </td>
                  <td data-label="Last activity">
                    <Time at={d.lastActivityAt} relative />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {q.data?.dialogues.pageInfo?.hasNextPage && (
          <div class="more">
            <button onClick={() => setFirst((n) => n + PAGE)}>Show {PAGE} more</button>
          </div>
        )}
      </Panel>
    </>
  );
}
