// GraphQL over fetch with the operator's bearer token. Errors keep the API's stable code
// (extensions.code) so pages can react to CONFIG_INVALID, FORBIDDEN and the like; only a 401
// (the API no longer accepts the token) ends the session: a network error, a timeout or a 5xx is
// a hiccup the pages retry through, shown by the "reconnecting…" banner.
import { print } from 'graphql';
import { isMessageKey } from '../i18n/messages.js';
import type { TadaDocumentNode } from './graphql.js';
import { currentLocale, translate, type Locale } from './locale.js';
import { isTransientStatus, reportReachable, timedFetch } from './net.js';
import { endSession, getToken } from './session.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface GqlResponse<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

function parseBody<T>(text: string): GqlResponse<T> {
  try {
    return JSON.parse(text) as GqlResponse<T>;
  } catch {
    return {};
  }
}

/** A document's variables, then the token; the variables may be left out when none is required. */
export type GqlArgs<V> = object extends V
  ? [variables?: V, token?: string | null]
  : [variables: V, token?: string | null];

/** One GraphQL request; resolves with `data` or throws the first error as an ApiError. */
export async function gql<T, V>(
  document: TadaDocumentNode<T, V>,
  ...[variables, token = getToken()]: GqlArgs<V>
): Promise<T> {
  const query = print(document);
  let res: Response;
  let body: GqlResponse<T>;
  try {
    const r = await timedFetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables: variables ?? {} }),
    });
    res = r.res;
    // The body is read within the time limit too; a body that is not JSON is an empty answer.
    const text = await res.text();
    r.settled();
    body = parseBody<T>(text);
  } catch (e) {
    reportReachable(false);
    const timedOut = e instanceof DOMException && e.name === 'TimeoutError';
    // The console's own codes: worded by the catalogue (English as the message, like the server's).
    throw timedOut
      ? new ApiError(translate('error.code.TIMEOUT', undefined, 'en'), 'TIMEOUT', 0)
      : new ApiError(translate('error.code.NETWORK', undefined, 'en'), 'NETWORK', 0);
  }
  reportReachable(!isTransientStatus(res.status));
  const first = body.errors?.[0];
  if (first || !body.data) {
    const code = first?.extensions?.code ?? (res.status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL');
    // Only a 401 for the token in use is a lost session; the sign-in page checks its own.
    if (res.status === 401 && token && token === getToken()) endSession('rejected');
    throw new ApiError(first?.message ?? `The gateway answered HTTP ${res.status}`, code, res.status);
  }
  return body.data;
}

/** Worth retrying: not reached, timed out or a 5xx (a 401, 403 or bad request is not). */
export const isTransient = (e: unknown): boolean => e instanceof ApiError && isTransientStatus(e.status);

/** An error as the console words it (see i18n/errorMessages.ts). */
export interface ErrorParts {
  /** The console's text for the code in the page's language; null where the server's message stands alone. */
  text: string | null;
  /** The server's message (English, as sent): alone in English or for a code the catalogue lacks, else the detail. */
  detail: string | null;
  code: string | null;
}

// Codes whose server message adds nothing to the console's text (no field, no id worth showing).
const BARE_CODES = new Set([
  'NETWORK',
  'TIMEOUT',
  'WEB_CHANNEL_UNAVAILABLE',
  'UNAUTHENTICATED',
  'GENERATION_TIMEOUT',
  'GENERATION_ABORTED',
  'DIALOGUE_BUSY',
  'ROUND_COMPLETED',
  'EXPORT_LINK_EXPIRED',
  'EXPORT_LINK_INVALID',
  'INTERNAL',
]);

export function errorParts(e: unknown, locale: Locale = currentLocale()): ErrorParts {
  if (!(e instanceof ApiError)) return { text: null, detail: e instanceof Error ? e.message : String(e), code: null };
  const key = `error.code.${e.code}`;
  // English keeps the server's message: it is English already, and names the field or the id.
  if (!isMessageKey(key) || (locale === 'en' && e.message))
    return { text: null, detail: e.message || null, code: e.code };
  const detail = BARE_CODES.has(e.code) ? '' : e.message.replace(/^invalid input: /, '');
  return { text: translate(key, undefined, locale), detail: detail || null, code: e.code };
}

/** One line: "text: detail (CODE)" in the page's language; the code always shows. */
export function errorText(e: unknown): string {
  const p = errorParts(e);
  const text = p.text ?? p.detail ?? '';
  if (!p.code) return text;
  return p.text && p.detail
    ? translate('error.formatDetail', { text: p.text, detail: p.detail, code: p.code })
    : translate('error.format', { text, code: p.code });
}
