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

/** What a lookup by id can miss, and the code each miss carries (seed 004's codes where they exist). */
const NOT_FOUND_CODES = {
  dialogue: 'CONVERSATION_NOT_FOUND',
  message: 'MESSAGE_NOT_FOUND',
  room: 'ROOM_NOT_FOUND',
} as const satisfies Partial<Record<string, ErrorCode>>;

const notFoundCode = (what: string): ErrorCode =>
  (NOT_FOUND_CODES as Partial<Record<string, ErrorCode>>)[what] ?? 'NOT_FOUND';

/** The record read by id, or the not-found error naming what and which id: one wording for every lookup. */
export function found<T>(value: T | null | undefined, what: string, id: unknown): T {
  if (value !== null && value !== undefined) return value;
  throw apiError(notFoundCode(what), `no ${what} with id ${String(id)}`);
}

/** A record a live update announced, read again: gone since (deleted with its dialogue), the event says so. */
export function stillThere<T>(value: T | null | undefined, what: string, id: string): T {
  if (value !== null && value !== undefined) return value;
  throw apiError(notFoundCode(what), `${what} ${id} no longer exists`);
}
