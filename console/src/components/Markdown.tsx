// A message's text as sanitised Markdown (lib/markdown.ts); the only place the console sets HTML.
import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.js';

export function Markdown(p: { text: string; class?: string }) {
  const html = useMemo(() => renderMarkdown(p.text), [p.text]);
  return <div class={`markdown ${p.class ?? ''}`} data-testid="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
