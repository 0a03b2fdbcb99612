// Building blocks of the setup forms: a labelled field with the API's error (and its code) beside
// it, and a frame that disables the whole form for roles that may not submit it.
import type { ComponentChildren } from 'preact';
import type { FormErrors } from '../../lib/formErrors.js';
import { useI18n } from '../../lib/i18n.js';
import type { OpsRole } from '../../lib/session.js';
import { useCan } from '../../lib/viewerContext.js';
import { CodedProblem, ReadOnlyNote } from '../ui.js';

/** The error beside a field: the stable code first, so it reads the same in any language. */
export function FieldError(p: { id: string; code: string | null; message: string | undefined }) {
  if (!p.message) return null;
  return (
    <div class="field-error" id={`${p.id}-error`} data-testid={`${p.id}-error`} role="alert">
      <CodedProblem code={p.code} message={p.message} />
    </div>
  );
}

export function Field(p: {
  id: string;
  /** The API argument this field sets (errors name it). */
  name: string;
  label: string;
  hint?: string;
  errors: FormErrors;
  children: ComponentChildren;
}) {
  return (
    <div class="field setup-field">
      <label for={p.id}>{p.label}</label>
      {p.children}
      {p.hint && <span class="muted small">{p.hint}</span>}
      <FieldError id={p.id} code={p.errors.code} message={p.errors.byField[p.name]} />
    </div>
  );
}

export function SetupForm(p: {
  needs: OpsRole;
  busy: boolean;
  errors: FormErrors;
  submitLabel: string;
  onSubmit: () => void;
  testId?: string;
  children: ComponentChildren;
  /** Further buttons beside submit (inside the fieldset: disabled with it). */
  extra?: ComponentChildren;
}) {
  const { t } = useI18n();
  const allowed = useCan(p.needs);
  const submit = (e: Event) => {
    e.preventDefault();
    if (allowed) p.onSubmit();
  };
  return (
    <form class="setup-form" data-testid={p.testId} onSubmit={submit} noValidate>
      {!allowed && <ReadOnlyNote needs={p.needs} />}
      {/* A disabled fieldset disables every control in it, the submit button too. */}
      <fieldset disabled={!allowed || p.busy}>
        {p.children}
        {p.errors.other && (
          <div class="field-error" role="alert" data-testid="form-error">
            <CodedProblem code={p.errors.code} message={p.errors.other} />
          </div>
        )}
        <div class="row setup-actions">
          <button type="submit" class="primary">
            {p.busy ? t('setup.common.saving') : p.submitLabel}
          </button>
          {p.extra}
        </div>
      </fieldset>
    </form>
  );
}

/** Text with one item per line (aliases, beats) as the list the API takes. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
