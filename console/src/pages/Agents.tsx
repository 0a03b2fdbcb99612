// Agents without GraphQL: the list, a form for a new one, and each agent's page to edit it, give
// it its own bot and set when it reflects.
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { useI18n } from '../lib/i18n.js';
import { Link, navigate } from '../lib/router.js';
import { AgentFields, type AgentDetail } from '../lib/setupTypes.js';
import { nodes } from '../lib/types.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel } from '../components/ui.js';
import { AgentForm } from '../components/setup/AgentForm.js';
import { AgentBotForm } from '../components/setup/AgentBotForm.js';
import { ReflectionScheduleForm } from '../components/setup/ReflectionScheduleForm.js';

const LIST = graphql(
  `
    query SetupAgents {
      agents(first: 100) {
        edges {
          node {
            ...AgentFields
          }
        }
      }
    }
  `,
  [AgentFields],
);
const ONE = graphql(
  `
    query SetupAgent($id: ID!) {
      agent(id: $id) {
        ...AgentFields
      }
    }
  `,
  [AgentFields],
);

// Not /agents: that path belongs to the external agents' HTTP endpoints (app/http/console.ts).
const agentHref = (id: string) => `/setup/agents/${encodeURIComponent(id)}`;

function AgentTable(p: { agents: AgentDetail[] }) {
  const { t } = useI18n();
  if (p.agents.length === 0) return <Empty>{t('setup.agents.empty')}</Empty>;
  return (
    <table class="table stack" data-testid="agents-table">
      <thead>
        <tr>
          <th scope="col">{t('setup.agents.name')}</th>
          <th scope="col">{t('setup.agents.aliases')}</th>
          <th scope="col">{t('setup.bot.title')}</th>
        </tr>
      </thead>
      <tbody>
        {p.agents.map((a) => (
          <tr class="clickable" onClick={() => navigate(agentHref(a.id))}>
            <td data-label={t('setup.agents.name')}>
              <Link href={agentHref(a.id)} class="strong">
                {a.name}
              </Link>{' '}
              {a.isDefault && <Badge tone="info">{t('setup.agents.default')}</Badge>}
            </td>
            <td data-label={t('setup.agents.aliases')}>{a.aliases.join(', ') || '—'}</td>
            <td data-label={t('setup.bot.title')}>
              {a.bindings.map((b) => (b.username ? `@${b.username}` : `${b.platform}:${b.userId}`)).join(', ') || '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Agents() {
  const { t } = useI18n();
  const q = useQuery(LIST);
  return (
    <>
      <PageHeader title={t('setup.agents.title')} sub={t('setup.agents.sub')} />
      <ErrorBox error={q.error} />
      <div class="grid-2 setup-grid">
        <Panel title={t('setup.agents.list')}>
          {q.data ? <AgentTable agents={nodes(q.data.agents)} /> : <Loading />}
        </Panel>
        <Panel title={t('setup.agents.new')}>
          <AgentForm mode="create" onSaved={(a) => navigate(agentHref(a.id))} />
        </Panel>
      </div>
    </>
  );
}

export function AgentPage(p: { id: string }) {
  const { t } = useI18n();
  const q = useQuery(ONE, { id: p.id });
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  const a = q.data.agent;
  return (
    <>
      <PageHeader
        title={a.name}
        sub={
          <>
            <Link href="/setup/agents">{t('setup.agents.back')}</Link> · <span class="mono">{a.id}</span>
          </>
        }
      />
      <div class="grid-2 setup-grid">
        <Panel title={t('setup.agents.edit')}>
          <AgentForm key={a.id} mode="edit" agent={a} onSaved={() => void q.reload()} />
        </Panel>
        <div>
          <Panel title={t('setup.bot.title')}>
            <AgentBotForm agent={a} onChanged={() => void q.reload()} />
          </Panel>
          <Panel title={t('setup.schedule.title')}>
            <ReflectionScheduleForm agentId={a.id} />
          </Panel>
        </div>
      </div>
    </>
  );
}
