// Structured logs (pino). Secrets never reach a log line: known secret keys are redacted and
// any string that looks like a bot token or API key is masked, wherever it appears.
import { pino, type Logger } from 'pino';

const SECRET_PATTERNS: RegExp[] = [
  // No leading \b: in a Bot API URL the token follows "bot" directly, with no word boundary.
  /\d{5,}:[A-Za-z0-9_-]{20,}\b/g, // Telegram bot token (also inside Bot API URLs)
  /\bsk-[A-Za-z0-9_-]{10,}\b/g, // OpenAI-style API key
  /\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}\b/g, // Discord bot token (base64 of the bot id, then timestamp and HMAC)
  /Bearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /\/exports\/[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{43}/g, // an export download link's token (a bearer of the document)
];

export function maskSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((t, re) => t.replace(re, '[redacted]'), text);
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return { type: value.name, message: maskSecrets(value.message), stack: value.stack && maskSecrets(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}

/** Keys every line carries already (pino's own, beside a child logger's bindings). */
const LINE_KEYS = ['level', 'time', 'pid', 'hostname', 'name'];

/**
 * A call's fields without the keys its line already has: pino writes a child's bindings and the
 * call's fields side by side, so `log.child({ turnId }).warn({ turnId })` would repeat the key —
 * a line strict JSON parsers reject. A repeated key with the same value is dropped; with
 * another value it is kept as `<key>_`.
 */
function withoutBound(fields: unknown, bound: Record<string, unknown>): unknown {
  if (fields === null || typeof fields !== 'object' || fields instanceof Error || Array.isArray(fields)) return fields;
  const taken = (k: string) => k in bound || LINE_KEYS.includes(k);
  const entries = Object.entries(fields as Record<string, unknown>);
  if (!entries.some(([k]) => taken(k))) return fields;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (!taken(k)) out[k] = v;
    else if (bound[k] !== v) out[`${k}_`] = v;
  }
  return out;
}

export function createLogger(level: string, name = 'rainbow'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['token', '*.token', 'apiKey', '*.apiKey', 'authorization', '*.authorization', 'headers.authorization'],
      censor: '[redacted]',
    },
    formatters: { log: (obj) => scrub(obj) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        const masked = args.map((a: unknown, i) =>
          typeof a === 'string' ? maskSecrets(a) : i === 0 ? withoutBound(a, this.bindings()) : a,
        );
        method.apply(this, masked as Parameters<typeof method>);
      },
      // Last line of defence: pino fills `msg` from a logged Error's message itself, after the
      // hook above and outside the log formatter, so mask the finished line as well.
      streamWrite: (line) => maskSecrets(line),
    },
  });
}

export type { Logger };
