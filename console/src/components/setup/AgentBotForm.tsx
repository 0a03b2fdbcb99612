// An agent's own Telegram bot: the token goes in a write-only field and is never shown again (the
// API checks it with Telegram and returns only the account); the account can be taken away.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useI18n } from '../../lib/i18n.js';
import type { AgentAccount, AgentDetail } from '../../lib/setupTypes.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { useCan } from '../../lib/viewerContext.js';
import { Field, SetupForm } from './form.js';

const SET = graphql(`
  mutation SetBot($agentId: ID!, $token: String!) {
    setAgentBot(agentId: $agentId, platform: telegram, token: $token) {
      platform
      userId
      username
    }
  }
`);
const REMOVE = graphql(`
  mutation RemoveBot($agentId: ID!, $platform: Platform!) {
    removeAgentBot(agentId: $agentId, platform: $platform) {
      id
    }
  }
`);

function BotAccount(p: { agentId: string; account: AgentAccount; onRemoved: () => void }) {
  const { t } = useI18n();
  const canRemove = useCan('admin');
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    if (!confirm(t('setup.bot.removeConfirm'))) return;
    try {
      await gql(REMOVE, { agentId: p.agentId, platform: p.account.platform });
      p.onRemoved();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <li class="row" data-testid="agent-bot">
      <span class="badge plain">{p.account.platform}</span>
      <strong>{p.account.username ? `@${p.account.username}` : p.account.userId}</strong>
      <button type="button" class="small danger" disabled={!canRemove} onClick={() => void remove()}>
        {t('setup.bot.remove')}
      </button>
      {error && <span class="field-error">{error}</span>}
    </li>
  );
}

export function AgentBotForm(p: { agent: AgentDetail; onChanged: () => void }) {
  const { t } = useI18n();
  const [token, setToken] = useState('');
  const [attached, setAttached] = useState<AgentAccount | null>(null);
  const id = `agent-${p.agent.id}-bot`;
  // A refusal by Telegram names no field: it belongs beside the token.
  const submit = useSubmit(
    async () => (await gql(SET, { agentId: p.agent.id, token })).setAgentBot,
    ['token'],
    'token',
  );
  const attach = async () => {
    setAttached(null);
    const account = await submit.run();
    // The token leaves the page either way once the API has it; a refused one stays to correct.
    if (!account) return;
    setToken('');
    setAttached(account);
    p.onChanged();
  };
  return (
    <>
      {p.agent.bindings.length === 0 ? (
        <p class="muted">{t('setup.bot.none')}</p>
      ) : (
        <ul class="plain-list">
          {p.agent.bindings.map((b) => (
            <BotAccount agentId={p.agent.id} account={b} onRemoved={p.onChanged} />
          ))}
        </ul>
      )}
      {attached && (
        <div class="notice" data-testid="agent-bot-attached">
          {t('setup.bot.attached', { account: attached.username ? `@${attached.username}` : attached.userId })}
        </div>
      )}
      <SetupForm
        needs="admin"
        busy={submit.busy}
        errors={submit.errors}
        submitLabel={t('setup.bot.attach')}
        onSubmit={() => void attach()}
        testId="agent-bot-form"
      >
        <Field
          id={`${id}-token`}
          name="token"
          label={t('setup.bot.token')}
          hint={t('setup.bot.tokenHint')}
          errors={submit.errors}
        >
          <input
            id={`${id}-token`}
            type="password"
            autoComplete="off"
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </Field>
      </SetupForm>
    </>
  );
}
