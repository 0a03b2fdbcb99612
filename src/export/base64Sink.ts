// Base64 of a byte stream, encoded as the chunks arrive: the PDF is never held as bytes and as
// base64 at once. Bytes are encoded in groups of three, so a chunk's last one or two wait for the next.
export class Base64Sink {
  private text = '';
  private carry: Buffer = Buffer.alloc(0);
  byteLength = 0;

  push(chunk: Uint8Array): void {
    this.byteLength += chunk.length;
    const bytes =
      this.carry.length > 0
        ? Buffer.concat([this.carry, chunk])
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const whole = bytes.length - (bytes.length % 3);
    this.text += bytes.subarray(0, whole).toString('base64');
    // Copied: the chunk's memory may be reused by its producer.
    this.carry = Buffer.from(bytes.subarray(whole));
  }

  end(): string {
    const out = this.text + this.carry.toString('base64');
    this.carry = Buffer.alloc(0);
    return out;
  }
}
