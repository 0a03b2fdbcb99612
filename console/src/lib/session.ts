// The signed-in operator: the token (kept in localStorage so a reload stays signed in), and who
// the API says it belongs to. Anything that changes it tells the app through `onSessionChange`.
import { graphql, type ResultOf } from './graphql.js';

/** Who a token belongs to: asked at sign-in and whenever the console starts with a stored token. */
export const VIEWER_QUERY = graphql(`
  query Viewer {
    viewer {
      name
      role
      timezone
    }
  }
`);

export type Viewer = ResultOf<typeof VIEWER_QUERY>['viewer'];
export type OpsRole = Viewer['role'];

const TOKEN_KEY = 'rainbow.console.token';
const RANK: Record<OpsRole, number> = { viewer: 0, operator: 1, admin: 2 };

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const setToken = (token: string): void => localStorage.setItem(TOKEN_KEY, token);

/**
 * The link `npm start` prints on a developer's first start (`/#token=…`, as notebook servers do):
 * the token is kept as if typed in, and taken out of the address bar and history at once.
 */
export function takeTokenFromUrl(): boolean {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!m?.[1]) return false;
  setToken(decodeURIComponent(m[1]));
  history.replaceState(null, '', location.pathname + location.search);
  return true;
}

/** A link pasted into an open tab changes only the hash (no reload): take its token then too. */
export function onTokenInUrl(l: () => void): () => void {
  const on = () => {
    if (takeTokenFromUrl()) l();
  };
  addEventListener('hashchange', on);
  return () => removeEventListener('hashchange', on);
}

type Listener = (reason: 'signed-out' | 'rejected') => void;
const listeners = new Set<Listener>();

export function onSessionEnd(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Forgets the token; `rejected` when the API stopped accepting it (the sign-in page says so). */
export function endSession(reason: 'signed-out' | 'rejected'): void {
  localStorage.removeItem(TOKEN_KEY);
  for (const l of listeners) l(reason);
}

export const roleAtLeast = (role: OpsRole, needed: OpsRole): boolean => RANK[role] >= RANK[needed];
