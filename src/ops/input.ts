// Operator input that GraphQL types alone cannot check (lengths, ranges): validated with zod and
// refused as BAD_REQUEST naming the field, before anything is read or written.
import type { z } from 'zod';
import { GatewayError } from '../errors.js';

export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  throw new GatewayError('BAD_REQUEST', `invalid input: ${issues.join('; ')}`);
}
