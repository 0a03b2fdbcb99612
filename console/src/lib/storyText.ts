// How a dialogue's story reads: a beat status's tone, catalogue words for stored values, and one
// director event in a line.
import type { I18n } from './i18n.js';
import { isMessageKey } from '../i18n/messages.js';
import type { BeatStatus, EventView } from './types.js';

export const BEAT_TONE: Record<BeatStatus, 'plain' | 'info' | 'ok' | 'muted'> = {
  pending: 'plain',
  active: 'info',
  done: 'ok',
  skipped: 'muted',
};

/** A catalogue word for a stored value (a beat's status, who moved it), else the value itself. */
export const word = (t: I18n['t'], prefix: string, value: string): string => {
  const key = `${prefix}${value}`;
  return isMessageKey(key) ? t(key) : value;
};

type DirectorData = {
  by?: string;
  switchedTo?: string | null;
  applied?: Array<{ n: number; status: string }>;
  refused?: Array<{ marker: string; reason: string }>;
  noUpdateCount?: number;
  fallbackDueNext?: boolean;
};

/** One director event in a line: an operator's change, or what a reply's markers did. */
export function describeEvent(t: I18n['t'], e: EventView): string {
  const d = e.data as DirectorData;
  const sep = t('story.listSep');
  const moved = (a: DirectorData['applied']) =>
    (a ?? []).map((x) => t('story.moved', { n: x.n, status: word(t, 'story.beat.', x.status) })).join(sep);
  if (d.by === 'operator')
    return 'switchedTo' in d
      ? d.switchedTo
        ? t('story.event.switched')
        : t('story.event.cleared')
      : t('story.event.operatorSet', { moved: moved(d.applied) });
  const parts = [
    d.applied?.length ? t('story.event.directorMoved', { moved: moved(d.applied) }) : t('story.event.noProgress'),
  ];
  if (d.refused?.length) {
    const list = d.refused.map((r) =>
      t('story.event.refusedOne', { marker: r.marker, reason: word(t, 'story.refusal.', r.reason) }),
    );
    parts.push(t('story.event.refused', { list: list.join(sep) }));
  }
  if (d.fallbackDueNext) parts.push(t('story.event.dueNext'));
  return parts.join(t('story.eventSep'));
}
