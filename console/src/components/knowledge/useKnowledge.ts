// Why a hook: the page only lays out; this holds an agent's documents and the upload/delete state.
import { useRef, useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { graphql, type ResultOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { base64Of, mimeOf } from '../../lib/upload.js';

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

export type DocumentView = ResultOf<typeof DOCUMENTS>['documents'][number];

/** The agent's documents, and upload (the picked file, as base64) and delete with their outcome. */
export function useKnowledge(agentId: string) {
  const { t } = useI18n();
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

  return { docs, list: docs.data?.documents ?? [], input, busy, error, done, upload, remove };
}
