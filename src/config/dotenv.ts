// The `.env` file beside package.json (SPEC §14, "Settings"): read by `npm start` before the
// environment is validated. The real environment wins over the file; a missing file is fine; a
// line that is not `NAME=value` stops the start naming its line (never its content, which may
// hold a key). Values are read by Node's own util.parseEnv once every line has passed the check,
// since parseEnv itself skips what it cannot read (and can join a bad line to the next).
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from './env.js';

const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=\s*(.*)$/;
const QUOTES = ['"', "'", '`'];

/** Whether a value that opens with a quote closes it on this line (after the opening one). */
const closesOn = (rest: string, quote: string): boolean => rest.indexOf(quote) >= 0;

/**
 * The lines' problem, or none: each line is blank, a `#` comment, or `NAME=value` (optionally
 * `export NAME=value`); a quoted value may run over several lines until its closing quote.
 */
export function dotenvProblem(text: string, file: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = ASSIGNMENT.exec(line);
    if (!m) return `${file} line ${i + 1}: not NAME=value (a comment starts with #)`;
    const value = m[1]!;
    const quote = QUOTES.find((q) => value.startsWith(q));
    if (!quote || closesOn(value.slice(1), quote)) continue;
    const opened = i;
    while (++i < lines.length && !closesOn(lines[i]!, quote));
    if (i >= lines.length) return `${file} line ${opened + 1}: the quoted value is never closed`;
  }
  return undefined;
}

/** The file's settings; ConfigError naming the line when one is malformed. */
export function parseDotenv(text: string, file = '.env'): Record<string, string> {
  const problem = dotenvProblem(text, file);
  if (problem) throw new ConfigError(`Invalid configuration — ${problem}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parseEnv(text))) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Reads `path` into `env` where `env` has no value of its own (the real environment wins).
 * Returns the names it set, or null when there is no such file.
 */
export function loadDotenv(path: string, env: NodeJS.ProcessEnv = process.env): string[] | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`Invalid configuration — ${path} cannot be read: ${(err as Error).message}`);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseDotenv(text, path))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
