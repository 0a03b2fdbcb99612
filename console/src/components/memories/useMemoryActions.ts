// Why a hook: one memory's operator actions (edit, retire, visibility) share busy/error state apart from its view.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import type { MemoryView } from '../MemoryRow.js';

const RETIRE = graphql(`
  mutation Retire($id: ID!) {
    retireMemory(id: $id) {
      id
      status
    }
  }
`);
const EDIT = graphql(`
  mutation Edit($id: ID!, $text: String!) {
    editMemory(id: $id, text: $text) {
      id
    }
  }
`);
const VISIBILITY = graphql(`
  mutation Visibility($id: ID!, $v: MemoryVisibility!) {
    setMemoryVisibility(id: $id, visibility: $v) {
      id
      visibility
    }
  }
`);

/** Edit (a new entry replacing this one), retire and visibility, each reporting back through onChanged. */
export function useMemoryActions(m: MemoryView, onChanged: () => void) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(m.text);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      setEditing(false);
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return {
    editing,
    setEditing,
    text,
    setText,
    error,
    busy,
    edit: () => run(() => gql(EDIT, { id: m.id, text })),
    retire: () => run(() => gql(RETIRE, { id: m.id })),
    setVisibility: (v: MemoryView['visibility']) => run(() => gql(VISIBILITY, { id: m.id, v })),
  };
}

export type MemoryActionsState = ReturnType<typeof useMemoryActions>;
