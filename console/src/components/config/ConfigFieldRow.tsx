// One config field: its key and help, the input its type takes (checkbox, select, lines, number), its
// range and default, and the API's problem with it.
import { rangeText, type FieldInfo } from '../../lib/configDraft.js';
import { useI18n } from '../../lib/i18n.js';
import { isMessageKey } from '../../i18n/messages.js';
import { CodedProblem } from '../ui.js';

interface FieldProps {
  field: FieldInfo;
  value: string | boolean | undefined;
  canEdit: boolean;
  error: string | undefined;
  onChange: (v: string | boolean) => void;
}

export function ConfigFieldRow(p: FieldProps & { changed: boolean; errorCode: string | null }) {
  const { t, locale } = useI18n();
  const f = p.field;
  // The server's help text is English; other languages use the catalogue's copy when it has one.
  const helpKey = `config.field.${f.path}`;
  const help = locale !== 'en' && isMessageKey(helpKey) ? t(helpKey) : f.doc;
  return (
    <div
      class={`config-field${p.error ? ' invalid' : ''}${p.changed ? ' changed' : ''}`}
      data-testid={`config-${f.path}`}
    >
      <label for={f.path}>
        <span class="mono">{f.path.split('.')[1]!}</span>
        <span class="muted small">{help}</span>
      </label>
      <div class="config-input">
        <ConfigInput {...p} />
        <span class="range">
          {rangeText(f, t)} · {t('config.default', { v: defaultText(f, t) })}
        </span>
      </div>
      {p.error && (
        <div class="field-error" data-testid="config-error">
          <CodedProblem code={p.errorCode} message={p.error} />
        </div>
      )}
    </div>
  );
}

/** A default as text: a list's entries, or that it has none. */
const defaultText = (f: FieldInfo, t: (key: 'config.listEmpty') => string): string =>
  Array.isArray(f.default) ? f.default.join(', ') || t('config.listEmpty') : String(f.default);

/** The input for the field's type: a checkbox (bool), a select (enum), lines (list), else a number. */
function ConfigInput(p: FieldProps) {
  const { field: f, value } = p;
  if (f.type === 'list')
    return (
      <textarea
        id={f.path}
        rows={4}
        value={String(value ?? '')}
        disabled={!p.canEdit}
        aria-invalid={p.error ? 'true' : undefined}
        onInput={(e) => p.onChange(e.currentTarget.value)}
      />
    );
  if (f.type === 'bool')
    return (
      <input
        id={f.path}
        type="checkbox"
        checked={value === true}
        disabled={!p.canEdit}
        onChange={(e) => p.onChange(e.currentTarget.checked)}
      />
    );
  if (f.type === 'enum')
    return (
      <select
        id={f.path}
        value={String(value)}
        disabled={!p.canEdit}
        onChange={(e) => p.onChange(e.currentTarget.value)}
      >
        {(f.values ?? []).map((v) => (
          <option value={v}>{v}</option>
        ))}
      </select>
    );
  return (
    <input
      id={f.path}
      type="number"
      // A decimal field (a daily cost) takes fractions: without step="any" the browser calls 0.5 invalid.
      inputMode={f.type === 'number' ? 'decimal' : 'numeric'}
      step={f.type === 'number' ? 'any' : undefined}
      value={String(value ?? '')}
      disabled={!p.canEdit}
      aria-invalid={p.error ? 'true' : undefined}
      onInput={(e) => p.onChange(e.currentTarget.value)}
    />
  );
}
