// The transcript's blocks as Markdown: `#` title, `##` per session, a bold sender line per
// message, the text as written, quotes as `>` blocks, media and marks in italics. Pure; the
// exporter appends block by block, so the text is built once without keeping the messages.
import type { Message, Session } from '../domain/model.js';
import { TranscriptBlocks, headerBlocks, type Block, type ExportHeader, type RenderContext } from './exportBlocks.js';

/**
 * Escapes what would turn a line we compose (names, marks, ids) into Markdown syntax or HTML, and
 * nothing more, so the raw file stays readable: `dlg_1` keeps its underscore (inside a word it is
 * no emphasis), `_x_` does not.
 */
const escapeInline = (t: string) =>
  t.replace(/[\\`*<|]/g, '\\$&').replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_');
const quoteLines = (t: string) =>
  t
    .split('\n')
    .map((l) => (l.trim() ? `> ${l}` : '>'))
    .join('\n');

export function blockToMarkdown(b: Block): string {
  switch (b.kind) {
    case 'title':
      return `# ${escapeInline(b.text)}\n\n`;
    case 'meta':
      return `${b.lines.map((l) => `- ${escapeInline(l)}`).join('\n')}\n\n`;
    case 'session':
      return `## ${escapeInline(b.text)}\n\n`;
    case 'sender':
      return `**${escapeInline(b.text)}**\n\n`;
    case 'body':
      return `${b.text.trim()}\n\n`;
    case 'quote':
      return `${quoteLines(b.text.trim())}\n\n`;
    case 'media':
    case 'mark':
      // One paragraph in italics; a document's text keeps its lines as a quote below the label.
      return b.text.includes('\n') ? `${quoteLines(b.text.trim())}\n\n` : `*${escapeInline(b.text.trim())}*\n\n`;
  }
}

export const blocksToMarkdown = (blocks: readonly Block[]): string => blocks.map(blockToMarkdown).join('');

/** A whole transcript from data in memory (small dialogues, tests); the exporter streams instead. */
export function renderMarkdown(
  header: ExportHeader,
  sessions: readonly Session[],
  messages: Iterable<Message>,
  ctx: RenderContext,
): string {
  const transcript = new TranscriptBlocks(sessions, ctx);
  let out = blocksToMarkdown(headerBlocks(header));
  for (const m of messages) out += blocksToMarkdown(transcript.of(m));
  return out;
}
