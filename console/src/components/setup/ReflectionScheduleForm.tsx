// When an agent reflects on its own (setReflectionSettings): on/off, a cron line in its time
// zone, and how many hours back it looks. CONFIG_INVALID names the bad fields.
import { useEffect, useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql, type ResultOf } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { ErrorBox, Loading } from '../ui.js';
import { Field, SetupForm } from './form.js';

const QUERY = graphql(`
  query Schedule($agentId: ID!) {
    reflectionState(agentId: $agentId) {
      settings {
        enabled
        cron
        timezone
        lookbackHours
      }
    }
  }
`);
const SET = graphql(`
  mutation SetSchedule($agentId: ID!, $settings: ReflectionSettingsInput!) {
    setReflectionSettings(agentId: $agentId, settings: $settings) {
      settings {
        enabled
        cron
        timezone
        lookbackHours
      }
    }
  }
`);

type Settings = ResultOf<typeof QUERY>['reflectionState']['settings'];

export function ReflectionScheduleForm(p: { agentId: string }) {
  const q = useQuery(QUERY, { agentId: p.agentId });
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  return <ScheduleFields agentId={p.agentId} initial={q.data.reflectionState.settings} />;
}

function ScheduleFields(p: { agentId: string; initial: Settings }) {
  const { t } = useI18n();
  const [s, setS] = useState(p.initial);
  const [lookback, setLookback] = useState(String(p.initial.lookbackHours));
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [s, lookback]);
  const id = `agent-${p.agentId}-schedule`;
  const submit = useSubmit(
    () =>
      gql(SET, {
        agentId: p.agentId,
        settings: {
          enabled: s.enabled,
          cron: s.cron,
          // Blank: the deployment's time zone (null clears it).
          timezone: s.timezone?.trim() || null,
          lookbackHours: Number(lookback),
        },
      }),
    ['cron', 'timezone', 'lookbackHours', 'enabled'],
  );
  const save = async () => setSaved((await submit.run()) !== undefined);
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={t('setup.common.save')}
      onSubmit={() => void save()}
      testId="schedule-form"
      extra={saved && <span class="ok-text">{t('setup.common.saved')}</span>}
    >
      <label class="inline-field">
        <input type="checkbox" checked={s.enabled} onChange={(e) => setS({ ...s, enabled: e.currentTarget.checked })} />
        <span>{t('setup.schedule.enabled')}</span>
      </label>
      <Field
        id={`${id}-cron`}
        name="cron"
        label={t('setup.schedule.cron')}
        hint={t('setup.schedule.cronHint')}
        errors={submit.errors}
      >
        <input
          id={`${id}-cron`}
          class="mono"
          value={s.cron}
          onInput={(e) => setS({ ...s, cron: e.currentTarget.value })}
        />
      </Field>
      <Field
        id={`${id}-tz`}
        name="timezone"
        label={t('setup.schedule.timezone')}
        hint={t('setup.schedule.timezoneHint')}
        errors={submit.errors}
      >
        <input
          id={`${id}-tz`}
          value={s.timezone ?? ''}
          placeholder="Asia/Shanghai"
          onInput={(e) => setS({ ...s, timezone: e.currentTarget.value })}
        />
      </Field>
      <Field id={`${id}-lookback`} name="lookbackHours" label={t('setup.schedule.lookback')} errors={submit.errors}>
        <input
          id={`${id}-lookback`}
          type="number"
          inputMode="numeric"
          value={lookback}
          onInput={(e) => setLookback(e.currentTarget.value)}
        />
      </Field>
    </SetupForm>
  );
}
