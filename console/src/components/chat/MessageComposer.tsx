// The text box under a chat log, shared by the chat page and a room's web view: Enter sends
// (isSendEnter), the buttons beside it are the caller's.
import type { ComponentChildren } from 'preact';
import { isSendEnter } from '../../lib/keys.js';

export function MessageComposer(p: {
  value: string;
  placeholder: string;
  testId: string;
  onInput: (text: string) => void;
  onSubmit: (e: Event) => void;
  children: ComponentChildren;
}) {
  return (
    <form class="chat-input" onSubmit={p.onSubmit}>
      <textarea
        rows={2}
        placeholder={p.placeholder}
        value={p.value}
        data-testid={p.testId}
        onInput={(e) => p.onInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (isSendEnter(e)) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      {p.children}
    </form>
  );
}
