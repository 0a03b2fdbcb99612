// A room's mode, host and answer deadline, as both the new-room form and a room's settings form
// ask for them; each form names its inputs (`idPrefix`), its host argument and its hints.
import type { FormErrors } from '../../lib/formErrors.js';
import { useI18n } from '../../lib/i18n.js';
import { Field } from './form.js';

export type Mode = 'DEFAULT' | 'HOST';
export interface RoomFieldValues {
  mode: Mode;
  hostId: string;
  /** As typed. */
  timeout: string;
}

export function RoomFields(p: {
  idPrefix: string;
  errors: FormErrors;
  value: RoomFieldValues;
  onChange: (change: Partial<RoomFieldValues>) => void;
  /** The members that may host, by id and name. */
  hosts: { id: string; name: string }[];
  /** The API argument the host is (errors name it). */
  hostArg: string;
  hostHint?: string;
  /** The label of a blank host option; none when undefined. */
  noHost: string | undefined;
  /** Whether the host is asked for only in host mode. */
  hostInHostMode: boolean;
  timeoutHint: string;
}) {
  const { t } = useI18n();
  const { idPrefix: id, errors: e, value } = p;
  return (
    <div class="setup-row">
      <Field id={`${id}-mode`} name="mode" label={t('setup.rooms.mode')} errors={e}>
        <select
          id={`${id}-mode`}
          value={value.mode}
          onChange={(ev) => p.onChange({ mode: ev.currentTarget.value as Mode })}
        >
          <option value="DEFAULT">{t('setup.rooms.modeDefault')}</option>
          <option value="HOST">{t('setup.rooms.modeHost')}</option>
        </select>
      </Field>
      {(!p.hostInHostMode || value.mode === 'HOST') && (
        <Field id={`${id}-host`} name={p.hostArg} label={t('setup.rooms.host')} hint={p.hostHint} errors={e}>
          <select
            id={`${id}-host`}
            value={value.hostId}
            onChange={(ev) => p.onChange({ hostId: ev.currentTarget.value })}
          >
            {p.noHost !== undefined && <option value="">{p.noHost}</option>}
            {p.hosts.map((h) => (
              <option value={h.id}>{h.name}</option>
            ))}
          </select>
        </Field>
      )}
      <Field
        id={`${id}-timeout`}
        name="answerTimeoutSeconds"
        label={t('setup.rooms.timeout')}
        hint={p.timeoutHint}
        errors={e}
      >
        <input
          id={`${id}-timeout`}
          type="number"
          inputMode="numeric"
          value={value.timeout}
          onInput={(ev) => p.onChange({ timeout: ev.currentTarget.value })}
        />
      </Field>
    </div>
  );
}
