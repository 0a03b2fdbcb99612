// Errors the API shows to clients: a stable code in extensions, never a stack trace.
// Built with yoga's own constructor so yoga's error masking recognises them as intended
// (a GraphQLError from another copy of graphql-js would be masked as internal).
import { createGraphQLError } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import type { ErrorCode } from '../src/errors.js';

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  STORE_UNAVAILABLE: 503,
};

export function apiError(code: ErrorCode, message: string): GraphQLError {
  const status = HTTP_STATUS[code];
  return createGraphQLError(message, { extensions: { code, ...(status ? { http: { status } } : {}) } });
}
