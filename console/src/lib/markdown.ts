// Markdown in chat bubbles (agents answer in it), rendered with `marked` and made safe twice:
// raw HTML in a message is escaped to text at parse time, and the output then passes an allowlist
// of tags and attributes, so a message can never run script or load a resource in the console.
import { Marked, type Tokens } from 'marked';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** http(s), mailto and in-console paths; anything else (javascript:, data:…) is dropped. */
function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^(https?:|mailto:)/i.test(h)) return h;
  return /^[/#?]/.test(h) && !h.startsWith('//') ? h : null;
}

const md = new Marked({ gfm: true, breaks: true, async: false });
md.use({
  renderer: {
    // Raw HTML written in a message is shown as the characters typed, never as markup.
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    // Images become links: an <img> would fetch from wherever a message points, unasked.
    image: ({ href, text }: Tokens.Image) => {
      const url = safeHref(href);
      const label = escapeHtml(text || href);
      return url ? `<a href="${escapeHtml(url)}">${label}</a>` : label;
    },
    link({ href, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const url = safeHref(href);
      return url ? `<a href="${escapeHtml(url)}">${inner}</a>` : inner;
    },
  },
});

const TAGS = new Set([
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'input',
]);
// Content of these goes with them; other unknown tags are unwrapped so their text stays readable.
const DROP = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'svg', 'math', 'img']);

function clean(parent: Element | DocumentFragment): void {
  for (const el of [...parent.children]) {
    const tag = el.tagName.toLowerCase();
    if (DROP.has(tag)) {
      el.remove();
      continue;
    }
    clean(el);
    if (!TAGS.has(tag)) {
      el.replaceWith(...el.childNodes);
      continue;
    }
    for (const a of [...el.attributes]) {
      const keep =
        (tag === 'a' && a.name === 'href' && safeHref(a.value) !== null) ||
        (tag === 'ol' && a.name === 'start') ||
        (tag === 'code' && a.name === 'class' && /^language-[\w-]+$/.test(a.value)) ||
        ((tag === 'th' || tag === 'td') && a.name === 'align') ||
        (tag === 'input' && (a.name === 'type' || a.name === 'checked' || a.name === 'disabled'));
      if (!keep) el.removeAttribute(a.name);
    }
    if (tag === 'input' && el.getAttribute('type') !== 'checkbox') el.remove();
    if (tag === 'a') {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
}

/** Safe HTML for a message's Markdown. A <template> parses inertly: nothing in it loads or runs. */
export function renderMarkdown(text: string): string {
  const html = md.parse(text) as string;
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  clean(tpl.content);
  return tpl.innerHTML;
}
