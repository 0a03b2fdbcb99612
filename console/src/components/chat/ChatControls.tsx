// The chat page's header actions: which agent a new conversation is with, and starting it.
import { useState } from 'preact/hooks';
import { useI18n } from '../../lib/i18n.js';
import { Select } from '../ui.js';

export function ChatControls(p: { agents: { id: string; name: string }[]; onStart: (agentId: string) => void }) {
  const { t } = useI18n();
  const [agentId, setAgentId] = useState('');
  return (
    <>
      <Select
        label={t('th.agent')}
        value={agentId}
        options={[
          { value: '', label: t('chat.defaultAgent') },
          ...p.agents.map((a) => ({ value: a.id, label: a.name })),
        ]}
        onChange={setAgentId}
        testId="chat-agent"
      />
      <button class="primary" onClick={() => p.onStart(agentId)} data-testid="chat-new">
        {t('chat.new')}
      </button>
    </>
  );
}
