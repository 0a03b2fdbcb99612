// The model's Markdown as Telegram HTML: what the user sees, and that Telegram accepts it.
// parseTelegramHtml is the fake Bot API's parser (Telegram's HTML rules and error messages).
import { describe, expect, it } from 'vitest';
import { escapeHtml, markdownToTelegramHtml, telegramHtmlToText } from '../../adapters/telegram/format.js';
import { parseTelegramHtml } from '../doubles/fakeTelegram.js';

const html = markdownToTelegramHtml;

describe('Markdown → Telegram HTML', () => {
  it('leaves plain text as it is, escaping &, < and >', () => {
    expect(html('Hello there, Ada. How can I help?')).toBe('Hello there, Ada. How can I help?');
    expect(html('if a < b && c > d then <b>not a tag</b>')).toBe(
      'if a &lt; b &amp;&amp; c &gt; d then &lt;b&gt;not a tag&lt;/b&gt;',
    );
    expect(html('AT&amp;T')).toBe('AT&amp;amp;T'); // shown exactly as the model wrote it
  });

  it('renders inline styles, nested ones too', () => {
    expect(html('**bold** *it* _it2_ ~~gone~~ `x < y`')).toBe(
      '<b>bold</b> <i>it</i> <i>it2</i> <s>gone</s> <code>x &lt; y</code>',
    );
    expect(html('**bold _and italic ~~and struck~~_**')).toBe('<b>bold <i>and italic <s>and struck</s></i></b>');
  });

  it('renders fenced code as pre/code with its language, escaped, untouched inside', () => {
    const md = 'Try this:\n\n```ts\nif (a < b && c > 0) {\n  console.log("**not bold**");\n}\n```\nDone.';
    expect(html(md)).toBe(
      'Try this:\n\n<pre><code class="language-ts">if (a &lt; b &amp;&amp; c &gt; 0) {\n  console.log("**not bold**");\n}</code></pre>\nDone.',
    );
    expect(html('```\nplain <pre>\n```')).toBe('<pre>plain &lt;pre&gt;</pre>');
    expect(html('```c++ weird"lang\nx\n```')).toBe('<pre><code class="language-c++">x</code></pre>');
  });

  it('turns headings bold, lists into bullet lines and keeps blockquotes and links', () => {
    const md =
      '# Plan\nSteps:\n- one\n- two\n  - two.a\n\n1. first\n2. second\n\n- [ ] todo\n- [x] done\n\n> quoted\n> text\n\nSee [the docs](https://example.com/a?b=1&c="2") or /relative.';
    expect(html(md)).toBe(
      '<b>Plan</b>\nSteps:\n• one\n• two\n  • two.a\n\n1. first\n2. second\n\n☐ todo\n☑ done\n\n<blockquote>quoted\ntext</blockquote>\n\n' +
        'See <a href="https://example.com/a?b=1&amp;c=&quot;2&quot;">the docs</a> or /relative.',
    );
  });

  it('shows only the text of links Telegram would not open', () => {
    expect(html('[local](/etc/passwd) [js](javascript:alert(1))')).toBe('local js');
    expect(html('![a cat](https://example.com/cat.png)')).toBe('<a href="https://example.com/cat.png">a cat</a>');
  });

  it('keeps unclosed Markdown as literal text (a reply still streaming)', () => {
    expect(html('**not yet bold')).toBe('**not yet bold');
    expect(html('an `open code span')).toBe('an `open code span');
    // (the bare URL is a GFM autolink already)
    expect(html('[half a link](https://exa')).toBe('[half a link](<a href="https://exa">https://exa</a>');
    // An unclosed fence is a code block up to the end, as the finished reply will be.
    expect(html('Here:\n```py\nprint(1 < 2)')).toBe(
      'Here:\n<pre><code class="language-py">print(1 &lt; 2)</code></pre>',
    );
  });

  it('never nests what Telegram refuses to nest', () => {
    expect(html('**bold `code`**')).toBe('<b>bold code</b>');
    expect(html('[`code` link](https://a.example)')).toBe('<a href="https://a.example">code link</a>');
    expect(html('> quote\n> > inner')).toBe('<blockquote>quote\ninner</blockquote>');
    expect(html('> ```\n> code\n> ```')).toBe('<blockquote>code</blockquote>');
  });

  it('renders tables as lines with bold headers', () => {
    expect(html('| a | b |\n|---|---|\n| 1 | **2** |')).toBe('<b>a</b> | <b>b</b>\n1 | <b>2</b>');
  });

  it('always produces HTML Telegram accepts, never longer to the eye than the Markdown', () => {
    const samples = [
      '**a** __b__ *c* _d_ ***e*** `f` ~~g~~ <u>h</u> <br> & < > " \' \\* \\_',
      '# H1\n## H2\n### <H3> & more\n\n---\n\n* x\n+ y\n- z\n\n10. ten\n11. eleven',
      '```js\nconst s = "</code></pre><b>";\n```\n\n> **quoted _bold_** with `code` and [link](http://x.y)\n\n| h | <i> |\n|---|---|\n| & | `c` |',
      'Unbalanced **bold and _italic** text_ and `code with ** inside`',
      '中文 **加粗** 和 `代码 <标签>` 😀 **emoji 🎉 bold**',
      '<script>alert(1)</script> <a href="x">raw html</a> <pre>raw</pre>',
      'Line one\nLine two\n\n\n\nAfter many blank lines',
    ];
    for (const md of samples) {
      const out = html(md);
      const visible = parseTelegramHtml(out);
      expect(visible).toBe(telegramHtmlToText(out));
      expect(visible.length).toBeLessThanOrEqual(md.length);
    }
  });
});

describe('the fake Bot API HTML parser agrees with Telegram on what is refused', () => {
  it.each([
    ['a < b', /Unsupported start tag "" at byte offset 2/],
    ['<b>bold', /Can't find end tag corresponding to start tag "b"/],
    ['<b><i>x</b></i>', /Unmatched end tag at byte offset 7, expected "<\/i>", found "<\/b>"/],
    ['<br>', /Unsupported start tag "br"/],
    ['x</b>', /Unexpected end tag/],
  ])('%s', (input, error) => {
    expect(() => parseTelegramHtml(input)).toThrow(error);
  });

  it('decodes the entities Telegram knows', () => {
    expect(parseTelegramHtml('&lt;b&gt; &amp; &quot; &#38; &#x41; &nbsp;')).toBe('<b> & " & A &nbsp;');
    expect(escapeHtml('<&>')).toBe('&lt;&amp;&gt;');
  });
});
