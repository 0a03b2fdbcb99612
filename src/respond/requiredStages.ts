// The stream stages every reply passes, whatever a deployment adds (issue 38: a composition root
// cannot forget them): progress markers (seed 001) never reach people, director on or off, and
// citations are checked last against the reply's numbered passages. app/ may add stages between.
import { MARKER_MAX_CHARS, PROGRESS_MARKER } from '../domain/director.js';
import { citationStageFactory } from '../knowledge/citationStage.js';
import { markerStage, type StreamStageFactory } from '../delivery/streamStage.js';

const progressMarkerStage: StreamStageFactory = () =>
  markerStage({ names: [PROGRESS_MARKER], maxLength: MARKER_MAX_CHARS });

/** The first and the last stage of every reply. */
export const REQUIRED_STAGES = { first: [progressMarkerStage], last: [citationStageFactory] } as const;

/** A deployment's own stages placed between the required ones. */
export const withRequiredStages = (extra: readonly StreamStageFactory[] = []): StreamStageFactory[] => [
  ...REQUIRED_STAGES.first,
  ...extra,
  ...REQUIRED_STAGES.last,
];
