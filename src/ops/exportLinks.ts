// An export handed out with a signed, expiring download link beside its inline content. The
// link renders the same export again when fetched (same record, same export time: same bytes),
// so nothing is stored for it.
import { GatewayError } from '../errors.js';
import { EXPORT_LINK_PATH, signExportLink } from '../export/downloadLink.js';
import { exportDialogue, type DialogueExport, type ExportFormat } from './exportDialogue.js';
import type { OpsDeps } from './opsDeps.js';

export interface ExportLinks {
  /** src/export/linkKey.ts */
  key: Uint8Array;
  ttlSeconds: number;
}

export interface LinkedExport extends DialogueExport {
  /** Absolute URL of GET /exports/<token>; a bearer of the document: never logged. */
  downloadUrl: string;
  expiresAt: Date;
}

export async function exportWithLink(
  deps: Pick<OpsDeps, 'store' | 'timezone'> & { exportLinks?: ExportLinks | undefined },
  o: { dialogueId: string; format: ExportFormat; visibleOnly?: boolean; now: Date; baseUrl: string },
): Promise<LinkedExport> {
  const links = deps.exportLinks;
  // Only a deployment with neither EXPORT_LINK_SECRET nor an operator token lacks a key.
  if (!links) throw new GatewayError('INTERNAL', 'export links have no signing key (set EXPORT_LINK_SECRET)');
  const visibleOnly = o.visibleOnly ?? false;
  const exported = await exportDialogue(deps, o.dialogueId, o.format, o.now, { visibleOnly });
  const expiresAt = new Date(o.now.getTime() + links.ttlSeconds * 1000);
  const token = signExportLink(
    { dialogueId: o.dialogueId, format: o.format, visibleOnly, exportedAt: o.now, expiresAt },
    links.key,
  );
  return { ...exported, downloadUrl: new URL(EXPORT_LINK_PATH + token, o.baseUrl).href, expiresAt };
}
