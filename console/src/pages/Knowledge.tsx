// An agent's knowledge documents (txt, md, pdf): what is stored and how it was chunked; operators
// upload and delete. Uploads travel as base64 in the GraphQL mutation.
import { useQuery } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes } from '../lib/types.js';
import { Empty, ErrorBox, Loading, PageHeader, Panel, ReadOnlyNote, Select } from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { AGENTS } from '../lib/agentList.js';
import { useKnowledge } from '../components/knowledge/useKnowledge.js';
import { UploadPanel } from '../components/knowledge/UploadPanel.js';
import { DocumentsTable } from '../components/knowledge/DocumentsTable.js';

export function Knowledge(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const agentId = p.query.get('agent') ?? agents[0]?.id ?? '';
  const k = useKnowledge(agentId);
  const { docs, list } = k;
  return (
    <>
      <PageHeader
        title={t('knowledge.title')}
        sub={t('knowledge.sub')}
        actions={
          <Select
            label={t('th.agent')}
            value={agentId}
            options={agents.map((a) => ({ value: a.id, label: a.name }))}
            onChange={(v) => navigate(`/knowledge?agent=${encodeURIComponent(v)}`, { replace: true })}
          />
        }
      />
      {!canAct && <ReadOnlyNote needs="operator" />}
      {canAct && agentId && (
        <UploadPanel input={k.input} busy={k.busy} error={k.error} done={k.done} onSubmit={k.upload} />
      )}
      <ErrorBox error={docs.error} />
      <Panel title={`${t('knowledge.documents')}${list.length ? ` (${list.length})` : ''}`}>
        {!agentId ? (
          <Empty>{t('common.noAgents')}</Empty>
        ) : !docs.data ? (
          <Loading what="documents" />
        ) : list.length === 0 ? (
          <Empty>{t('knowledge.empty')}</Empty>
        ) : (
          <DocumentsTable list={list} canAct={canAct} onRemove={k.remove} />
        )}
      </Panel>
    </>
  );
}
