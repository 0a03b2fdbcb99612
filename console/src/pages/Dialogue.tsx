// One dialogue: its sessions, the selected session's turns with their messages (live over
// subscriptions: messages grow as replies stream, turns change status), its story (seed 001's
// background and plot), and the operator's actions (post a message, summarise the session, export).
import { useI18n } from '../lib/i18n.js';
import { Empty, ErrorBox, Loading } from '../components/ui.js';
import { StoryPanel } from '../components/story/StoryPanel.js';
import { useActionNotice, useDialogue } from '../components/dialogue/useDialogue.js';
import { DialogueHeader } from '../components/dialogue/DialogueHeader.js';
import { SessionList } from '../components/dialogue/SessionList.js';
import { SessionPanel } from '../components/dialogue/SessionPanel.js';

export function DialoguePage(p: { id: string; query: URLSearchParams }) {
  const i18n = useI18n();
  const data = useDialogue(p.id, p.query.get('session'));
  const actions = useActionNotice();
  const { d, sessions, selected } = data;
  if (!d.data)
    return d.error ? (
      <ErrorBox error={d.error} title={i18n.t('dialogue.cannotShow')} />
    ) : (
      <Loading what="the dialogue" />
    );
  const dlg = d.data.dialogue;
  return (
    <>
      <DialogueHeader dialogue={dlg} live={data.liveState} act={actions.act} onChanged={() => void d.reload()} />
      <ErrorBox error={d.error} title={i18n.t('dialogue.refreshFailed')} />
      <ErrorBox error={actions.error} />
      {actions.notice && <div class="notice">{actions.notice}</div>}
      <div class="split">
        <SessionList dialogueId={dlg.id} sessions={sessions} selected={selected?.id} />
        <div class="main-col">
          <StoryPanel key={dlg.id} dialogueId={dlg.id} />
          {selected && <SessionPanel dialogueId={dlg.id} selected={selected} data={data} actions={actions} />}
          {sessions.length === 0 && <Empty>{i18n.t('dialogue.noSessions')}</Empty>}
        </div>
      </div>
    </>
  );
}
