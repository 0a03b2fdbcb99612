// Splits a text into platform-sized chunks, preferring paragraph, then line, then sentence,
// then word boundaries. Pure; deterministic, so re-splitting a growing text is stable for
// every chunk except the last.
const BOUNDARIES = ['\n\n', '\n', '. ', '。', '! ', '? ', '！', '？', ' '];

export function splitForPlatform(text: string, limit: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while ([...rest].length > limit) {
    const window = [...rest].slice(0, limit).join('');
    let cut = -1;
    for (const b of BOUNDARIES) {
      const at = window.lastIndexOf(b);
      // Do not make tiny chunks: a boundary in the first half is not worth it.
      if (at >= window.length / 2) {
        cut = at + b.length;
        break;
      }
    }
    if (cut <= 0) cut = window.length;
    chunks.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}
