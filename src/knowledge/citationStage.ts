// The citation stage (src/delivery/streamStage.ts): every [n] the model writes is checked against
// the passages retrieved for this reply before anyone sees it. A valid one passes; an invalid one
// — a number the prompt never showed — is taken out with the spaces before it ("text [9]." →
// "text."). However the model's chunks cut a marker ("[", "1", "2]"), only the possible marker
// is held back until it is decided; spaces at the end of a push wait too, so a dropped marker can
// take them along. With no passages the stage lets everything through: nothing was asked to be
// cited, so brackets are just text.
import type { StreamStage, StreamStageContext, StreamStageFactory } from '../delivery/streamStage.js';
import { isValidCitation, newScanState, scanCitations, type NumberedSource, type Piece } from '../domain/citations.js';

const TRAILING_SPACE = /[ \t]+$/;

export function citationStage(sources: readonly Pick<NumberedSource, 'n'>[]): StreamStage {
  if (sources.length === 0) return { push: (d) => d, end: () => '' };
  const st = newScanState();
  let held = ''; // unscanned: a possible marker or backtick run
  let spaces = ''; // scanned, shown with what follows unless a dropped marker takes them

  const render = (pieces: Piece[]): string => {
    let out = spaces;
    for (const p of pieces) {
      if (p.kind === 'text') out += p.text;
      else if (isValidCitation(p.n, sources)) out += p.raw;
      else out = out.replace(TRAILING_SPACE, '');
    }
    return out;
  };

  return {
    push(delta) {
      const { pieces, rest } = scanCitations(held + delta, st, false);
      held = rest;
      const out = render(pieces);
      spaces = TRAILING_SPACE.exec(out)?.[0] ?? '';
      return out.slice(0, out.length - spaces.length);
    },
    end() {
      const { pieces } = scanCitations(held, st, true);
      held = '';
      const out = render(pieces);
      spaces = '';
      return out;
    },
  };
}

/** The stage for each reply, from the passages its prompt numbered. */
export const citationStageFactory: StreamStageFactory = (reply: StreamStageContext) => citationStage(reply.sources);
