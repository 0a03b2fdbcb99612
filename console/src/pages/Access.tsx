// Who may talk and how much each person may spend (SPEC §14): invite codes (an admin's: listed,
// created, revoked) and the people, newest first, with their standing and daily token quota.
// The mode itself (open or allowlist) and the deployment's limits are config fields.
import { useState } from 'preact/hooks';
import { ACCESS_CONFIG, INVITES, type InviteView } from '../lib/accessQueries.js';
import { useQuery } from '../lib/hooks.js';
import { useI18n } from '../lib/i18n.js';
import { Link } from '../lib/router.js';
import { useCan } from '../lib/viewerContext.js';
import { ErrorBox, Loading, PageHeader, Panel, ReadOnlyNote } from '../components/ui.js';
import { InviteForm } from '../components/access/InviteForm.js';
import { InviteList } from '../components/access/InviteList.js';
import { PeopleList } from '../components/access/PeopleList.js';

export function AccessPage() {
  const { t } = useI18n();
  const isAdmin = useCan('admin');
  const invites = useQuery(INVITES, {}, { skip: !isAdmin });
  const config = useQuery(ACCESS_CONFIG);
  const [created, setCreated] = useState<InviteView | null>(null);
  const mode = config.data?.config.access.mode;
  return (
    <>
      <PageHeader
        title={t('access.title')}
        sub={
          <>
            {t('access.sub')}
            {mode && (
              <div data-testid="access-mode">
                <strong>
                  {t('access.modeNow', {
                    mode: mode === 'allowlist' || mode === 'open' ? t(`access.mode.${mode}`) : mode,
                  })}
                </strong>{' '}
                <Link href="/config">{t('access.toConfig')}</Link>
              </div>
            )}
          </>
        }
      />
      {!isAdmin && <ReadOnlyNote needs="admin" />}
      <div class="access-grid">
        <Panel title={t('access.invites.title')}>
          <div class="muted small">{t('access.invites.howTo')}</div>
          {!isAdmin ? (
            <div class="note">{t('access.invites.adminOnly')}</div>
          ) : (
            <>
              <ErrorBox error={invites.error} />
              {created && (
                <div class="notice" role="status" data-testid="invite-created">
                  {t('access.invites.created', { code: created.code })}
                </div>
              )}
              {invites.data ? (
                <InviteList invites={invites.data.invites} onChanged={() => void invites.reload()} />
              ) : (
                !invites.error && <Loading what="invites" />
              )}
            </>
          )}
        </Panel>
        <Panel title={t('access.invites.new')}>
          <InviteForm
            onCreated={(i) => {
              setCreated(i);
              void invites.reload();
            }}
          />
        </Panel>
      </div>
      <Panel title={t('access.people.title')}>
        <div class="muted small">{t('access.people.sub')}</div>
        <ErrorBox error={config.error} />
        <PeopleList limit={config.data?.config.limits.person_daily_tokens ?? 0} />
      </Panel>
    </>
  );
}
