import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../graphql/pagination.js';

const at = new Date('2024-05-01T10:00:00.000Z');
const URL_SAFE = /^[A-Za-z0-9_-]+$/;

describe('encodeCursor', () => {
  it.each(['m-1', '?'.repeat(12), '~'.repeat(12), 'ä/+=&?#', 'x'])(
    'is URL-safe base64 without padding for id %j',
    (id) => {
      expect(encodeCursor(at, id)).toMatch(URL_SAFE);
    },
  );

  it('is the same for the same position (stable pages)', () => {
    expect(encodeCursor(new Date(at), 'm-1')).toBe(encodeCursor(at, 'm-1'));
  });

  it('differs for different ids at the same time', () => {
    expect(encodeCursor(at, 'm-1')).not.toBe(encodeCursor(at, 'm-2'));
  });

  it('differs for different times with the same id', () => {
    expect(encodeCursor(at, 'm-1')).not.toBe(encodeCursor(new Date(at.getTime() + 1), 'm-1'));
  });
});
