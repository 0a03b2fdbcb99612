// Id minting. Random ids sort by creation time (time prefix) so cursors can use them;
// derived ids make retried writes land on the same document (idempotency).
import { createHash, randomBytes } from 'node:crypto';

export function newId(prefix: string, at: Date = new Date()): string {
  const time = at.getTime().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomBytes(6).toString('hex')}`;
}

export function derivedId(prefix: string, ...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
  return `${prefix}_${h}`;
}
