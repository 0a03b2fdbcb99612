// An operator's message into a dialogue's chat (postMessage): checked like user input by the
// API, sent to the platform and recorded as a system message; no AI reply follows.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';

const POST = `mutation Post($dialogueId: ID!, $text: String!, $as: PostMessageAs!) {
  postMessage(dialogueId: $dialogueId, text: $text, as: $as) { id }
}`;

export function PostMessage(p: { dialogueId: string; onPosted: () => void }) {
  const [text, setText] = useState('');
  const [as, setAs] = useState<'OPERATOR' | 'SYSTEM'>('OPERATOR');
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
        placeholder="Post into the chat as the operator (no AI reply follows)"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="row">
        <select value={as} onChange={(e) => setAs(e.currentTarget.value as typeof as)}>
          <option value="OPERATOR">as operator</option>
          <option value="SYSTEM">as system</option>
        </select>
        <button type="submit" disabled={busy || !text.trim()}>
          {busy ? 'Sending…' : 'Post'}
        </button>
      </div>
      {error && <div class="field-error">{error}</div>}
    </form>
  );
}
