// Creates a background or edits one: a name, a world setting and its outline, one beat a line
// (beats are numbered by their line).
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useI18n } from '../../lib/i18n.js';
import { BackgroundFields, type BackgroundDetail } from '../../lib/setupTypes.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { Field, linesOf, SetupForm } from './form.js';

const CREATE = graphql(
  `
    mutation CreateBackground($name: String!, $worldSetting: String!, $beats: [String!]!) {
      createBackground(name: $name, worldSetting: $worldSetting, beats: $beats) {
        ...BackgroundFields
      }
    }
  `,
  [BackgroundFields],
);
const UPDATE = graphql(
  `
    mutation UpdateBackground($id: ID!, $name: String, $worldSetting: String, $beats: [String!]) {
      updateBackground(id: $id, name: $name, worldSetting: $worldSetting, beats: $beats) {
        ...BackgroundFields
      }
    }
  `,
  [BackgroundFields],
);

export function BackgroundForm(p: {
  background?: BackgroundDetail;
  onSaved: (b: BackgroundDetail) => void;
  onCancel?: () => void;
}) {
  const { t } = useI18n();
  const b = p.background;
  const [name, setName] = useState(b?.name ?? '');
  const [setting, setSetting] = useState(b?.worldSetting ?? '');
  const [beats, setBeats] = useState((b?.outline ?? []).map((x) => x.text).join('\n'));
  const id = b ? `background-${b.id}` : 'background-new';
  const submit = useSubmit(async () => {
    const vars = { name, worldSetting: setting, beats: linesOf(beats) };
    if (b) return (await gql(UPDATE, { id: b.id, ...vars })).updateBackground;
    return (await gql(CREATE, vars)).createBackground;
  }, ['name', 'worldSetting', 'beats']);
  const save = async () => {
    const saved = await submit.run();
    if (!saved) return;
    if (!b) {
      setName('');
      setSetting('');
      setBeats('');
    }
    p.onSaved(saved);
  };
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={b ? t('setup.common.save') : t('setup.backgrounds.create')}
      onSubmit={() => void save()}
      testId={b ? 'background-edit-form' : 'background-create-form'}
      extra={
        p.onCancel && (
          <button type="button" onClick={p.onCancel}>
            {t('setup.common.cancel')}
          </button>
        )
      }
    >
      <Field id={`${id}-name`} name="name" label={t('setup.backgrounds.name')} errors={submit.errors}>
        <input id={`${id}-name`} value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field id={`${id}-setting`} name="worldSetting" label={t('setup.backgrounds.setting')} errors={submit.errors}>
        <textarea id={`${id}-setting`} rows={4} value={setting} onInput={(e) => setSetting(e.currentTarget.value)} />
      </Field>
      <Field
        id={`${id}-beats`}
        name="beats"
        label={t('setup.backgrounds.beats')}
        hint={t('setup.backgrounds.beatsHint')}
        errors={submit.errors}
      >
        <textarea id={`${id}-beats`} rows={6} value={beats} onInput={(e) => setBeats(e.currentTarget.value)} />
      </Field>
    </SetupForm>
  );
}
