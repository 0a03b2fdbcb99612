// Creates an agent, or edits one: name, base persona, aliases, how it introduces itself to a room.
// (Per-agent model settings: the API has none; the model is the deployment's.)
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import { AGENT_FIELDS, type AgentDetail } from '../../lib/setupTypes.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { Field, SetupForm } from './form.js';

const CREATE = `mutation CreateAgent($name: String!, $basePersona: String!, $aliases: [String!], $introduction: String) {
  createAgent(name: $name, basePersona: $basePersona, aliases: $aliases, introduction: $introduction) { ${AGENT_FIELDS} } }`;
const UPDATE = `mutation UpdateAgent($id: ID!, $name: String, $basePersona: String, $aliases: [String!], $introduction: String) {
  updateAgent(id: $id, name: $name, basePersona: $basePersona, aliases: $aliases, introduction: $introduction) { ${AGENT_FIELDS} } }`;

const FIELDS = ['name', 'basePersona', 'aliases', 'introduction'] as const;

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
  const [saved, setSaved] = useState(false);
  const id = p.agent ? `agent-${p.agent.id}` : 'agent-new';
  const submit = useSubmit(async () => {
    const vars = { name, basePersona: persona, aliases: aliasesOf(aliases), introduction: intro.trim() || null };
    if (p.agent) return (await gql<{ updateAgent: AgentDetail }>(UPDATE, { id: p.agent.id, ...vars })).updateAgent;
    return (await gql<{ createAgent: AgentDetail }>(CREATE, vars)).createAgent;
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
    </SetupForm>
  );
}
