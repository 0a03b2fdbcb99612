// An agent's knowledge documents (txt, md, pdf): what is stored and how it was chunked; operators
// upload and delete. Uploads travel as base64 in the GraphQL mutation.
import { useRef, useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql, type ResultOf } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { formatNumber } from '../lib/time.js';
import { useCan } from '../lib/viewerContext.js';
import { nodes } from '../lib/types.js';
import {
  Empty,
  ErrorBox,
  Loading,
  PageHeader,
  Panel,
  ReadOnlyNote,
  Select,
  StatusBadge,
  Time,
} from '../components/ui.js';
import { useI18n } from '../lib/i18n.js';
import { AGENTS } from '../lib/agentList.js';
import { translate } from '../lib/locale.js';

const DOCUMENTS = graphql(`
  query Documents($agentId: ID!) {
    documents(agentId: $agentId) {
      id
      name
      type
      mime
      size
      chunkCount
      status
      createdAt
    }
  }
`);
const UPLOAD = graphql(`
  mutation Upload($agentId: ID!, $name: String!, $mime: String!, $content: String!) {
    uploadDocument(agentId: $agentId, name: $name, mime: $mime, contentBase64: $content) {
      id
      name
      status
      chunkCount
    }
  }
`);
const DELETE = graphql(`
  mutation Delete($id: ID!) {
    deleteDocument(id: $id) {
      id
      chunksDeleted
    }
  }
`);

type DocumentView = ResultOf<typeof DOCUMENTS>['documents'][number];

const ACCEPT = '.txt,.md,.markdown,.pdf,text/plain,text/markdown,application/pdf';

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result.replace(/^data:[^,]*,/, '') : '');
    r.onerror = () => reject(new Error(translate('knowledge.fileUnreadable')));
    r.readAsDataURL(file);
  });
}

function mimeOf(file: File): string {
  if (file.type) return file.type;
  if (/\.pdf$/i.test(file.name)) return 'application/pdf';
  if (/\.(md|markdown)$/i.test(file.name)) return 'text/markdown';
  return 'text/plain';
}

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`;

export function Knowledge(p: { query: URLSearchParams }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const agents = nodes(useQuery(AGENTS).data?.agents);
  const agentId = p.query.get('agent') ?? agents[0]?.id ?? '';
  const docs = useQuery(DOCUMENTS, { agentId }, { skip: !agentId });
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const upload = async (e: Event) => {
    e.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return setError(t('knowledge.chooseFile'));
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const r = await gql(UPLOAD, {
        agentId,
        name: file.name,
        mime: mimeOf(file),
        content: await base64Of(file),
      });
      setDone(t('knowledge.stored', { name: r.uploadDocument.name, n: r.uploadDocument.chunkCount }));
      if (input.current) input.current.value = '';
      await docs.reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (d: DocumentView) => {
    if (!confirm(t('knowledge.deleteConfirm', { name: d.name }))) return;
    try {
      await gql(DELETE, { id: d.id });
      await docs.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const list = docs.data?.documents ?? [];
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
        <Panel title={t('knowledge.upload')}>
          <form class="row" onSubmit={upload}>
            <input ref={input} type="file" accept={ACCEPT} data-testid="knowledge-file" />
            <button class="primary" type="submit" disabled={busy} data-testid="knowledge-upload">
              {busy ? t('knowledge.uploading') : t('knowledge.upload')}
            </button>
          </form>
          {error && (
            <div class="field-error" role="alert">
              {error}
            </div>
          )}
          {done && (
            <div class="notice" data-testid="knowledge-done">
              {done}
            </div>
          )}
        </Panel>
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
          <table class="table stack" data-testid="documents">
            <thead>
              <tr>
                <th scope="col">{t('th.name')}</th>
                <th scope="col">{t('th.type')}</th>
                <th scope="col" class="num">
                  {t('th.size')}
                </th>
                <th scope="col" class="num">
                  {t('th.chunks')}
                </th>
                <th scope="col">{t('th.status')}</th>
                <th scope="col">{t('th.uploaded')}</th>
                {canAct && <th scope="col" />}
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr data-testid="document">
                  <td data-label={t('th.name')} class="strong">
                    {d.name}
                  </td>
                  <td data-label={t('th.type')}>
                    {d.type} <span class="muted small">{d.mime}</span>
                  </td>
                  <td data-label={t('th.size')} class="num">
                    {size(d.size)}
                  </td>
                  <td data-label={t('th.chunks')} class="num">
                    {formatNumber(d.chunkCount)}
                  </td>
                  <td data-label={t('th.status')}>
                    <StatusBadge status={d.status} />
                  </td>
                  <td data-label={t('th.uploaded')}>
                    <Time at={d.createdAt} />
                  </td>
                  {canAct && (
                    <td class="num">
                      <button class="small danger" onClick={() => remove(d)}>
                        {t('common.delete')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}
