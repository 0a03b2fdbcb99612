// A still frame of a moving picture, for the vision path: a GIF is described by what it shows,
// not transcribed (issue 35). Telegram sends GIFs as silent MP4s, so a frame is decoded with
// ffmpeg when the platform gave no thumbnail; real GIF bytes are already an image.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaError } from './errors.js';
import { sniffImageMime } from './formats.js';

/** ffmpeg's stderr kept for the error message: enough to say why, never the whole log. */
const STDERR_KEPT = 400;

export interface Frame {
  data: Buffer;
  mime: string;
}

/** The bytes as an image when they are one, else their first frame as PNG. */
export async function stillFrame(data: Buffer, o: { ffmpeg: string; signal: AbortSignal }): Promise<Frame> {
  const mime = sniffImageMime(data);
  if (mime) return { data, mime };
  // A file, not a pipe: an MP4 whose index sits at its end cannot be read from a stream.
  const dir = await mkdtemp(join(tmpdir(), 'rainbow-frame-'));
  try {
    const input = join(dir, 'in');
    await writeFile(input, data);
    return { data: await decodeFirstFrame(input, o), mime: 'image/png' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function decodeFirstFrame(input: string, o: { ffmpeg: string; signal: AbortSignal }): Promise<Buffer> {
  const args = ['-nostdin', '-v', 'error', '-i', input, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'];
  return new Promise((resolve, reject) => {
    const child = spawn(o.ffmpeg, args, { signal: o.signal, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-STDERR_KEPT)));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') reject(new MediaError('MEDIA_NO_FRAME', `${o.ffmpeg} is not installed`, { cause: e }));
      else reject(e);
    });
    child.on('close', (code) => {
      const png = Buffer.concat(out);
      if (code === 0 && png.length > 0) resolve(png);
      else reject(new MediaError('MEDIA_NO_FRAME', `ffmpeg found no frame (exit ${code}): ${err.trim()}`));
    });
  });
}
