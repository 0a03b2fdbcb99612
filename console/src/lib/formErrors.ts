// An API refusal laid out for a form: each problem beside the field it names (BAD_REQUEST and
// CONFIG_INVALID name fields by their argument name), always with the error's stable code.
import { ApiError, errorText } from './api.js';
import { fieldErrors } from './configErrors.js';

export interface FormErrors {
  code: string | null;
  byField: Record<string, string>;
  /** Problems that name no field of the form. */
  other: string | null;
}

export const NO_ERRORS: FormErrors = { code: null, byField: {}, other: null };

/** Where problems that name no field go: one field, or a field by error code. */
export type Fallback = string | Partial<Record<string, string>>;

/**
 * `fallback` takes problems that name no field (e.g. the platform refusing a bot token, a chat
 * that already has a room), so they still show beside the input they concern.
 */
export function formErrors(err: unknown, fields: readonly string[], to?: Fallback): FormErrors {
  if (!(err instanceof ApiError)) return { code: null, byField: {}, other: errorText(err) };
  const r = fieldErrors(err.message.replace(/^invalid input: /, ''), fields);
  const rest = r.other.join('; ');
  const fallback = typeof to === 'string' ? to : to?.[err.code];
  if (rest && fallback && !r.byPath[fallback])
    return { code: err.code, byField: { ...r.byPath, [fallback]: rest }, other: null };
  return { code: err.code, byField: r.byPath, other: rest || null };
}
