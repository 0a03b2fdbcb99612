import OpenAI from 'openai';

/** A short, secret-free description of an SDK error for logs and the trace. */
export function describeApiError(err: unknown): string {
  if (err instanceof OpenAI.APIError) return `status ${err.status ?? 'none'}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
