// People of the web channel and their tokens: issue one (shown once), reissue (the old one stops
// working) or revoke. The list never carries a token: the gateway stores only hashes.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql, type ResultOf } from '../lib/graphql.js';
import { useQuery } from '../lib/hooks.js';
import { useI18n } from '../lib/i18n.js';
import { WebUserFields, type WebUser } from '../lib/setupTypes.js';
import { useSubmit } from '../lib/useSubmit.js';
import { useCan } from '../lib/viewerContext.js';
import { Badge, Empty, ErrorBox, Loading, PageHeader, Panel, Time } from '../components/ui.js';
import { Field, SetupForm } from '../components/setup/form.js';
import { IssuedToken } from '../components/setup/IssuedToken.js';

const QUERY = graphql(
  `
    query SetupWebUsers {
      webUsers {
        ...WebUserFields
      }
    }
  `,
  [WebUserFields],
);
const ISSUE = graphql(
  `
    mutation Issue($name: String!) {
      issueWebToken(name: $name) {
        token
        user {
          ...WebUserFields
        }
      }
    }
  `,
  [WebUserFields],
);
const REISSUE = graphql(
  `
    mutation Reissue($id: ID!) {
      reissueWebToken(id: $id) {
        token
        user {
          ...WebUserFields
        }
      }
    }
  `,
  [WebUserFields],
);
const REVOKE = graphql(`
  mutation Revoke($id: ID!) {
    revokeWebToken(id: $id) {
      id
    }
  }
`);

/** A token just issued or reissued, with its person: shown once. */
type Issued = ResultOf<typeof ISSUE>['issueWebToken'];

function IssueForm(p: { onIssued: (i: Issued) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const submit = useSubmit(async () => (await gql(ISSUE, { name })).issueWebToken, ['name']);
  const issue = async () => {
    const issued = await submit.run();
    if (!issued) return;
    setName('');
    p.onIssued(issued);
  };
  return (
    <SetupForm
      needs="operator"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={t('setup.tokens.issue')}
      onSubmit={() => void issue()}
      testId="token-form"
    >
      <Field
        id="token-name"
        name="name"
        label={t('setup.tokens.name')}
        hint={t('setup.tokens.nameHint')}
        errors={submit.errors}
      >
        <input id="token-name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
    </SetupForm>
  );
}

function WebUserRow(p: { user: WebUser; onIssued: (i: Issued) => void; onChanged: () => void }) {
  const { t } = useI18n();
  const canAct = useCan('operator');
  const [error, setError] = useState<string | null>(null);
  const act = async (run: () => Promise<void>, confirmText: string) => {
    if (!confirm(confirmText)) return;
    setError(null);
    try {
      await run();
      p.onChanged();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const u = p.user;
  return (
    <tr data-testid="web-user">
      <td data-label={t('setup.tokens.name')}>
        <strong>{u.name}</strong> {u.revoked && <Badge tone="muted">{t('setup.tokens.revoked')}</Badge>}
      </td>
      <td data-label={t('setup.tokens.issuedBy')}>{u.issuedBy}</td>
      <td data-label={t('setup.tokens.created')}>
        <Time at={u.createdAt} />
      </td>
      <td data-label="">
        <div class="row">
          <button
            type="button"
            class="small"
            disabled={!canAct}
            onClick={() =>
              void act(
                async () => p.onIssued((await gql(REISSUE, { id: u.id })).reissueWebToken),
                t('setup.tokens.reissueConfirm', { name: u.name }),
              )
            }
          >
            {t('setup.tokens.reissue')}
          </button>
          {!u.revoked && (
            <button
              type="button"
              class="small danger"
              disabled={!canAct}
              onClick={() =>
                void act(
                  async () => void (await gql(REVOKE, { id: u.id })),
                  t('setup.tokens.revokeConfirm', { name: u.name }),
                )
              }
            >
              {t('setup.tokens.revoke')}
            </button>
          )}
          {error && <span class="field-error">{error}</span>}
        </div>
      </td>
    </tr>
  );
}

export function WebUsers() {
  const { t } = useI18n();
  const q = useQuery(QUERY);
  const [issued, setIssued] = useState<Issued | null>(null);
  const onIssued = (i: Issued) => {
    setIssued(i);
    void q.reload();
  };
  return (
    <>
      <PageHeader title={t('setup.tokens.title')} sub={t('setup.tokens.sub')} />
      <ErrorBox error={q.error} />
      {issued && <IssuedToken name={issued.user.name} token={issued.token} onDismiss={() => setIssued(null)} />}
      <div class="grid-2 setup-grid">
        <Panel title={t('setup.tokens.list')}>
          {!q.data ? (
            <Loading />
          ) : q.data.webUsers.length === 0 ? (
            <Empty>{t('setup.tokens.empty')}</Empty>
          ) : (
            <table class="table stack compact">
              <thead>
                <tr>
                  <th scope="col">{t('setup.tokens.name')}</th>
                  <th scope="col">{t('setup.tokens.issuedBy')}</th>
                  <th scope="col">{t('setup.tokens.created')}</th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {q.data.webUsers.map((u) => (
                  <WebUserRow user={u} onIssued={onIssued} onChanged={() => void q.reload()} />
                ))}
              </tbody>
            </table>
          )}
        </Panel>
        <Panel title={t('setup.tokens.new')}>
          <IssueForm onIssued={onIssued} />
        </Panel>
      </div>
    </>
  );
}
