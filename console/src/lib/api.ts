// GraphQL over fetch with the operator's bearer token. Errors keep the API's stable code
// (extensions.code) so pages can react to CONFIG_INVALID, FORBIDDEN and the like; a token the
// API no longer accepts ends the session.
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

/** One GraphQL request; resolves with `data` or throws the first error as an ApiError. */
export async function gql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = getToken(),
): Promise<T> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new ApiError('The gateway cannot be reached. Is it running?', 'NETWORK', 0);
  }
  const body = (await res.json().catch(() => ({}))) as GqlResponse<T>;
  const first = body.errors?.[0];
  if (first || !body.data) {
    const code = first?.extensions?.code ?? (res.status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL');
    // Only a token that was in use counts as a lost session; the sign-in page checks its own.
    if (code === 'UNAUTHENTICATED' && token && token === getToken()) endSession('rejected');
    throw new ApiError(first?.message ?? `The gateway answered HTTP ${res.status}`, code, res.status);
  }
  return body.data;
}

export const errorText = (e: unknown): string =>
  e instanceof ApiError ? `${e.message} (${e.code})` : e instanceof Error ? e.message : String(e);
