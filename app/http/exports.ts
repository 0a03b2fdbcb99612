// GET /exports/<token>: the export a signed link names (src/export/downloadLink.ts), rendered
// again at its export time and sent as a file. No Authorization header: the link is the
// credential, so neither it nor its URL is ever logged — the dialogue id only.
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../src/log.js';
import { isGatewayError } from '../../src/errors.js';
import { EXPORT_LINK_PATH, verifyExportLink } from '../../src/export/downloadLink.js';
import { attachmentDisposition } from '../../src/export/contentDisposition.js';
import { exportDialogue } from '../../src/ops/exportDialogue.js';
import type { OpsDeps } from '../../src/ops/opsDeps.js';
import { sendCoded } from '../../adapters/web/index.js';

export interface ExportDownloadOptions {
  deps: Pick<OpsDeps, 'store' | 'timezone'>;
  /** src/export/linkKey.ts */
  key: Uint8Array;
  log: Logger;
  /** The clock links expire by (tests move it). */
  now?: () => Date;
}

const MESSAGES = {
  EXPORT_LINK_EXPIRED: 'this download link has expired; export again for a new one',
  EXPORT_LINK_INVALID: 'this download link is not valid',
} as const;

export function mountExportDownloads(app: FastifyInstance, o: ExportDownloadOptions): void {
  const now = o.now ?? (() => new Date());
  // A wildcard, not a `:token` parameter: a token is longer than Fastify's 100-character
  // parameter limit, past which a parameter route answers 404.
  app.get<{ Params: { '*': string } }>(`${EXPORT_LINK_PATH}*`, async (req, reply) => {
    const check = verifyExportLink(req.params['*'], o.key, now());
    if (!check.ok) return sendCoded(reply, check.code, MESSAGES[check.code]);
    const { dialogueId, format, visibleOnly, exportedAt } = check.claims;
    let file;
    try {
      file = await exportDialogue(o.deps, dialogueId, format, exportedAt, { visibleOnly });
    } catch (err) {
      // The dialogue deleted since (404), or grown past the export's cap (400).
      if (isGatewayError(err)) return sendCoded(reply, err.code, err.message);
      o.log.error({ err, dialogueId }, 'export download failed');
      return reply.code(500).send({ error: { code: 'INTERNAL', message: 'internal error' } });
    }
    o.log.info({ dialogueId, format }, 'export downloaded');
    const body = Buffer.from(file.content, format === 'pdf' ? 'base64' : 'utf8');
    return (
      reply
        .code(200)
        .header('content-type', file.mimeType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        // Private content behind a bearer link: kept by no cache, and the link sent on as no referrer.
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(body)
    );
  });
}
