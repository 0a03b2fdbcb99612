// GraphQL over fetch with the operator's bearer token. Errors keep the API's stable code
// (extensions.code) so pages can react to CONFIG_INVALID, FORBIDDEN and the like; only a 401
// (the API no longer accepts the token) ends the session: a network error, a timeout or a 5xx is
// a hiccup the pages retry through, shown by the "reconnecting…" banner.
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

/** One GraphQL request; resolves with `data` or throws the first error as an ApiError. */
export async function gql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = getToken(),
): Promise<T> {
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
      body: JSON.stringify({ query, variables }),
    });
    res = r.res;
    // The body is read within the time limit too; a body that is not JSON is an empty answer.
    const text = await res.text();
    r.settled();
    body = parseBody<T>(text);
  } catch (e) {
    reportReachable(false);
    const timedOut = e instanceof DOMException && e.name === 'TimeoutError';
    throw timedOut
      ? new ApiError('The gateway did not answer in time.', 'TIMEOUT', 0)
      : new ApiError('The gateway cannot be reached. Is it running?', 'NETWORK', 0);
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

export const errorText = (e: unknown): string =>
  e instanceof ApiError ? `${e.message} (${e.code})` : e instanceof Error ? e.message : String(e);
