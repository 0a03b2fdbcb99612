// The agent form's fields: a labelled text input or textarea, and the model settings whose
// placeholders show the deployment's own (its model and reply limit).
import type { FormErrors } from '../../lib/formErrors.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { Field } from './form.js';

// The deployment's settings, for the placeholders. Health may be unavailable in this process:
// then the model's placeholder only says "deployment default".
const REPLY_LIMIT = graphql(`
  query AgentReplyLimit {
    config {
      limits {
        max_reply_tokens
      }
    }
    configFields {
      path
      min
      max
    }
  }
`);
const REPLY_MODEL = graphql(`
  query AgentReplyModel {
    health {
      model {
        target
      }
    }
  }
`);

export const FIELDS = [
  'name',
  'basePersona',
  'aliases',
  'introduction',
  'modelSettings.name',
  'modelSettings.temperature',
  'modelSettings.maxOutputTokens',
] as const;

/** A field's text, how it changes, and the form's errors. */
interface Bound {
  value: string;
  onInput: (text: string) => void;
  errors: FormErrors;
}

/** A text field of the agent form: a textarea when it has `rows`, else an input. */
export function AgentTextField(
  p: Bound & {
    id: string;
    name: string;
    label: string;
    hint?: string;
    rows?: number;
    maxLength?: number;
    placeholder?: string;
  },
) {
  const input = (e: { currentTarget: { value: string } }) => p.onInput(e.currentTarget.value);
  return (
    <Field id={p.id} name={p.name} label={p.label} hint={p.hint} errors={p.errors}>
      {p.rows ? (
        <textarea id={p.id} rows={p.rows} value={p.value} onInput={input} />
      ) : (
        <input id={p.id} value={p.value} maxLength={p.maxLength} placeholder={p.placeholder} onInput={input} />
      )}
    </Field>
  );
}

/** The agent's own model, temperature and longest answer; empty is the deployment's. */
export function AgentModelFields(p: { id: string; model: Bound; temperature: Bound; maxTokens: Bound }) {
  const { t } = useI18n();
  const limit = useQuery(REPLY_LIMIT).data;
  const deploymentModel = useQuery(REPLY_MODEL).data?.health.model.target;
  const range = limit?.configFields.find((f) => f.path === 'limits.max_reply_tokens');
  const { id } = p;
  return (
    <>
      <AgentTextField
        id={`${id}-model`}
        name="modelSettings.name"
        label={t('setup.agents.model')}
        hint={t('setup.agents.modelHint')}
        maxLength={100}
        placeholder={
          deploymentModel
            ? t('setup.agents.deploymentValue', { value: deploymentModel })
            : t('setup.agents.deploymentDefault')
        }
        {...p.model}
      />
      <Field
        id={`${id}-temperature`}
        name="modelSettings.temperature"
        label={t('setup.agents.temperature')}
        hint={t('setup.agents.temperatureHint')}
        errors={p.temperature.errors}
      >
        <input
          id={`${id}-temperature`}
          type="number"
          step="0.1"
          min={0}
          max={2}
          value={p.temperature.value}
          placeholder={t('setup.agents.deploymentDefault')}
          onInput={(e) => p.temperature.onInput(e.currentTarget.value)}
        />
      </Field>
      <Field
        id={`${id}-max-tokens`}
        name="modelSettings.maxOutputTokens"
        label={t('setup.agents.maxOutputTokens')}
        hint={t('setup.agents.maxOutputTokensHint', { min: range?.min ?? '…', max: range?.max ?? '…' })}
        errors={p.maxTokens.errors}
      >
        <input
          id={`${id}-max-tokens`}
          type="number"
          step="1"
          {...(range?.min != null ? { min: range.min } : {})}
          {...(range?.max != null ? { max: range.max } : {})}
          value={p.maxTokens.value}
          placeholder={
            limit
              ? t('setup.agents.deploymentValue', { value: limit.config.limits.max_reply_tokens })
              : t('setup.agents.deploymentDefault')
          }
          onInput={(e) => p.maxTokens.onInput(e.currentTarget.value)}
        />
      </Field>
    </>
  );
}
