// The selected session: a diff of two picked turns, summarising it (operators, while open), its
// summary, its turns and loose messages, and posting into the dialogue.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useI18n } from '../../lib/i18n.js';
import { navigate } from '../../lib/router.js';
import type { SessionSummary } from '../../lib/types.js';
import { useCan } from '../../lib/viewerContext.js';
import { PostMessage } from '../PostMessage.js';
import { Collapsible, Empty, ErrorBox, Loading, Panel } from '../ui.js';
import { SessionTimeline } from './SessionTimeline.js';
import type { ActionNotice, useDialogue } from './useDialogue.js';

const SUMMARIZE = graphql(`
  mutation Summarize($id: ID!) {
    summarizeSession(sessionId: $id) {
      queued
    }
  }
`);

type DialogueData = ReturnType<typeof useDialogue>;

export function SessionPanel(p: {
  dialogueId: string;
  selected: SessionSummary;
  data: DialogueData;
  actions: ActionNotice;
}) {
  const i18n = useI18n();
  const canAct = useCan('operator');
  const { t, l, turns, loose, session } = p.data;
  const [picked, setPicked] = useState<string[]>([]);
  const pick = (id: string, on: boolean) =>
    setPicked((ids) => (on ? [...ids.filter((x) => x !== id), id].slice(-2) : ids.filter((x) => x !== id)));
  return (
    <Panel
      title={
        <>
          {i18n.t('dialogue.session')} <span class="mono small muted">{p.selected.id}</span>
        </>
      }
      actions={<SessionActions session={p.selected} picked={picked} actions={p.actions} />}
    >
      {p.selected.summary && (
        <Collapsible summary={i18n.t('dialogue.summary')}>
          <p class="prewrap">{p.selected.summary}</p>
        </Collapsible>
      )}
      <ErrorBox error={t.error} />
      <ErrorBox error={l.error} />
      {!t.data ? (
        !t.error && <Loading what="turns" />
      ) : turns.length === 0 && loose.length === 0 ? (
        <Empty>{i18n.t('dialogue.noTurns')}</Empty>
      ) : (
        <SessionTimeline
          turns={turns}
          loose={loose}
          olderHidden={!!session?.turns.pageInfo?.hasPreviousPage}
          live={p.data.live}
          names={p.data.names}
          picked={picked}
          onPick={pick}
        />
      )}
      {canAct && <PostMessage dialogueId={p.dialogueId} onPosted={p.data.refresh} />}
    </Panel>
  );
}

/** Diff the two picked turns; summarise the session now (operators, while it is open). */
function SessionActions(p: { session: SessionSummary; picked: string[]; actions: ActionNotice }) {
  const i18n = useI18n();
  const canAct = useCan('operator');
  const { picked, session } = p;
  return (
    <>
      {picked.length === 2 && (
        <button
          class="primary small"
          onClick={() => navigate(`/diff?a=${encodeURIComponent(picked[0]!)}&b=${encodeURIComponent(picked[1]!)}`)}
        >
          {i18n.t('dialogue.diff')}
        </button>
      )}
      {canAct && session.status === 'open' && (
        <button
          class="small"
          title={i18n.t('dialogue.summariseTip')}
          onClick={() =>
            p.actions.act(async () => {
              await gql(SUMMARIZE, { id: session.id });
              p.actions.setNotice(i18n.t('dialogue.summaryQueued'));
            })
          }
        >
          {i18n.t('dialogue.summarise')}
        </button>
      )}
    </>
  );
}
