// The life rig: one in-process gateway (gateway + worker + api over fake Telegram and fake
// OpenAI) on a simulated clock, with people who talk in DMs, groups, rooms and the web. Every
// step is one message; the rig waits until the app is quiet again and keeps, per turn, every
// prompt the gateway sent for it — as the model received it (wire) and as the turn's
// context_built trace recorded it (trace).
import { privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { taskBrain } from '../doubles/fakeTaskBrain.js';
import type { RecordedRequest, RecordedTaskRequest } from '../doubles/fakeOpenAI.js';
import { startHarness, type Harness } from '../support/harness.js';
import { startSimClock, type SimClock } from '../support/simClock.js';
import { webApi } from '../support/webClient.js';
import { checkCaptured, contextPrompt, oneChunkEcho, stringsIn, wirePrompt, type SeenPrompt } from './lifePrompts.js';
import {
  allMemories,
  contextsOf,
  dialogues,
  evolveNow,
  issueWebToken,
  messagesOf,
  type MessageRef,
} from './lifeApi.js';

export type { SeenPrompt } from './lifePrompts.js';

export const BOT_USERNAME = 'fake_test_bot'; // the fake Bot API's default bot
const TURN_TIMEOUT_MS = 20_000;
const QUIET_MS = 500;

export interface Person {
  name: string;
  userId: number;
  lang: 'zh-hans' | 'en';
}

export type Place =
  | { kind: 'dm'; person: Person; label: string }
  | { kind: 'group'; chatId: number; title: string; label: string }
  | { kind: 'web'; person: Person; label: string; conversationId: string; dialogueId: string; token: string };

export interface LifeTurn {
  /** "day 2 10:02, turn 3 (小红 in group 周末群)" — every check's message starts with it. */
  label: string;
  day: number;
  place: Place;
  who: Person;
  text: string;
  prompts: SeenPrompt[];
  /** Index of the turn in the rig's history (to check "every later turn"). */
  seq: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls with real time (performance.now is not faked) until `check` gives a value. */
async function until<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = TURN_TIMEOUT_MS,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (performance.now() > end) throw new Error(`life rig: timed out waiting for ${what}`);
    await sleep(50);
  }
}

export interface LifeOptions {
  /** Simulated start, epoch ms. */
  start: number;
  env?: Record<string, string>;
}

export class LifeRig {
  readonly turns: LifeTurn[] = [];
  /** The fake model's evolve_persona may write people's secrets into the persona (fakeTaskBrain). */
  leakyEvolve = false;
  private updateId = 0;
  private dayTurns = { day: 0, n: 0 };
  private readonly dialogueIds = new Map<string, string>();
  private readonly seenContexts = new Set<string>();

  private constructor(
    readonly scenario: string,
    readonly h: Harness,
    readonly clock: SimClock,
  ) {}

  static async start(scenario: string, o: LifeOptions): Promise<LifeRig> {
    const clock = startSimClock(o.start);
    const made: { rig?: LifeRig } = {}; // the brain asks the rig, which needs the harness first
    const h = await startHarness({ EMBEDDINGS: 'offline', ...o.env }, ['gateway', 'worker', 'api'], {
      openai: {
        taskReply: taskBrain({ leakyEvolve: () => made.rig?.leakyEvolve ?? false }),
        defaultReply: (body) => oneChunkEcho(stringsIn(body.messages.findLast((m) => m.role === 'user')?.content)),
        defaultResponsesReply: (body) =>
          oneChunkEcho(typeof body.input === 'string' ? [body.input] : stringsIn(body.input.at(-1))),
      },
    });
    made.rig = new LifeRig(scenario, h, clock);
    return made.rig;
  }

  async stop(): Promise<void> {
    await this.h.stop();
    this.clock.stop();
  }

  dm(person: Person): Place {
    return { kind: 'dm', person, label: `${person.name}'s DM` };
  }

  group(chatId: number, title: string): Place {
    return { kind: 'group', chatId, title, label: `group ${title}` };
  }

  /** A web user of their own (not linked), with one conversation. */
  async web(person: Person, token?: string): Promise<Place> {
    const t = token ?? (await issueWebToken(this.h, person.name)).token;
    const c = await webApi(this.h.app.apiUrl!, t).createConversation();
    if (c.status !== 201 || !c.json) throw new Error(`life rig: web conversation not created (${c.status})`);
    return {
      kind: 'web',
      person,
      label: `${person.name}'s web chat`,
      conversationId: String(c.json.id),
      dialogueId: String(c.json.dialogueId),
      token: t,
    };
  }

  /** Links the person's Telegram account to a new web user (/link in the DM); returns that web chat. */
  async linkWeb(person: Person): Promise<Place> {
    const { token } = await issueWebToken(this.h, person.name);
    const code = await webApi(this.h.app.apiUrl!, token).raw('POST', '/link-code', {});
    if (code.status !== 201 || typeof code.json?.code !== 'string') throw new Error('life rig: no link code');
    const dm = this.dm(person);
    const before = this.sent(person.userId).length;
    this.push(dm, person, `/link ${code.json.code}`);
    const notice = await until(() => this.sent(person.userId)[before], 'the /link answer');
    if (!/Linked|已关联/.test(notice)) throw new Error(`life rig: /link refused: ${notice}`);
    await this.settle();
    return this.web(person, token);
  }

  /** Pauses the simulated life; the app must be idle (every step ends quiet). */
  pause(ms: number): void {
    this.clock.advance(ms);
  }

  /**
   * `who` says `text` in `place` and the rig waits for the answer (or, with `answered: false`, for
   * the message to be stored) and for the app to go quiet; the turn keeps every prompt sent meanwhile.
   */
  async say(who: Person, place: Place, text: string, o: { answered?: boolean } = {}): Promise<LifeTurn> {
    const answered = o.answered ?? true;
    const day = this.clock.day();
    if (this.dayTurns.day !== day) this.dayTurns = { day, n: 0 };
    const label = `day ${day} ${this.clock.timeOfDay()}, turn ${++this.dayTurns.n} (${who.name} in ${place.label})`;
    const started = performance.now();
    const wireFrom = this.wire().length;
    if (place.kind === 'web') {
      const r = await webApi(this.h.app.apiUrl!, place.token).send(place.conversationId, { content: text });
      if (r.status !== 200) throw new Error(`${label}: the web channel answered ${r.status}`);
    } else {
      const chatId = place.kind === 'dm' ? place.person.userId : place.chatId;
      const before = this.sent(chatId).length;
      this.push(place, who, text);
      const dialogueId = await this.dialogueOf(place);
      if (answered) await until(() => (this.sent(chatId).length > before ? true : undefined), `${label}: a reply`);
      else
        await until(
          async () => ((await messagesOf(this.h, dialogueId)).some((m) => m.content === text) ? true : undefined),
          `${label}: the message stored`,
        );
    }
    const dialogueId = await this.dialogueOf(place);
    // Quiet and delivered at once: a room's next agent may be waiting for the chat's budget.
    do {
      await this.untilDelivered(place, dialogueId, label);
      await this.settle();
    } while (!(await this.delivered(place, dialogueId)));
    const prompts = [...this.wire().slice(wireFrom).map(wirePrompt), ...(await this.newContexts(dialogueId))];
    if (answered) checkCaptured(label, text, prompts);
    const turn: LifeTurn = { label, day, place, who, text, prompts, seq: this.turns.length };
    this.turns.push(turn);
    this.note(`${label}: ${Math.round(performance.now() - started)} ms, ${prompts.length} prompts`);
    return turn;
  }

  /** LIFE_TRACE=1 prints a line per turn (where a week spends its time) and the scenarios' notes. */
  note(line: string): void {
    if (process.env.LIFE_TRACE) console.info(`${this.scenario} — ${line}`);
  }

  /** Waits until nothing happens for a while: no model call (replies, tasks, embeddings), no Bot API call. */
  async settle(quietMs = QUIET_MS, timeoutMs = 60_000): Promise<void> {
    const activity = (): number =>
      this.h.llm.requests.length +
      this.h.llm.responsesRequests.length +
      this.h.llm.taskRequests.length +
      this.h.llm.embeddingsRequests.length +
      this.h.tg.calls.filter((c) => c.method !== 'getUpdates').length;
    let last = activity();
    let since = performance.now();
    const end = since + timeoutMs;
    while (performance.now() < end) {
      await sleep(50);
      const now = activity();
      if (now !== last) [last, since] = [now, performance.now()];
      else if (performance.now() - since >= quietMs) return;
    }
    throw new Error('life rig: the app never went quiet');
  }

  /** The dialogue of a place, as the ops API lists it (a Telegram chat's appears with its first message). */
  async dialogueOf(place: Place): Promise<string> {
    if (place.kind === 'web') return place.dialogueId;
    const chatId = String(place.kind === 'dm' ? place.person.userId : place.chatId);
    const known = this.dialogueIds.get(chatId);
    if (known) return known;
    const id = await until(
      async () => (await dialogues(this.h)).find((d) => d.chat.platform === 'telegram' && d.chat.chatId === chatId)?.id,
      `the dialogue of ${place.label}`,
    );
    this.dialogueIds.set(chatId, id);
    return id;
  }

  /** A DM's person: their human id (the DM dialogue's one human). */
  async humanOf(person: Person): Promise<string> {
    const id = await this.dialogueOf(this.dm(person));
    const d = (await dialogues(this.h)).find((x) => x.id === id);
    const human = d?.humanIds[0];
    if (!human) throw new Error(`life rig: ${person.name}'s DM has no human`);
    return human;
  }

  /**
   * Evolves the agent's persona now (the ops mutation) and waits for the model to be asked and
   * the app to go quiet; returns what the model was given (the evolve_persona task's input).
   */
  async evolve(agentId: string): Promise<string> {
    const asked = (): RecordedTaskRequest[] => this.h.llm.taskRequests.filter((t) => t.task === 'evolve_persona');
    const before = asked().length;
    await evolveNow(this.h, agentId);
    const request = await until(() => asked()[before], 'the evolve_persona task');
    await this.settle();
    return request.input;
  }

  /**
   * Waits until some memory holds `needle` (extraction ran): a secret that was never learned
   * cannot leak, so a privacy check is only worth something after this.
   */
  async untilRemembered(needle: string): Promise<void> {
    await until(
      async () => ((await allMemories(this.h)).some((m) => m.text.includes(needle)) ? true : undefined),
      `a memory holding '${needle}'`,
    );
  }

  /** The turns from `seq` on (every later prompt). */
  turnsSince(seq: number): LifeTurn[] {
    return this.turns.slice(seq);
  }

  private wire(): RecordedRequest[] {
    // Chat and responses requests together, in arrival order (background JSON tasks are apart).
    return [...this.h.llm.requests, ...this.h.llm.responsesRequests].sort((a, b) => a.receivedAt - b.receivedAt);
  }

  /** What the bot sent into the chat: each sendMessage's text, or (`shown`) what the chat shows now, edits applied. */
  private sent(chatId: number, shown = false): string[] {
    if (shown) return this.h.tg.sentText(chatId).map((t) => t.trim());
    return this.h.tg
      .callsOf('sendMessage')
      .filter((c) => String(c.params.chat_id) === String(chatId))
      .map((c) => String(c.params.text));
  }

  private push(place: Place, who: Person, text: string): void {
    const updateId = ++this.updateId;
    // A chat's message ids are shared by people and bots and only grow: leave room for the
    // bot's replies (the fake numbers them after the latest id it saw).
    const messageId = updateId * 1000;
    const from = {
      userId: who.userId,
      firstName: who.name,
      username: `u${who.userId}`,
      languageCode: who.lang,
      messageId,
      date: this.clock.unixSeconds(), // simulated time, as Telegram would date it
    };
    if (place.kind === 'dm') this.h.tg.pushUpdate(privateText({ updateId, chatId: who.userId, ...from, text }));
    else if (place.kind === 'group')
      this.h.tg.pushUpdate(
        textUpdate({ updateId, place: { kind: 'group', chatId: place.chatId, title: place.title }, ...from, text }),
      );
    else throw new Error('life rig: web messages go through the web API');
  }

  /**
   * Every reply is out: none still streaming, and on Telegram each finished one shows as sent —
   * a group's sending budget can hold a reply's last edit back for seconds with nothing else
   * happening, which a quiet spell alone would take for the end.
   */
  private async delivered(place: Place, dialogueId: string): Promise<boolean> {
    const shown = place.kind === 'web' ? [] : this.sent(place.kind === 'dm' ? place.person.userId : place.chatId, true);
    const done = (m: MessageRef): boolean =>
      m.senderRole !== 'ai' ||
      (m.delivery?.state !== 'streaming' &&
        (place.kind === 'web' || !m.visible || m.delivery?.state !== 'complete' || shown.includes(m.content.trim())));
    return (await messagesOf(this.h, dialogueId)).every(done);
  }

  private async untilDelivered(place: Place, dialogueId: string, label: string): Promise<void> {
    await until(
      async () => ((await this.delivered(place, dialogueId)) ? true : undefined),
      `${label}: replies delivered`,
    );
  }

  private async newContexts(dialogueId: string): Promise<SeenPrompt[]> {
    const fresh = (await contextsOf(this.h, dialogueId)).filter((e) => !this.seenContexts.has(e.id));
    for (const e of fresh) this.seenContexts.add(e.id);
    return fresh.map((e) => contextPrompt(e.data));
  }
}
