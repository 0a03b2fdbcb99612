// Errors the API shows to clients: a stable code in extensions, never a stack trace.
import { GraphQLError } from 'graphql';
import type { ErrorCode } from '../src/errors.js';

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403 };

export function apiError(code: ErrorCode, message: string): GraphQLError {
  const status = HTTP_STATUS[code];
  return new GraphQLError(message, { extensions: { code, ...(status ? { http: { status } } : {}) } });
}
