// Why a component: the upload form and its outcome (error or stored notice) are one job apart from the list.
import type { RefObject } from 'preact';
import { useI18n } from '../../lib/i18n.js';
import { Panel } from '../ui.js';

const ACCEPT = '.txt,.md,.markdown,.pdf,text/plain,text/markdown,application/pdf';

export function UploadPanel(p: {
  input: RefObject<HTMLInputElement | null>;
  busy: boolean;
  error: string | null;
  done: string | null;
  onSubmit: (e: Event) => unknown;
}) {
  const { t } = useI18n();
  return (
    <Panel title={t('knowledge.upload')}>
      <form class="row" onSubmit={p.onSubmit}>
        <input ref={p.input} type="file" accept={ACCEPT} data-testid="knowledge-file" />
        <button class="primary" type="submit" disabled={p.busy} data-testid="knowledge-upload">
          {p.busy ? t('knowledge.uploading') : t('knowledge.upload')}
        </button>
      </form>
      {p.error && (
        <div class="field-error" role="alert">
          {p.error}
        </div>
      )}
      {p.done && (
        <div class="notice" data-testid="knowledge-done">
          {p.done}
        </div>
      )}
    </Panel>
  );
}
