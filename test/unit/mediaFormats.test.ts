// The small decisions before a media call: what a file is named on upload, which reader a
// document gets, how an image's type is found, how text is cut.
import { describe, expect, it } from 'vitest';
import { audioUploadName, documentReader, imageMime } from '../../src/media/formats.js';
import { decodeText, truncateText } from '../../src/media/documents.js';
import { stickerText } from '../../src/media/sticker.js';
import { TINY_PNG } from '../fixtures/media/images.js';

describe('audioUploadName', () => {
  const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(20)]);
  const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8)]);
  const m4a = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(8)]);
  const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(8)]);
  const unknown = Buffer.from('not audio at all');

  it.each([
    ['the bytes say Ogg, whatever the name', { kind: 'audio', fileName: 'upload.bin' }, ogg, undefined, 'upload.ogg'],
    ['the bytes say WAV', { kind: 'voice' }, wav, undefined, 'voice.wav'],
    ['the bytes say M4A', { kind: 'audio', fileName: 'memo' }, m4a, undefined, 'memo.m4a'],
    ['the bytes say MP4', { kind: 'video_note' }, mp4, { fileName: 'file_9.MOV' }, 'file_9.mp4'],
    ['Telegram .oga becomes .ogg', { kind: 'voice' }, unknown, { fileName: 'file_1.oga' }, 'file_1.ogg'],
    ['an accepted extension is kept', { kind: 'audio', fileName: 'talk.webm' }, unknown, undefined, 'talk.webm'],
    [
      'the declared type decides an unknown extension',
      { kind: 'audio', fileName: 'clip.xyz', mime: 'audio/x-m4a' },
      unknown,
      undefined,
      'clip.m4a',
    ],
    [
      'the fetched type wins over the stored one',
      { kind: 'audio', mime: 'audio/mpeg' },
      unknown,
      { mime: 'audio/wav; codecs=1' },
      'audio.wav',
    ],
    ['by kind as a last resort', { kind: 'video' }, unknown, undefined, 'video.mp4'],
  ] as const)('%s', (_what, att, data, fetched, expected) => {
    expect(audioUploadName(att, data, fetched)).toBe(expected);
  });
});

describe('documentReader', () => {
  it.each([
    [{ mime: 'application/pdf' }, 'pdf'],
    [{ fileName: 'Scan.PDF', mime: 'application/octet-stream' }, 'pdf'],
    [{ mime: 'text/plain; charset=utf-8' }, 'plain'],
    [{ mime: 'text/markdown' }, 'plain'],
    [{ fileName: 'README.markdown' }, 'plain'],
    [{ fileName: 'notes.txt' }, 'plain'],
    [
      { fileName: 'cv.docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
      undefined,
    ],
    [{ fileName: 'photo.heic' }, undefined],
    [{}, undefined],
  ] as const)('%o → %s', (att, reader) => {
    expect(documentReader(att)).toBe(reader);
  });
});

describe('imageMime', () => {
  it('trusts the bytes over a declared type', () => {
    expect(imageMime(TINY_PNG, 'application/octet-stream', 'image/jpeg')).toBe('image/png');
    expect(imageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageMime(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  });

  it('falls back to the first declared image type, then JPEG', () => {
    expect(imageMime(Buffer.from('??'), 'application/octet-stream', 'image/heic')).toBe('image/heic');
    expect(imageMime(Buffer.from('??'))).toBe('image/jpeg');
  });
});

describe('text helpers', () => {
  it('cuts by characters, never inside an emoji, and says how much was kept', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('🙂🙂🙂🙂', 2)).toBe('🙂🙂\n[… truncated: first 2 of 4 characters]');
  });

  it('refuses binary data under a text name', () => {
    expect(() => decodeText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toThrow(/not text/);
    expect(decodeText(Buffer.from('\uFEFFhello', 'utf8'))).toBe('hello');
  });

  it('names a sticker by what is known', () => {
    expect(stickerText({ emoji: '👍' })).toBe('👍');
    expect(stickerText({ setName: 'Cats' })).toBe('(sticker set "Cats")');
    expect(stickerText({})).toBe('(sticker)');
  });
});
