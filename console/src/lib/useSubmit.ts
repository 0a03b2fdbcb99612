// One form's submission: busy while it runs, the API's refusal kept as per-field errors.
import { useState } from 'preact/hooks';
import { formErrors, NO_ERRORS, type Fallback, type FormErrors } from './formErrors.js';

export interface Submit<T> {
  busy: boolean;
  errors: FormErrors;
  /** Runs the action; resolves with its result, or undefined when it was refused. */
  run: () => Promise<T | undefined>;
  clear: () => void;
}

export function useSubmit<T>(action: () => Promise<T>, fields: readonly string[], fallback?: Fallback): Submit<T> {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const run = async (): Promise<T | undefined> => {
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      return await action();
    } catch (err) {
      setErrors(formErrors(err, fields, fallback));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, run, clear: () => setErrors(NO_ERRORS) };
}
