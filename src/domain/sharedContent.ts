// What people share besides text and files — a place, a contact, a poll, a dice roll, a game,
// an invoice, a story, a bot's embed card — and where a forward came from, as the text the model
// reads. Adapters only translate the platform's fields into these shapes; the wording is decided
// here, once for every platform. Pure.

export type SharedItem =
  | { kind: 'location'; latitude: number; longitude: number; live?: boolean }
  | { kind: 'venue'; title: string; address: string; latitude: number; longitude: number }
  | { kind: 'contact'; name: string; phone?: string }
  | {
      kind: 'poll';
      question: string;
      options: string[];
      quiz?: boolean;
      multipleAnswers?: boolean;
      closed?: boolean;
    }
  | { kind: 'dice'; emoji: string; value: number }
  | { kind: 'game'; title: string; description?: string }
  /** Amounts in the currency's smallest unit, as payment APIs carry them. */
  | { kind: 'invoice'; title: string; description?: string; amount: number; currency: string }
  | { kind: 'payment'; amount: number; currency: string }
  | { kind: 'story'; from?: string }
  | {
      kind: 'embed';
      title?: string;
      description?: string;
      author?: string;
      fields: Array<{ name: string; value: string }>;
      footer?: string;
      url?: string;
    };

/** Where a forwarded message came from; `name` absent when the platform does not say. */
export interface ForwardOrigin {
  name?: string;
  /** The post's author signature in a channel or an anonymous admin's. */
  signature?: string;
}

/** ISO 4217 currencies without minor units (and Telegram Stars); the rest have two. */
const ZERO_DECIMALS = new Set(['XTR', 'JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'PYG', 'XAF', 'XOF', 'RWF', 'KMF']);

export function formatAmount(amount: number, currency: string): string {
  const c = currency.toUpperCase();
  return ZERO_DECIMALS.has(c) ? `${amount} ${c}` : `${(amount / 100).toFixed(2)} ${c}`;
}

const coords = (lat: number, lon: number) => `${lat.toFixed(4)}, ${lon.toFixed(4)}`;
const quoted = (s: string) => `"${s.trim()}"`;

/** One shared item as a bracketed line the model can read. */
export function renderSharedItem(i: SharedItem): string {
  switch (i.kind) {
    case 'location':
      return `[${i.live ? 'live location' : 'location'} ${coords(i.latitude, i.longitude)}]`;
    case 'venue':
      return `[venue ${quoted(i.title)}, ${i.address} (${coords(i.latitude, i.longitude)})]`;
    case 'contact':
      return `[contact: ${i.name}${i.phone ? `, ${i.phone}` : ''}]`;
    case 'poll': {
      const what = [i.closed ? 'closed' : '', i.quiz ? 'quiz' : 'poll'].filter(Boolean).join(' ');
      const multi = i.multipleAnswers ? ', several answers allowed' : '';
      return `[${what} ${quoted(i.question)}${multi} — options: ${i.options.map(quoted).join(' / ')}]`;
    }
    case 'dice':
      return `[${i.emoji} dice rolled: ${i.value}]`;
    case 'game':
      return `[game ${quoted(i.title)}${i.description ? `: ${i.description.trim()}` : ''}]`;
    case 'invoice':
      return `[invoice ${quoted(i.title)}${i.description ? `: ${i.description.trim()}` : ''} — ${formatAmount(i.amount, i.currency)}]`;
    case 'payment':
      return `[payment completed: ${formatAmount(i.amount, i.currency)}]`;
    case 'story':
      return `[a story${i.from ? ` from ${i.from}` : ''}]`;
    case 'embed':
      return renderEmbed(i);
  }
}

function renderEmbed(e: Extract<SharedItem, { kind: 'embed' }>): string {
  const lines = [
    e.author ? `by ${e.author.trim()}` : '',
    e.title?.trim() ?? '',
    e.description?.trim() ?? '',
    ...e.fields.map((f) => `${f.name.trim()}: ${f.value.trim()}`),
    e.footer?.trim() ?? '',
    e.url && !e.title ? e.url : '',
  ].filter((l) => l !== '');
  return lines.length === 0 ? '[card without text]' : `[card: ${lines.join('\n')}]`;
}

export function renderForwardOrigin(o: ForwardOrigin): string {
  if (!o.name) return o.signature ? `[forwarded, signed ${o.signature}]` : '[forwarded message]';
  return `[forwarded from ${o.name}${o.signature ? ` (${o.signature})` : ''}]`;
}

/**
 * A message's text with what it shares and where it was forwarded from, as the model reads it:
 * "[forwarded from X] [poll …]\ntext". Undefined when there is nothing at all.
 */
export function textWithShared(
  text: string | undefined,
  shared: readonly SharedItem[],
  forward?: ForwardOrigin,
): string | undefined {
  if (shared.length === 0 && !forward) return text;
  const body = [...shared.map(renderSharedItem), text?.trim() ?? ''].filter((s) => s !== '').join('\n');
  if (!forward) return body;
  return body === '' ? renderForwardOrigin(forward) : `${renderForwardOrigin(forward)} ${body}`;
}
