// An operator's message into a dialogue's chat (postMessage): checked like user input by the
// API, sent to the platform and recorded as a system message; no AI reply follows.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql, type VariablesOf } from '../lib/graphql.js';
import { useI18n } from '../lib/i18n.js';

const POST = graphql(`
  mutation Post($dialogueId: ID!, $text: String!, $as: PostMessageAs!) {
    postMessage(dialogueId: $dialogueId, text: $text, as: $as) {
      id
    }
  }
`);

export function PostMessage(p: { dialogueId: string; onPosted: () => void }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [as, setAs] = useState<VariablesOf<typeof POST>['as']>('OPERATOR');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await gql(POST, { dialogueId: p.dialogueId, text, as });
      setText('');
      p.onPosted();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="post-message" onSubmit={send}>
      <textarea
        rows={2}
        placeholder={t('post.placeholder')}
        aria-label={t('post.placeholder')}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="row">
        <select value={as} aria-label={t('post.as')} onChange={(e) => setAs(e.currentTarget.value as typeof as)}>
          <option value="OPERATOR">{t('post.asOperator')}</option>
          <option value="SYSTEM">{t('post.asSystem')}</option>
        </select>
        <button type="submit" disabled={busy || !text.trim()}>
          {busy ? t('post.sending') : t('post.submit')}
        </button>
      </div>
      {error && <div class="field-error">{error}</div>}
    </form>
  );
}
