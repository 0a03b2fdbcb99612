// One dialogue: its sessions, the selected session's turns with their messages (live over
// subscriptions: messages grow as replies stream, turns change status), its story (seed 001's
// background and plot), and the operator's actions (post a message, summarise the session, export).
import { useMemo, useState } from 'preact/hooks';
import { errorText, gql } from '../lib/api.js';
import { graphql } from '../lib/graphql.js';
import { useDebounced, useQuery } from '../lib/hooks.js';
import { useSubscription } from '../lib/live.js';
import { Link, navigate } from '../lib/router.js';
import { download } from '../lib/download.js';
import { useCan } from '../lib/viewerContext.js';
import {
  DialogueSummaryFields,
  MessageFields,
  nodes,
  SESSION_TURNS,
  SessionSummaryFields,
  type MessageView,
  type TurnView,
} from '../lib/types.js';
import {
  Badge,
  Collapsible,
  Empty,
  ErrorBox,
  LiveDot,
  Loading,
  PageHeader,
  Panel,
  StatusBadge,
  Time,
} from '../components/ui.js';
import { TurnCard } from '../components/TurnCard.js';
import { PostMessage } from '../components/PostMessage.js';
import { MessageBubble } from '../components/MessageBubble.js';
import { JumpToLatest } from '../components/JumpToLatest.js';
import { StoryPanel } from '../components/StoryPanel.js';
import { useI18n } from '../lib/i18n.js';

const DIALOGUE = graphql(
  `
    query Dialogue($id: ID!) {
      dialogue(id: $id) {
        ...DialogueSummaryFields
        sessions(last: 50) {
          edges {
            node {
              ...SessionSummaryFields
            }
          }
        }
      }
    }
  `,
  [DialogueSummaryFields, SessionSummaryFields],
);

// Messages outside any turn (an operator's post, a notice): system messages of the session.
const LOOSE = graphql(
  `
    query SessionLoose($id: ID!, $since: DateTime!) {
      dialogue(id: $id) {
        messages(role: system, since: $since, last: 100) {
          edges {
            node {
              ...MessageFields
              sessionId
            }
          }
        }
      }
    }
  `,
  [MessageFields],
);

const MESSAGE_UPDATES = graphql(
  `
    subscription Messages($id: ID!) {
      messageUpdates(dialogueId: $id) {
        change
        message {
          ...MessageFields
        }
      }
    }
  `,
  [MessageFields],
);
const TURN_UPDATES = graphql(`
  subscription Turns($id: ID!) {
    turnUpdates(dialogueId: $id) {
      id
      status
    }
  }
`);
const SUMMARIZE = graphql(`
  mutation Summarize($id: ID!) {
    summarizeSession(sessionId: $id) {
      queued
    }
  }
`);
const EXPORT = graphql(`
  mutation Export($id: ID!) {
    exportDialogue(dialogueId: $id, format: MARKDOWN) {
      fileName
      mimeType
      content
    }
  }
`);

type Entry =
  { at: number; turn: TurnView; message?: undefined } | { at: number; message: MessageView; turn?: undefined };

/** An operator's post is signed `operator:<name>`: name them rather than showing "system". */
const withOperator = (
  names: Record<string, string>,
  m: MessageView,
  operator: (name: string) => string,
): Record<string, string> =>
  m.senderId.startsWith('operator:') ? { ...names, [m.senderId]: operator(m.senderId.slice(9)) } : names;

/** Turns and the messages outside them, in time order (a post lands between the turns around it). */
function timeline(turns: TurnView[], loose: MessageView[], olderHidden: boolean): Entry[] {
  const from = olderHidden && turns[0] ? Date.parse(turns[0].startedAt) : -Infinity;
  return [
    ...turns.map((turn) => ({ at: Date.parse(turn.startedAt), turn })),
    ...loose.map((message) => ({ at: Date.parse(message.createdAt), message })).filter((e) => e.at >= from),
  ].sort((a, b) => a.at - b.at);
}

export function DialoguePage(p: { id: string; query: URLSearchParams }) {
  const i18n = useI18n();
  const canAct = useCan('operator');
  const d = useQuery(DIALOGUE, { id: p.id });
  const sessions = nodes(d.data?.dialogue.sessions).slice().reverse(); // newest first
  const selected = sessions.find((s) => s.id === p.query.get('session')) ?? sessions[0];
  const t = useQuery(SESSION_TURNS, { id: p.id, since: selected?.startedAt ?? '' }, { skip: !selected });
  const session = nodes(t.data?.dialogue.sessions)[0];
  const turns = session && session.id === selected?.id ? nodes(session.turns) : [];
  const l = useQuery(LOOSE, { id: p.id, since: selected?.startedAt ?? '' }, { skip: !selected });
  const loose = nodes(l.data?.dialogue.messages).filter((m) => m.turnId === null && m.sessionId === selected?.id);
  const [live, setLive] = useState<Record<string, MessageView>>({});
  const [picked, setPicked] = useState<string[]>([]);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // At most 300 ms behind even while a reply streams (each chunk is an event).
  const refresh = useDebounced(
    () => {
      void d.reload();
      void t.reload();
      void l.reload();
    },
    300,
    300,
  );
  const shown = useMemo(
    () => new Set([...turns.flatMap((x) => nodes(x.messages).map((m) => m.id)), ...loose.map((m) => m.id)]),
    [turns, loose],
  );
  const messagesLive = useSubscription(MESSAGE_UPDATES, { id: p.id }, ({ messageUpdates: u }) => {
    // A streamed reply updates in place at once; anything new reloads the turn list.
    if (shown.has(u.message.id)) setLive((l) => ({ ...l, [u.message.id]: u.message }));
    if (u.change === 'CREATED' || !shown.has(u.message.id)) refresh();
  });
  const turnsLive = useSubscription(TURN_UPDATES, { id: p.id }, refresh);

  const names = useMemo(() => {
    const n: Record<string, string> = {};
    for (const h of d.data?.dialogue.humans ?? []) n[h.id] = h.displayName;
    for (const a of d.data?.dialogue.agents ?? []) n[a.id] = a.name;
    return n;
  }, [d.data]);

  if (!d.data)
    return d.error ? (
      <ErrorBox error={d.error} title={i18n.t('dialogue.cannotShow')} />
    ) : (
      <Loading what="the dialogue" />
    );
  const dlg = d.data.dialogue;

  const act = async (what: () => Promise<void>) => {
    setActionError(null);
    setNotice(null);
    try {
      await what();
    } catch (err) {
      setActionError(errorText(err));
    }
  };
  const pick = (id: string, on: boolean) =>
    setPicked((ids) => (on ? [...ids.filter((x) => x !== id), id].slice(-2) : ids.filter((x) => x !== id)));

  return (
    <>
      <PageHeader
        title={dlg.title ?? i18n.t('dialogue.untitled')}
        sub={
          <>
            <Badge tone="plain">{dlg.type}</Badge> <StatusBadge status={dlg.status} />{' '}
            {i18n.t('dialogue.chat', { platform: dlg.chat.platform })} <span class="mono">{dlg.chat.chatId}</span> ·{' '}
            {i18n.t('dialogue.people', {
              humans: dlg.humans.map((h) => h.displayName).join(', ') || i18n.t('dialogue.noHumans'),
              agents: dlg.agents.map((a) => a.name).join(', '),
            })}{' '}
            · {i18n.t('dialogue.messages', { n: dlg.messageCount })} · {i18n.t('dialogue.lastActive')}{' '}
            <Time at={dlg.lastActivityAt} />
          </>
        }
        actions={
          <>
            <LiveDot state={messagesLive === 'live' && turnsLive === 'live' ? 'live' : messagesLive} />
            {canAct && (
              <button
                onClick={() =>
                  act(async () => {
                    const r = await gql(EXPORT, { id: dlg.id });
                    download(r.exportDialogue.fileName, r.exportDialogue.mimeType, r.exportDialogue.content);
                  })
                }
              >
                {i18n.t('dialogue.export')}
              </button>
            )}
          </>
        }
      />
      <ErrorBox error={d.error} title={i18n.t('dialogue.refreshFailed')} />
      <ErrorBox error={actionError} />
      {notice && <div class="notice">{notice}</div>}
      <div class="split">
        <Panel title={i18n.t('dialogue.sessions')} class="side">
          {/* role=list: `list-style: none` makes some screen readers drop the list semantics. */}
          <ul class="session-list" role="list" data-testid="session-list">
            {sessions.map((s) => (
              <li class={s.id === selected?.id ? 'selected' : ''}>
                <Link
                  href={`/dialogues/${encodeURIComponent(dlg.id)}?session=${encodeURIComponent(s.id)}`}
                  aria-current={s.id === selected?.id ? 'true' : undefined}
                >
                  <div>
                    <StatusBadge status={s.status} /> {s.kind !== 'dialogue' && <Badge tone="plain">{s.kind}</Badge>}
                    {s.closeReason && <span class="muted small"> {s.closeReason}</span>}
                  </div>
                  <div class="small">
                    <Time at={s.startedAt} />
                  </div>
                  <div class="muted small">
                    {i18n.t('dialogue.turnsMessages', {
                      turns: s.stats.turnCount,
                      messages: s.stats.messageCount,
                    })}
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
        <div class="main-col">
          <StoryPanel key={dlg.id} dialogueId={dlg.id} />
          {selected && (
            <Panel
              title={
                <>
                  {i18n.t('dialogue.session')} <span class="mono small muted">{selected.id}</span>
                </>
              }
              actions={
                <>
                  {picked.length === 2 && (
                    <button
                      class="primary small"
                      onClick={() =>
                        navigate(`/diff?a=${encodeURIComponent(picked[0]!)}&b=${encodeURIComponent(picked[1]!)}`)
                      }
                    >
                      {i18n.t('dialogue.diff')}
                    </button>
                  )}
                  {canAct && selected.status === 'open' && (
                    <button
                      class="small"
                      title={i18n.t('dialogue.summariseTip')}
                      onClick={() =>
                        act(async () => {
                          await gql(SUMMARIZE, { id: selected.id });
                          setNotice(i18n.t('dialogue.summaryQueued'));
                        })
                      }
                    >
                      {i18n.t('dialogue.summarise')}
                    </button>
                  )}
                </>
              }
            >
              {selected.summary && (
                <Collapsible summary={i18n.t('dialogue.summary')}>
                  <p class="prewrap">{selected.summary}</p>
                </Collapsible>
              )}
              <ErrorBox error={t.error} />
              <ErrorBox error={l.error} />
              {!t.data ? (
                !t.error && <Loading what="turns" />
              ) : turns.length === 0 && loose.length === 0 ? (
                <Empty>{i18n.t('dialogue.noTurns')}</Empty>
              ) : (
                <div class="turns">
                  {session?.turns.pageInfo?.hasPreviousPage && (
                    <div class="muted small">{i18n.t('dialogue.olderHidden')}</div>
                  )}
                  {timeline(turns, loose, !!session?.turns.pageInfo?.hasPreviousPage).map((e) =>
                    e.turn ? (
                      <TurnCard
                        key={e.turn.id}
                        turn={e.turn}
                        live={live}
                        names={names}
                        picked={picked.includes(e.turn.id)}
                        onPick={(on) => pick(e.turn.id, on)}
                      />
                    ) : (
                      <div class="loose-message" data-testid="loose-message" key={e.message.id}>
                        <MessageBubble
                          m={live[e.message.id] ?? e.message}
                          names={withOperator(names, e.message, (name) => i18n.t('dialogue.operator', { name }))}
                        />
                      </div>
                    ),
                  )}
                  <JumpToLatest />
                </div>
              )}
              {canAct && <PostMessage dialogueId={dlg.id} onPosted={refresh} />}
            </Panel>
          )}
          {sessions.length === 0 && <Empty>{i18n.t('dialogue.noSessions')}</Empty>}
        </div>
      </div>
    </>
  );
}
