// Chat commands (`/stop`, `/stop@MyBot args`). Pure parsing; what a command does lives in ingest.
export interface Command {
  name: string;
  args: string;
}

export function parseCommand(text: string | undefined, botUsername?: string): Command | null {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,64}))?(?:\s+([\s\S]*))?$/.exec((text ?? '').trim());
  if (!m?.[1]) return null;
  // `/cmd@OtherBot` in a group is addressed to another bot.
  if (m[2] && botUsername && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  return { name: m[1].toLowerCase(), args: (m[3] ?? '').trim() };
}

/** `/answerall off` (or 关) switches a group back to answering only when addressed; anything else turns it on. */
export const answerAllWanted = (args: string): boolean => !/^(off|no|0|关|关闭)$/i.test(args.trim());

/** What `/background ARGS` asks for: the list, leaving the story, or one background by number or name. */
export type BackgroundRequest =
  { kind: 'list' } | { kind: 'off' } | { kind: 'pick'; n: number } | { kind: 'name'; name: string };

export function backgroundRequest(args: string): BackgroundRequest {
  const a = args.trim();
  if (!a) return { kind: 'list' };
  if (/^(off|none|关|关闭|无)$/i.test(a)) return { kind: 'off' };
  if (/^\d{1,3}$/.test(a)) return { kind: 'pick', n: Number(a) };
  return { kind: 'name', name: a };
}
