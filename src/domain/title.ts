// FR-007 / BR-003: a dialogue's title is made from its first message.
const TITLE_MAX = 40;

export function titleFromFirstMessage(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  if (chars.length <= TITLE_MAX) return line;
  return `${chars
    .slice(0, TITLE_MAX - 1)
    .join('')
    .trimEnd()}…`;
}
