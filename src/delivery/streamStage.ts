// The stream stage: what the model says passes through here before anything is shown or sent
// (the ReplyStreamer stores the displayed text and pushes it to the platform). A stage may hold
// text back — a marker whose end has not arrived — or rewrite it; the reply's raw text is still
// stored as the model said it. Stages compose in order, one set per reply. None is installed by
// default; the director (progress markers), rooms (skips) and knowledge (citations) plug in here.
// A gate (moderation) holds the whole reply back and lets it out, or a stand-in, once judged.
import type { NumberedSource } from '../domain/citations.js';
import type { GatewayConfig } from '../domain/config.js';
import type { EventKind } from '../domain/model.js';
import { MARKER_MAX_CHARS, scanMarker, type MarkerScan } from '../domain/director.js';

/** What a gate lets out once the model is done. */
export interface Released {
  /** What may be shown: the reply as it came, or what stands in for it. */
  text: string;
  /** The reply was withheld: it is stored as this error with `text` shown, not as what the model said. */
  withheld?: { code: string; message: string };
}

export interface StreamStage {
  /** One delta from the model → the text that may be shown now ('' while holding back). */
  push(delta: string): string;
  /** The model is done: what is still held back, as it should be shown. */
  end(): string;
  /**
   * Only a gate has this: a stage that must judge the whole reply before any of it shows. It
   * gives '' from push() and end(), and here, awaited once the model is done, what may be shown.
   */
  release?: () => Promise<Released>;
}

/** What a stage may know of the reply it filters. */
export interface StreamStageContext {
  /** The knowledge passages the prompt numbered [1]..[k] (src/knowledge); empty when none. */
  readonly sources: readonly NumberedSource[];
  /** The config the reply's turn read (absent outside a reply, e.g. in unit tests). */
  readonly config?: GatewayConfig;
  /** Records an event in the reply's trace (absent outside a reply). */
  readonly record?: (kind: EventKind, data: Record<string, unknown>) => Promise<unknown>;
}

/** Makes a fresh stage for each reply (stages keep per-reply state); a stage may ignore the reply's context. */
export type StreamStageFactory = (reply: StreamStageContext) => StreamStage;

/**
 * Stages in order: each one's output is the next one's input. No stages: text passes through.
 * With a gate among them, end() stops at the gate and release() carries on from it: what the gate
 * lets out passes the stages after it, which end only then (each stage ends once).
 */
export function composeStages(stages: readonly StreamStage[]): StreamStage {
  let gated: { gate: StreamStage; after: readonly StreamStage[] } | undefined;
  // What an earlier stage still held goes through the later ones before they end too.
  const endFrom = (from: readonly StreamStage[], text: string): string => {
    let carried = text;
    for (const [i, s] of from.entries()) {
      carried = (carried ? s.push(carried) : '') + s.end();
      if (s.release) {
        gated = { gate: s, after: from.slice(i + 1) };
        return carried;
      }
    }
    gated = undefined;
    return carried;
  };
  const release = async (): Promise<Released> => {
    let text = '';
    let withheld: Released['withheld'];
    while (gated?.gate.release) {
      const r = await gated.gate.release();
      withheld ??= r.withheld;
      text += endFrom(gated.after, r.text);
    }
    return withheld ? { text, withheld } : { text };
  };
  return {
    push: (delta) => stages.reduce((text, s) => (text ? s.push(text) : ''), delta),
    end: () => endFrom(stages, ''),
    ...(stages.some((s) => s.release !== undefined) ? { release } : {}),
  };
}

export interface MarkerStageOptions {
  /** Marker names: `[NAME:…]`, e.g. PROGRESS for `[PROGRESS:2:done]`. */
  names: readonly string[];
  /** Longest marker, brackets included (MARKER_MAX_CHARS unless set); a longer run after `[NAME:` is ordinary text. */
  maxLength?: number;
  /** Called with each whole marker taken out of the text (its raw form). */
  onMarker?(marker: string): void;
}

/**
 * Takes markers out of the shown text however the model's chunks cut them: text that may be the
 * start of a marker is held back until it either completes (and is dropped) or cannot be one
 * (and is shown). Only the held part waits; the text before it streams as usual.
 */
export function markerStage(o: MarkerStageOptions): StreamStage {
  const max = o.maxLength ?? MARKER_MAX_CHARS;
  let held = '';
  // A marker between two spaces would leave two: the space after it is dropped with it.
  let lastShown = '';
  let swallowSpace = false;
  const shown = (piece: string): string => {
    const text = swallowSpace && piece.startsWith(' ') ? piece.slice(1) : piece;
    if (piece) swallowSpace = false;
    if (text) lastShown = text.at(-1) ?? lastShown;
    return text;
  };
  const scan = (text: string): string => {
    let out = '';
    let rest = text;
    for (;;) {
      const open = rest.indexOf('[');
      if (open < 0) return out + shown(rest);
      out += shown(rest.slice(0, open));
      rest = rest.slice(open);
      const m = markerAt(rest, o.names, max);
      if (m.kind === 'partial') {
        held = rest;
        return out;
      }
      if (m.kind === 'marker') {
        o.onMarker?.(rest.slice(0, m.length));
        rest = rest.slice(m.length);
        swallowSpace = /\s/.test(lastShown);
      } else {
        out += shown('[');
        rest = rest.slice(1);
      }
    }
  };
  return {
    push(delta) {
      const text = held + delta;
      held = '';
      return scan(text);
    },
    end() {
      // An unfinished marker is not a marker: it was said, so it is shown.
      const rest = held;
      held = '';
      return rest;
    },
  };
}

/** What `text` (starting with `[`) holds at its start for any of the names, by the director's grammar. */
function markerAt(text: string, names: readonly string[], max: number): MarkerScan {
  for (const name of names) {
    const m = scanMarker(text, `[${name}:`, max);
    if (m.kind !== 'text') return m;
  }
  return { kind: 'text' };
}
