// Path routing over the History API (the server answers every console path with index.html).
// Routes are patterns like `/dialogues/:id`; the query string is read where a page needs it.
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const read = (): Location => ({ path: location.pathname, query: new URLSearchParams(location.search) });

/** A page with unsaved work: returns the question to confirm before leaving, or null to let go. */
export type LeaveGuard = () => string | null;
const guards = new Set<LeaveGuard>();

export function addLeaveGuard(g: LeaveGuard): () => void {
  guards.add(g);
  return () => guards.delete(g);
}

/** Asks each guard's question; false when the operator chose to stay. */
function mayLeave(): boolean {
  for (const g of guards) {
    const question = g();
    if (question && !confirm(question)) return false;
  }
  return true;
}

/** The URL shown, to return to when the back button is refused. */
let shown = location.pathname + location.search;
let internal = false;

export function navigate(to: string, o: { replace?: boolean } = {}): void {
  // A replace keeps the page (filters in the query string); only moves to another path ask.
  const url = new URL(to, location.href);
  if (url.pathname !== location.pathname && !mayLeave()) return;
  if (o.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  internal = true;
  try {
    dispatchEvent(new PopStateEvent('popstate'));
  } finally {
    internal = false;
  }
}

addEventListener(
  'popstate',
  (e) => {
    // The back/forward buttons cannot be cancelled; a refused one is undone by going back to the page.
    if (!internal && location.pathname !== new URL(shown, location.href).pathname && !mayLeave()) {
      history.pushState(null, '', shown);
      e.stopImmediatePropagation();
      return;
    }
    shown = location.pathname + location.search;
  },
  { capture: true },
);

export function useLocation(): Location {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return loc;
}

/** Params of `pattern` when `path` matches it (`:name` takes one segment), else null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of p.entries()) {
    const seg = s[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(seg);
    else if (part !== seg) return null;
  }
  return params;
}

type AnchorProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

/** An anchor that navigates without reloading (modified clicks still open a new tab). */
export function Link({ href, children, ...rest }: AnchorProps) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
