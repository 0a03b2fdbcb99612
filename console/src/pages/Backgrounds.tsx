// Backgrounds (seed 001): every world setting with its outline, a form for a new one, and an edit
// form in place. A dialogue's page switches it to one (StoryPanel).
import { useState } from 'preact/hooks';
import { graphql } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { useI18n } from '../lib/i18n.js';
import { BackgroundFields, type BackgroundDetail } from '../lib/setupTypes.js';
import { useCan } from '../lib/viewerContext.js';
import { Empty, ErrorBox, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { BackgroundForm } from '../components/setup/BackgroundForm.js';

const QUERY = graphql(
  `
    query SetupBackgrounds {
      backgrounds {
        ...BackgroundFields
      }
    }
  `,
  [BackgroundFields],
);

function BackgroundCard(p: { background: BackgroundDetail; onSaved: () => void }) {
  const { t } = useI18n();
  const canEdit = useCan('operator');
  const [editing, setEditing] = useState(false);
  const b = p.background;
  return (
    <Panel
      title={b.name}
      actions={
        !editing && (
          <button type="button" class="small" disabled={!canEdit} onClick={() => setEditing(true)}>
            {t('setup.common.edit')}
          </button>
        )
      }
    >
      {editing ? (
        <BackgroundForm
          background={b}
          onSaved={() => {
            setEditing(false);
            p.onSaved();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div data-testid="background">
          <p class="prewrap">{b.worldSetting}</p>
          <ol class="outline">
            {b.outline.map((beat) => (
              <li>{beat.text}</li>
            ))}
          </ol>
          <div class="muted small">
            <Time at={b.createdAt} />
          </div>
        </div>
      )}
    </Panel>
  );
}

export function Backgrounds() {
  const { t } = useI18n();
  const q = useQuery(QUERY);
  return (
    <>
      <PageHeader title={t('setup.backgrounds.title')} sub={t('setup.backgrounds.sub')} />
      <ErrorBox error={q.error} />
      <div class="grid-2 setup-grid">
        <div>
          {!q.data ? (
            <Loading />
          ) : q.data.backgrounds.length === 0 ? (
            <Panel>
              <Empty>{t('setup.backgrounds.empty')}</Empty>
            </Panel>
          ) : (
            q.data.backgrounds.map((b) => <BackgroundCard key={b.id} background={b} onSaved={() => void q.reload()} />)
          )}
        </div>
        <Panel title={t('setup.backgrounds.new')}>
          <BackgroundForm onSaved={() => void q.reload()} />
        </Panel>
      </div>
    </>
  );
}
