// Splits a text into platform-sized chunks, preferring paragraph, then line, then sentence,
// then word boundaries. Pure; deterministic, so re-splitting a growing text is stable for
// every chunk except the last. Lengths are UTF-16 code units — what Telegram's 4096 and
// Discord's 2000 limits count — and a surrogate pair (emoji) is never cut in half.
const BOUNDARIES = ['\n\n', '\n', '. ', '。', '! ', '? ', '！', '？', ' '];

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export function splitForPlatform(text: string, limit: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const end = isHighSurrogate(rest.charCodeAt(limit - 1)) ? limit - 1 : limit;
    const window = rest.slice(0, end);
    let cut = end;
    for (const b of BOUNDARIES) {
      const at = window.lastIndexOf(b);
      // Do not make tiny chunks: a boundary in the first half is not worth it.
      if (at >= window.length / 2) {
        cut = at + b.length;
        break;
      }
    }
    const chunk = rest.slice(0, cut).trimEnd();
    if (chunk.length > 0) chunks.push(chunk);
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}
