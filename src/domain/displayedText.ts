// What people saw of a message (one home for the web channel's views and streams): a reply that
// is still streaming shows what it has so far; once it ended, what it was shown as, which can
// differ from what the model said (director markers hidden, an uncited source dropped).
import type { Message } from './model.js';

export const displayedText = (m: Pick<Message, 'content' | 'delivery'>): string =>
  !m.delivery || m.delivery.state === 'streaming' ? m.content : (m.delivery.shown ?? m.content);
