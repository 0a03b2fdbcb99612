// The transcript's blocks as a PDF (pdfkit) in Noto Sans SC, so Chinese renders as well as
// Latin text (pdfkit embeds only the glyphs used, with their Unicode mapping, so the text can be
// copied and extracted). Pages are written out as they fill and encoded to base64 on the way.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { Block } from './exportBlocks.js';
import { Base64Sink } from './base64Sink.js';

const FONT = '400Regular/NotoSansSC_400Regular.ttf';

export function cjkFontPath(): string {
  const pkg = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-sc/package.json');
  return join(dirname(pkg), FONT);
}

// ~10 MB, read once per process: parsing it per export costs more than keeping it.
let fontBytes: Promise<Buffer> | undefined;
const loadFont = () =>
  (fontBytes ??= readFile(cjkFontPath()).catch((err: unknown) => {
    fontBytes = undefined;
    throw err;
  }));

interface Style {
  size: number;
  color: string;
  /** Space before, in lines of this size. */
  before: number;
  indent: number;
}

const STYLE: Record<Block['kind'], Style> = {
  title: { size: 18, color: '#000000', before: 0, indent: 0 },
  meta: { size: 9, color: '#555555', before: 0.2, indent: 0 },
  session: { size: 14, color: '#000000', before: 1, indent: 0 },
  sender: { size: 10, color: '#1a4d8f', before: 0.8, indent: 0 },
  body: { size: 11, color: '#000000', before: 0.2, indent: 0 },
  quote: { size: 10, color: '#555555', before: 0.2, indent: 14 },
  media: { size: 10, color: '#2f6f3f', before: 0.2, indent: 0 },
  mark: { size: 9, color: '#888888', before: 0.1, indent: 0 },
};

// Control characters have no glyph; tabs become spaces, other ones are dropped.
const printable = (t: string) => t.replace(/\t/g, '    ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

export class PdfTranscript {
  private readonly sink = new Base64Sink();
  private readonly ended: Promise<void>;

  private constructor(private readonly doc: PDFKit.PDFDocument) {
    doc.on('data', (chunk: Buffer) => this.sink.push(chunk));
    this.ended = new Promise((resolve, reject) => {
      doc.on('end', () => resolve());
      doc.on('error', reject);
    });
  }

  /** `createdAt` is the file's creation date (and seeds its file ID): the same for the same export. */
  static async create(title: string, createdAt: Date): Promise<PdfTranscript> {
    const font = await loadFont();
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      bufferPages: false,
      info: { Title: title, Creator: 'Rainbow Gateway', CreationDate: createdAt },
    });
    doc.registerFont('cjk', font);
    doc.font('cjk');
    return new PdfTranscript(doc);
  }

  write(blocks: readonly Block[]): void {
    const { doc } = this;
    const left = doc.page.margins.left;
    for (const b of blocks) {
      const s = STYLE[b.kind];
      const text = printable(b.kind === 'meta' ? b.lines.join('\n') : b.text.trim());
      if (!text) continue;
      doc.fontSize(s.size).fillColor(s.color);
      if (s.before > 0) doc.moveDown(s.before);
      // Width is taken per block: a page break resets margins only, never the column.
      const width = doc.page.width - doc.page.margins.left - doc.page.margins.right - s.indent;
      doc.text(text, left + s.indent, doc.y, { width });
    }
  }

  /** Ends the document; resolves to the whole file as base64 and its size in bytes. */
  async finish(): Promise<{ base64: string; byteLength: number }> {
    this.doc.end();
    await this.ended;
    return { base64: this.sink.end(), byteLength: this.sink.byteLength };
  }
}
