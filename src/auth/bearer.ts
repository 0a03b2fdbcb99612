// The one reader of `Authorization: Bearer <token>` for every HTTP surface (/graphql, /api,
// /mcp, /metrics, the seat endpoints). The scheme is case-insensitive (RFC 9110 §11.1), so
// `bearer x` and `BEARER x` name the same token; one token, no other parameters.
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of a bearer Authorization header; undefined when there is none or it is not one. */
export function bearerToken(header: string | null | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1];
}

/** The challenge a 401 carries, so a client knows which scheme to send (RFC 9110 §11.6.1). */
export const BEARER_CHALLENGE = 'Bearer';
