// The model's Markdown → Telegram's HTML subset (core.telegram.org/bots/api#html-style). Pure.
// Telegram knows no paragraphs, headings or lists, so those become plain text with the same line
// breaks; everything not a tag we emit is escaped, so the result always parses unless the
// Markdown itself produces a nesting Telegram refuses (the outbound falls back to plain text).
// The visible text keeps the source's line breaks and drops the Markdown syntax, so it is almost
// never longer than the Markdown: a chunk split to 4096 Markdown characters still fits one
// message (and if it does not, the outbound's plain-text fallback does).
import { Lexer, type Token, type Tokens } from 'marked';

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => escapeHtml(s).replace(/"/g, '&quot;');

/** Where we are: some Telegram entities must not contain others. */
interface Ctx {
  inQuote: boolean;
  /** Inside b/i/s/a: code and pre may not be nested there. */
  inStyle: boolean;
  inLink: boolean;
  listDepth: number;
}
const TOP: Ctx = { inQuote: false, inStyle: false, inLink: false, listDepth: 0 };

export function markdownToTelegramHtml(markdown: string): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  return blocks(tokens, TOP)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const trailingNewlines = (raw: string): string => /\n*$/.exec(raw)?.[0] ?? '';

/** Blocks keep the source's own line breaks between them (raw ends with them), never more. */
function blocks(tokens: Token[], ctx: Ctx): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'space') {
      out += t.raw.replace(/[^\n]/g, '');
      continue;
    }
    out += block(t, ctx) + trailingNewlines(t.raw);
  }
  return out;
}

function block(t: Token, ctx: Ctx): string {
  switch (t.type) {
    case 'paragraph':
      return inline((t as Tokens.Paragraph).tokens, ctx);
    case 'text': {
      const x = t as Tokens.Text;
      return x.tokens ? inline(x.tokens, ctx) : escapeHtml(x.text);
    }
    case 'heading':
      return `<b>${inline((t as Tokens.Heading).tokens, { ...ctx, inStyle: true })}</b>`;
    case 'code':
      return codeBlock(t as Tokens.Code, ctx);
    case 'blockquote': {
      const inner = blocks((t as Tokens.Blockquote).tokens, { ...ctx, inQuote: true }).replace(/\n+$/, '');
      // Blockquotes cannot nest in Telegram: an inner one is just its text.
      return ctx.inQuote ? inner : `<blockquote>${inner}</blockquote>`;
    }
    case 'list':
      return list(t as Tokens.List, ctx);
    case 'table':
      return table(t as Tokens.Table, ctx);
    case 'hr':
      return '———';
    case 'html':
      return escapeHtml((t as Tokens.HTML).text.replace(/\n+$/, ''));
    case 'def':
      return ''; // a link reference definition; the links using it already carry the URL
    default:
      return escapeHtml(t.raw.replace(/\n+$/, ''));
  }
}

function codeBlock(t: Tokens.Code, ctx: Ctx): string {
  const code = escapeHtml(t.text);
  // pre may not sit inside another entity (a quote, a list item's styling): show it as text.
  if (ctx.inQuote || ctx.inStyle || ctx.inLink) return code;
  const lang = /^[\w#+.-]+/.exec(t.lang ?? '')?.[0];
  return lang ? `<pre><code class="language-${escapeAttr(lang)}">${code}</code></pre>` : `<pre>${code}</pre>`;
}

function list(t: Tokens.List, ctx: Ctx): string {
  const indent = '  '.repeat(ctx.listDepth);
  const start = typeof t.start === 'number' ? t.start : 1;
  const inner: Ctx = { ...ctx, listDepth: ctx.listDepth + 1 };
  const items = t.items.map((item, i) => {
    const checkbox = item.tokens.find((x): x is Tokens.Checkbox => x.type === 'checkbox');
    const task = checkbox ? (checkbox.checked ? '☑ ' : '☐ ') : '';
    const marker = t.ordered ? `${start + i}. ${task}` : task || '• ';
    let body = '';
    for (const x of item.tokens) {
      if (x.type === 'checkbox') continue;
      if (x.type === 'list') {
        body = body.replace(/\n*$/, '\n') + list(x as Tokens.List, inner);
        continue;
      }
      body += x.type === 'space' ? x.raw.replace(/[^\n]/g, '') : block(x, inner) + trailingNewlines(x.raw);
    }
    return indent + marker + body.replace(/\n+$/, '');
  });
  return items.join(t.loose ? '\n\n' : '\n');
}

/** Telegram has no tables: one line per row, cells separated by a bar, the header bold. */
function table(t: Tokens.Table, ctx: Ctx): string {
  const row = (cells: Tokens.TableCell[], bold: boolean) =>
    cells
      .map((c) => (bold ? `<b>${inline(c.tokens, { ...ctx, inStyle: true })}</b>` : inline(c.tokens, ctx)))
      .join(' | ');
  return [row(t.header, true), ...t.rows.map((r) => row(r, false))].join('\n');
}

const SAFE_URL = /^(https?:\/\/|mailto:|tg:\/\/)/i;

function inline(tokens: Token[] | undefined, ctx: Ctx): string {
  if (!tokens) return '';
  return tokens.map((t) => inlineOne(t, ctx)).join('');
}

function inlineOne(t: Token, ctx: Ctx): string {
  const styled = (tag: string, x: { tokens: Token[] }) =>
    `<${tag}>${inline(x.tokens, { ...ctx, inStyle: true })}</${tag}>`;
  switch (t.type) {
    case 'text': {
      const x = t as Tokens.Text;
      return x.tokens ? inline(x.tokens, ctx) : escapeHtml(x.text);
    }
    case 'escape':
      return escapeHtml((t as Tokens.Escape).text);
    case 'strong':
      return styled('b', t as Tokens.Strong);
    case 'em':
      return styled('i', t as Tokens.Em);
    case 'del':
      return styled('s', t as Tokens.Del);
    case 'codespan': {
      const code = escapeHtml((t as Tokens.Codespan).text);
      return ctx.inStyle || ctx.inLink ? code : `<code>${code}</code>`;
    }
    case 'br':
      return '\n';
    case 'link': {
      const x = t as Tokens.Link;
      const label = inline(x.tokens, { ...ctx, inLink: true });
      return SAFE_URL.test(x.href) && !ctx.inLink ? `<a href="${escapeAttr(x.href)}">${label}</a>` : label;
    }
    case 'image': {
      const x = t as Tokens.Image;
      const label = escapeHtml(x.text || 'image');
      return SAFE_URL.test(x.href) && !ctx.inLink ? `<a href="${escapeAttr(x.href)}">${label}</a>` : label;
    }
    case 'html': {
      const raw = (t as Tokens.Tag).text;
      return /^<br\s*\/?>$/i.test(raw) ? '\n' : escapeHtml(raw);
    }
    default:
      return escapeHtml(t.raw);
  }
}

/** What Telegram shows for HTML we produced: tags dropped, the four entities decoded. */
export function telegramHtmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
