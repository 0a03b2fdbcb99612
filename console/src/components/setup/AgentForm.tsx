// Creates an agent, or edits one: name, base persona, aliases, how it introduces itself to a room.
// Also its own model, temperature and longest answer: each left empty is the deployment's, shown
// as the field's placeholder.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useQuery } from '../../lib/hooks.js';
import { useI18n } from '../../lib/i18n.js';
import { AgentFields, type AgentDetail } from '../../lib/setupTypes.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { Field, SetupForm } from './form.js';

const CREATE = graphql(
  `
    mutation CreateAgent(
      $name: String!
      $basePersona: String!
      $aliases: [String!]
      $introduction: String
      $modelSettings: AgentModelSettingsInput
    ) {
      createAgent(
        name: $name
        basePersona: $basePersona
        aliases: $aliases
        introduction: $introduction
        modelSettings: $modelSettings
      ) {
        ...AgentFields
      }
    }
  `,
  [AgentFields],
);
const UPDATE = graphql(
  `
    mutation UpdateAgent(
      $id: ID!
      $name: String
      $basePersona: String
      $aliases: [String!]
      $introduction: String
      $modelSettings: AgentModelSettingsInput
    ) {
      updateAgent(
        id: $id
        name: $name
        basePersona: $basePersona
        aliases: $aliases
        introduction: $introduction
        modelSettings: $modelSettings
      ) {
        ...AgentFields
      }
    }
  `,
  [AgentFields],
);

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

const FIELDS = [
  'name',
  'basePersona',
  'aliases',
  'introduction',
  'modelSettings.name',
  'modelSettings.temperature',
  'modelSettings.maxOutputTokens',
] as const;

/** A number field's text as the API takes it: empty clears the setting (the deployment's applies). */
const numberOf = (text: string): number | null => (text.trim() ? Number(text) : null);
const textOf = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

const aliasesOf = (text: string): string[] =>
  text
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function AgentForm(p: { agent?: AgentDetail; onSaved: (a: AgentDetail) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(p.agent?.name ?? '');
  const [persona, setPersona] = useState(p.agent?.basePersona ?? '');
  const [aliases, setAliases] = useState((p.agent?.aliases ?? []).join(', '));
  const [intro, setIntro] = useState(p.agent?.introduction ?? '');
  const own = p.agent?.modelSettings;
  const [model, setModel] = useState(own?.name ?? '');
  const [temperature, setTemperature] = useState(textOf(own?.temperature));
  const [maxTokens, setMaxTokens] = useState(textOf(own?.maxOutputTokens));
  const limit = useQuery(REPLY_LIMIT).data;
  const deploymentModel = useQuery(REPLY_MODEL).data?.health.model.target;
  const range = limit?.configFields.find((f) => f.path === 'limits.max_reply_tokens');
  const [saved, setSaved] = useState(false);
  const id = p.agent ? `agent-${p.agent.id}` : 'agent-new';
  const submit = useSubmit(async () => {
    const vars = {
      name,
      basePersona: persona,
      aliases: aliasesOf(aliases),
      introduction: intro.trim() || null,
      // Every setting is sent: an emptied field clears the agent's own (null), as the API reads it.
      modelSettings: {
        name: model.trim() || null,
        temperature: numberOf(temperature),
        maxOutputTokens: numberOf(maxTokens),
      },
    };
    if (p.agent) return (await gql(UPDATE, { id: p.agent.id, ...vars })).updateAgent;
    return (await gql(CREATE, vars)).createAgent;
  }, FIELDS);
  const save = async () => {
    setSaved(false);
    const a = await submit.run();
    if (!a) return;
    setSaved(true);
    if (!p.agent) {
      setName('');
      setPersona('');
      setAliases('');
      setIntro('');
      setModel('');
      setTemperature('');
      setMaxTokens('');
    }
    p.onSaved(a);
  };
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={p.agent ? t('setup.common.save') : t('setup.agents.create')}
      onSubmit={() => void save()}
      testId={p.agent ? 'agent-edit-form' : 'agent-create-form'}
      extra={saved && <span class="ok-text">{t('setup.common.saved')}</span>}
    >
      <Field id={`${id}-name`} name="name" label={t('setup.agents.name')} errors={submit.errors}>
        <input id={`${id}-name`} value={name} maxLength={64} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field
        id={`${id}-persona`}
        name="basePersona"
        label={t('setup.agents.persona')}
        hint={t('setup.agents.personaHint')}
        errors={submit.errors}
      >
        <textarea id={`${id}-persona`} rows={5} value={persona} onInput={(e) => setPersona(e.currentTarget.value)} />
      </Field>
      <Field
        id={`${id}-aliases`}
        name="aliases"
        label={t('setup.agents.aliases')}
        hint={t('setup.agents.aliasesHint')}
        errors={submit.errors}
      >
        <input id={`${id}-aliases`} value={aliases} onInput={(e) => setAliases(e.currentTarget.value)} />
      </Field>
      <Field
        id={`${id}-intro`}
        name="introduction"
        label={t('setup.agents.introduction')}
        hint={t('setup.agents.introductionHint')}
        errors={submit.errors}
      >
        <textarea id={`${id}-intro`} rows={2} value={intro} onInput={(e) => setIntro(e.currentTarget.value)} />
      </Field>
      <Field
        id={`${id}-model`}
        name="modelSettings.name"
        label={t('setup.agents.model')}
        hint={t('setup.agents.modelHint')}
        errors={submit.errors}
      >
        <input
          id={`${id}-model`}
          value={model}
          maxLength={100}
          placeholder={
            deploymentModel
              ? t('setup.agents.deploymentValue', { value: deploymentModel })
              : t('setup.agents.deploymentDefault')
          }
          onInput={(e) => setModel(e.currentTarget.value)}
        />
      </Field>
      <Field
        id={`${id}-temperature`}
        name="modelSettings.temperature"
        label={t('setup.agents.temperature')}
        hint={t('setup.agents.temperatureHint')}
        errors={submit.errors}
      >
        <input
          id={`${id}-temperature`}
          type="number"
          step="0.1"
          min={0}
          max={2}
          value={temperature}
          placeholder={t('setup.agents.deploymentDefault')}
          onInput={(e) => setTemperature(e.currentTarget.value)}
        />
      </Field>
      <Field
        id={`${id}-max-tokens`}
        name="modelSettings.maxOutputTokens"
        label={t('setup.agents.maxOutputTokens')}
        hint={t('setup.agents.maxOutputTokensHint', { min: range?.min ?? '…', max: range?.max ?? '…' })}
        errors={submit.errors}
      >
        <input
          id={`${id}-max-tokens`}
          type="number"
          step="1"
          {...(range?.min != null ? { min: range.min } : {})}
          {...(range?.max != null ? { max: range.max } : {})}
          value={maxTokens}
          placeholder={
            limit
              ? t('setup.agents.deploymentValue', { value: limit.config.limits.max_reply_tokens })
              : t('setup.agents.deploymentDefault')
          }
          onInput={(e) => setMaxTokens(e.currentTarget.value)}
        />
      </Field>
    </SetupForm>
  );
}
