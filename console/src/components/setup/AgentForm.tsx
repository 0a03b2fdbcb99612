// Creates an agent, or edits one (`mode`): name, base persona, aliases, how it introduces itself
// to a room. Also its own model, temperature and longest answer: each left empty is the
// deployment's, shown as the field's placeholder.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { agentVars, draftOf, type AgentDraft } from '../../lib/agentDraft.js';
import { graphql } from '../../lib/graphql.js';
import { useI18n } from '../../lib/i18n.js';
import { AgentFields, type AgentDetail } from '../../lib/setupTypes.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { SetupForm } from './form.js';
import { AgentModelFields, AgentTextField, FIELDS } from './AgentFields.js';

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

type Props = { onSaved: (a: AgentDetail) => void } & ({ mode: 'create' } | { mode: 'edit'; agent: AgentDetail });

export function AgentForm(p: Props) {
  const { t } = useI18n();
  const agent = p.mode === 'edit' ? p.agent : undefined;
  const [draft, setDraft] = useState<AgentDraft>(() => draftOf(agent));
  const [saved, setSaved] = useState(false);
  const id = agent ? `agent-${agent.id}` : 'agent-new';
  const submit = useSubmit(async () => {
    const vars = agentVars(draft);
    if (agent) return (await gql(UPDATE, { id: agent.id, ...vars })).updateAgent;
    return (await gql(CREATE, vars)).createAgent;
  }, FIELDS);
  const save = async () => {
    setSaved(false);
    const a = await submit.run();
    if (!a) return;
    setSaved(true);
    if (!agent) setDraft(draftOf());
    p.onSaved(a);
  };
  const field = (key: keyof AgentDraft) => ({
    value: draft[key],
    onInput: (v: string) => setDraft((d) => ({ ...d, [key]: v })),
    errors: submit.errors,
  });
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={agent ? t('setup.common.save') : t('setup.agents.create')}
      onSubmit={() => void save()}
      testId={agent ? 'agent-edit-form' : 'agent-create-form'}
      extra={saved && <span class="ok-text">{t('setup.common.saved')}</span>}
    >
      <AgentTextField id={`${id}-name`} name="name" label={t('setup.agents.name')} maxLength={64} {...field('name')} />
      <AgentTextField
        id={`${id}-persona`}
        name="basePersona"
        label={t('setup.agents.persona')}
        hint={t('setup.agents.personaHint')}
        rows={5}
        {...field('persona')}
      />
      <AgentTextField
        id={`${id}-aliases`}
        name="aliases"
        label={t('setup.agents.aliases')}
        hint={t('setup.agents.aliasesHint')}
        {...field('aliases')}
      />
      <AgentTextField
        id={`${id}-intro`}
        name="introduction"
        label={t('setup.agents.introduction')}
        hint={t('setup.agents.introductionHint')}
        rows={2}
        {...field('intro')}
      />
      <AgentModelFields
        id={id}
        model={field('model')}
        temperature={field('temperature')}
        maxTokens={field('maxTokens')}
      />
    </SetupForm>
  );
}
