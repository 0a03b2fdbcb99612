// Every setting comes from the environment and is validated here, once, at start.
// A bad value stops the process with one line naming the variable (never echoing secrets).
import { z } from 'zod';

/** Empty or whitespace-only values count as unset (docker-compose and .env files produce them). */
const isUnset = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');
const optionalString = z.preprocess((v) => (isUnset(v) ? undefined : v), z.string().optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (isUnset(v) ? fallback : v), schema);

export const OPS_ROLES = ['viewer', 'operator', 'admin'] as const;
export type OpsRole = (typeof OPS_ROLES)[number];
/** OpenAI's own endpoint: the default when no OpenAI-compatible server of one's own is named. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpsToken {
  name: string;
  role: OpsRole;
  token: string;
}

/** A comma-separated setting as its trimmed, non-empty entries; unset: none. */
const commaList = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : v === undefined
      ? []
      : v;

/** Browser origins (`scheme://host[:port]`), separated by commas; each as the URL standard serialises it. */
const origins = z.preprocess(
  commaList,
  z.array(
    z.string().transform((entry, ctx) => {
      const origin = URL.canParse(entry) ? new URL(entry).origin : 'null';
      if (origin === 'null' || origin !== entry.replace(/\/$/, '').toLowerCase()) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an origin (scheme://host[:port], no path)` });
        return z.NEVER;
      }
      return origin;
    }),
  ),
);

/** `name:role:token` entries separated by commas; tokens are at least 16 characters. */
const opsTokens = z.preprocess(
  commaList,
  z
    .array(
      z.string().transform((entry, ctx): OpsToken => {
        const [name, role, ...rest] = entry.split(':');
        const token = rest.join(':');
        if (!name || !role || !token) {
          ctx.addIssue({ code: 'custom', message: 'each entry must be name:role:token' });
          return z.NEVER;
        }
        if (!(OPS_ROLES as readonly string[]).includes(role)) {
          ctx.addIssue({ code: 'custom', message: `role of "${name}" must be one of ${OPS_ROLES.join(', ')}` });
          return z.NEVER;
        }
        if (token.length < 16) {
          ctx.addIssue({ code: 'custom', message: `token of "${name}" must be at least 16 characters` });
          return z.NEVER;
        }
        return { name, role: role as OpsRole, token };
      }),
    )
    .refine((list) => new Set(list.map((t) => t.token)).size === list.length, 'tokens must be distinct'),
);

const url = z.string().url('must be a URL');
const positiveMs = z.coerce.number().int().positive('must be a positive whole number of milliseconds');

/** One model provider after the primary: an OpenAI-compatible server, its model and its key. */
const fallbackEntry = z
  .object({
    baseUrl: url,
    model: z.string().min(1, 'must name a model'),
    apiKey: z.string().optional(),
  })
  .strict();
export type LlmFallback = z.infer<typeof fallbackEntry>;

/**
 * LLM_FALLBACKS: a JSON array of `{ "baseUrl", "model", "apiKey" }`, tried in order after the
 * primary. Problems name the entry and field only: the value holds keys and is never echoed.
 */
const llmFallbacks = z.preprocess(
  (v, ctx) => {
    if (isUnset(v)) return [];
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a JSON array of {"baseUrl","model","apiKey"} (not valid JSON)',
      });
      return z.NEVER;
    }
  },
  z.unknown().transform((v, ctx): LlmFallback[] => {
    if (!Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"baseUrl","model","apiKey"}' });
      return z.NEVER;
    }
    const out: LlmFallback[] = [];
    v.forEach((entry, i) => {
      const checked = fallbackEntry.safeParse(entry);
      if (checked.success) return void out.push(checked.data);
      const issue = checked.error.issues[0];
      const field = issue?.path.length ? `${String(issue.path[0])} ` : '';
      ctx.addIssue({ code: 'custom', message: `entry ${i + 1}: ${field}${issue?.message ?? 'is invalid'}` });
    });
    return out;
  }),
);

export const envSchema = z.object({
  NODE_ENV: withDefault(z.enum(['development', 'production', 'test']), 'development'),
  LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  PORT: withDefault(z.coerce.number().int().min(0).max(65535), 4000),
  /** Interface the HTTP server binds; unset: all interfaces in production, this machine only otherwise (listenHost). */
  HOST: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  /** Schema introspection and the GraphiQL page; `auto` = on except when NODE_ENV is production. */
  GRAPHQL_INTROSPECTION: withDefault(z.enum(['auto', 'on', 'off']), 'auto'),
  GRAPHIQL: withDefault(z.enum(['auto', 'on', 'off']), 'auto'),
  GRAPHQL_MAX_DEPTH: withDefault(z.coerce.number().int().min(2).max(50), 14),
  GRAPHQL_MAX_ALIASES: withDefault(z.coerce.number().int().min(1).max(500), 15),
  GRAPHQL_MAX_COST: withDefault(z.coerce.number().int().min(100).max(100_000_000), 1_000_000),

  MONGODB_URI: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
  ),
  MONGODB_DB: withDefault(z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, 'letters, digits, _ and - only'), 'rainbow'),
  REDIS_URL: withDefault(
    z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://'),
    'redis://127.0.0.1:6379',
  ),
  /** `auto` starts FerretDB / redis-server when the configured ones are unreachable; `off` never does. */
  LOCAL_SERVICES: withDefault(z.enum(['auto', 'off']), 'auto'),
  /** A started FerretDB uses the postgresql handler on this existing database instead of sqlite. */
  LOCAL_FERRETDB_POSTGRES_URL: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),

  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: withDefault(url, DEFAULT_OPENAI_BASE_URL),
  LLM_MODEL: withDefault(z.string().min(1), 'gpt-4o-mini'),
  /** BR-004: a streamed reply that takes longer than this ends as GENERATION_TIMEOUT. */
  LLM_TIMEOUT_MS: withDefault(positiveMs, 60_000),
  /** Providers tried in order when the primary fails before its first token (src/llm/providerChain.ts). */
  LLM_FALLBACKS: llmFallbacks,
  /**
   * A provider that sent no token this long is left for the next one (only while one is left to
   * try). Unset: 20 s, at most half of LLM_TIMEOUT_MS (firstTokenTimeoutMs).
   */
  LLM_FIRST_TOKEN_TIMEOUT_MS: z.preprocess((v) => (isUnset(v) ? undefined : v), positiveMs.optional()),
  /** A provider that failed (429, 5xx, timeout, refused connection) is skipped this long, then tried again. */
  LLM_FALLBACK_COOLDOWN_MS: withDefault(positiveMs, 60_000),
  /** Model for background tasks: memory extraction, summaries, consolidation, persona evolution (default: LLM_MODEL). */
  MEMORY_MODEL: optionalString,
  /** One background LLM task (extraction, summary, consolidation of one cluster). */
  MEMORY_TASK_TIMEOUT_MS: withDefault(positiveMs, 90_000),
  /**
   * Embeddings: `auto` calls an OpenAI-compatible embeddings API when OPENAI_API_KEY or
   * EMBEDDING_BASE_URL is set, else uses the offline hashed n-gram embedder.
   */
  EMBEDDINGS: withDefault(z.enum(['auto', 'openai', 'offline']), 'auto'),
  /** An embeddings server apart from the chat endpoint (Ollama, vLLM, TEI: `http://127.0.0.1:11434/v1`). */
  EMBEDDING_BASE_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  EMBEDDING_MODEL: withDefault(z.string().min(1), 'text-embedding-3-small'),
  /** Key of the embeddings server (default: OPENAI_API_KEY). */
  EMBEDDING_API_KEY: optionalString,
  /** Vector size (the OpenAI `dimensions` parameter; the offline embedder's hash space). */
  EMBEDDING_DIMS: withDefault(z.coerce.number().int().min(32).max(3072), 256),
  /** Active recall waits this long for query embeddings, then falls back to keyword search. */
  RECALL_EMBED_TIMEOUT_MS: withDefault(positiveMs, 3_000),
  /**
   * A reply's recall waits this long for its memory index (a large scope's first load after a
   * restart reads every memory); past it, that reply has no memories and the load goes on.
   */
  RECALL_LOAD_WAIT_MS: withDefault(positiveMs, 3_000),
  /** Owner/human memory indexes kept in each worker's memory (LRU). */
  MEMORY_CACHE_SCOPES: withDefault(z.coerce.number().int().min(1).max(100_000), 500),
  /** Knowledge (seed 004 FR-004): largest document upload in bytes (base64 uploads are checked before decoding). */
  KNOWLEDGE_MAX_BYTES: withDefault(
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024),
    10 * 1024 * 1024,
  ),
  /** Most chunks (about 1000 characters each) one document may make. */
  KNOWLEDGE_MAX_CHUNKS: withDefault(z.coerce.number().int().min(1).max(100_000), 2_000),
  /** Passages of the agent's documents retrieved into each turn's prompt (0: none). */
  KNOWLEDGE_TOP_K: withDefault(z.coerce.number().int().min(0).max(20), 5),
  /** Cosine below which a passage is no vector match (keywords can still find it). */
  KNOWLEDGE_MIN_SIMILARITY: withDefault(z.coerce.number().min(-1).max(1), 0.3),
  /** Cron pattern (in DISPLAY_TIMEZONE) of the nightly memory consolidation; `off` disables it. */
  CONSOLIDATION_CRON: withDefault(
    z.string().regex(/^(off|(\S+\s+){4}\S+)$/, 'must be a 5-field cron pattern such as "0 3 * * *", or off'),
    '0 3 * * *',
  ),
  /** Which OpenAI API to call: Chat Completions (default) or the Responses API (stateless). */
  LLM_API: withDefault(z.enum(['chat', 'responses']), 'chat'),
  /** Tool loop bound: LLM rounds that may call tools before a final answer is forced. */
  TOOL_MAX_ROUNDS: withDefault(z.coerce.number().int().min(0).max(20), 5),
  /** A tool that runs longer than this returns a timeout error to the model. */
  TOOL_TIMEOUT_MS: withDefault(positiveMs, 10_000),
  /** Weather tool provider (Open-Meteo's API shape; point these at a mirror or a test server). */
  WEATHER_GEOCODING_URL: withDefault(url, 'https://geocoding-api.open-meteo.com'),
  WEATHER_FORECAST_URL: withDefault(url, 'https://api.open-meteo.com'),
  /** Timezone for times shown to users and the current-time tool (storage stays UTC). */
  DISPLAY_TIMEZONE: withDefault(
    z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA timezone such as Asia/Shanghai'),
    'Asia/Shanghai',
  ),

  TELEGRAM_BOT_TOKEN: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must look like 123456:ABC-DEF… (from @BotFather)')
      .optional(),
  ),
  TELEGRAM_API_ROOT: withDefault(url, 'https://api.telegram.org'),
  /** `polling` (long polling through @grammyjs/runner) or `webhook` (Telegram POSTs updates to us). */
  TELEGRAM_MODE: withDefault(z.enum(['polling', 'webhook']), 'polling'),
  /** Public HTTPS URL Telegram posts updates to in webhook mode (registered with setWebhook). */
  TELEGRAM_WEBHOOK_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  /** Shared secret Telegram sends in X-Telegram-Bot-Api-Secret-Token; required in webhook mode. */
  TELEGRAM_WEBHOOK_SECRET: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, '16–256 characters: letters, digits, _ and -')
      .optional(),
  ),
  /**
   * Messages per second the bot sends across all its chats. Telegram's FAQ says about 30 (kept
   * at 25); raise it only for a bot Telegram allows more (paid broadcasts). 429s are honoured anyway.
   */
  TELEGRAM_GLOBAL_PER_SECOND: withDefault(z.coerce.number().int().min(1).max(1000), 25),
  /** Stream private-chat replies with sendMessageDraft where Telegram allows it (falls back to edits). */
  TELEGRAM_DRAFTS: withDefault(z.enum(['on', 'off']), 'on'),
  DISCORD_BOT_TOKEN: optionalString,
  /** Discord: AI replies post through a channel webhook under the agent's name and avatar (several personas per channel). */
  DISCORD_PERSONAS: withDefault(z.enum(['on', 'off']), 'off'),
  /** Discord REST base (without /v10); point at a local server in tests. */
  DISCORD_API_ROOT: withDefault(url, 'https://discord.com/api'),

  /** Attachments larger than this are recorded (name, type, size) but not downloaded. */
  MEDIA_MAX_BYTES: withDefault(
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(512 * 1024 * 1024),
    20 * 1024 * 1024,
  ),
  /** One attempt at describing, transcribing or extracting one attachment. */
  MEDIA_TIMEOUT_MS: withDefault(positiveMs, 30_000),
  /** A failed transcription/description is retried with backoff up to this many attempts. */
  MEDIA_MAX_ATTEMPTS: withDefault(z.coerce.number().int().min(1).max(20), 4),
  /** First wait before a failed attachment is retried; it doubles each attempt (capped at 30 min). */
  MEDIA_RETRY_BASE_MS: withDefault(z.coerce.number().int().min(100).max(3_600_000), 30_000),
  /** Vision-capable chat model that captions images. */
  VISION_MODEL: withDefault(z.string().min(1), 'gpt-4o-mini'),
  /** The vision model's server and key (default: the chat model's, OPENAI_BASE_URL and OPENAI_API_KEY). */
  VISION_BASE_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  VISION_API_KEY: optionalString,
  /** ffmpeg, which takes a still frame of a GIF that came without a thumbnail, to describe it. */
  FFMPEG_PATH: withDefault(z.string().min(1), 'ffmpeg'),
  /** OpenAI audio model for voice/audio/video-note transcription. */
  TRANSCRIBE_MODEL: withDefault(z.string().min(1), 'whisper-1'),
  /** The transcription server and key (default: the chat model's, OPENAI_BASE_URL and OPENAI_API_KEY). */
  TRANSCRIBE_BASE_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  TRANSCRIBE_API_KEY: optionalString,
  /** Longest extracted document text kept for the context. */
  DOCUMENT_MAX_CHARS: withDefault(z.coerce.number().int().min(100).max(200_000), 8_000),
  /**
   * An OpenAI-compatible `/moderations` endpoint (SPEC §14), e.g. https://api.openai.com/v1;
   * unset: only the config's keyword list moderates. An endpoint that fails lets text through.
   */
  MODERATION_BASE_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  /** The moderation endpoint's key (unset: none sent). */
  MODERATION_API_KEY: optionalString,
  MODERATION_MODEL: withDefault(z.string().min(1), 'omni-moderation-latest'),
  /** A text the endpoint has not judged by then passes (fail open), with a warning. */
  MODERATION_TIMEOUT_MS: withDefault(positiveMs, 5_000),
  /** A Telegram album arrives as several updates; the reply waits this long for the rest. */
  ALBUM_SETTLE_MS: withDefault(z.coerce.number().int().min(0).max(30_000), 1_500),

  OPS_TOKENS: opsTokens,
  /**
   * Browser origins allowed on /mcp (the MCP transport's DNS-rebinding rule): a request with an
   * `Origin` not listed is refused with 403; one without (a non-browser client) is let through.
   */
  MCP_ALLOWED_ORIGINS: origins,
  /**
   * Key that signs export download links (GET /exports/<token>); ≥ 32 characters. Unset: derived
   * from the operator and admin tokens of OPS_TOKENS (src/export/linkKey.ts), so every process
   * of a deployment signs alike.
   */
  EXPORT_LINK_SECRET: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  /** How long an export download link stays valid, in seconds. */
  EXPORT_LINK_TTL_SECONDS: withDefault(z.coerce.number().int().min(30).max(86_400), 900),
  /** Development only, when OPS_TOKENS is empty: where the local admin token is kept (default .local/admin-token). */
  ADMIN_TOKEN_FILE: optionalString,
  /**
   * Prometheus `/metrics` on the process's HTTP server: `auto` = where the process serves HTTP
   * anyway; `on` = also opens the server on PORT for a worker-only process; `off` = not served.
   */
  METRICS: withDefault(z.enum(['auto', 'on', 'off']), 'auto'),
  /** Bearer token for `/metrics` (a scraper's; any OPS_TOKENS token works too); ≥ 16 characters. */
  METRICS_TOKEN: z.preprocess(
    (v) => (isUnset(v) ? undefined : v),
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),

  /** Language of system notices when the platform does not tell the user's language. */
  DEFAULT_LOCALE: withDefault(z.enum(['zh-CN', 'en']), 'zh-CN'),

  AGENT_NAME: withDefault(z.string().min(1).max(64), 'Rainbow'),
  /** Avatar image URL of the default agent where the platform can show one (Discord personas). */
  AGENT_AVATAR_URL: z.preprocess((v) => (isUnset(v) ? undefined : v), url.optional()),
  /** How often the gateway looks for agents' bot tokens registered or removed (SPEC §8). */
  AGENT_BOTS_REFRESH_MS: withDefault(z.coerce.number().int().min(100).max(600_000), 10_000),
  AGENT_PERSONA: withDefault(
    z.string().min(1).max(8_000),
    'You are Rainbow, a warm and attentive AI companion. Answer in the language the person writes in.',
  ),
  /** SPEC §3: a new dialogue session starts when the gap since the last activity exceeds this. */
  SESSION_GAP_MS: withDefault(positiveMs, 60 * 60 * 1000),
  /** SPEC §3: a turn left unanswered this long becomes `unresponded`. */
  RESPONSE_WINDOW_MS: withDefault(positiveMs, 3 * 60 * 60 * 1000),
  /** Minimum time between two edits of a streaming platform message (Telegram flood limits). */
  STREAM_EDIT_INTERVAL_MS: withDefault(z.coerce.number().int().min(50).max(60_000), 1_000),
  /** Silence after an AI reply before the AI checks in on its own (0 = never). */
  PROACTIVE_CHECKIN_AFTER_MS: withDefault(z.coerce.number().int().min(0), 0),
  /** How long a worker may be silent before its job counts as stalled and is retried elsewhere. */
  WORKER_LOCK_MS: withDefault(z.coerce.number().int().min(500).max(600_000), 30_000),
  /** Pending turns older than this without a queued job are re-enqueued by the sweeper. */
  SWEEP_AFTER_MS: withDefault(z.coerce.number().int().min(100), 60_000),
  /**
   * Replies in progress at once per worker process (different dialogues). A reply mostly waits on
   * the model's stream, so this bounds open model streams, not CPU: 200 streams of ~5 s carry
   * ~40 replies/s, above one Telegram bot's ~30 messages/s. CPU-heavy work (memory, reflection,
   * media) has its own queues and small limits.
   */
  WORKER_CONCURRENCY: withDefault(z.coerce.number().int().min(1).max(2000), 200),
  /**
   * Memory jobs at once per worker process (extraction, summaries, persona evolution): each mostly
   * waits on a model call of seconds, so 2 fell behind replies at a few messages a second.
   * Consolidation, the CPU-heavy one, still runs one at a time.
   */
  MEMORY_CONCURRENCY: withDefault(z.coerce.number().int().min(1).max(500), 16),
  /** Prefix of every BullMQ key, so several deployments (or tests) can share one Redis. */
  QUEUE_PREFIX: withDefault(z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/), 'rainbow'),
});

export type Env = z.infer<typeof envSchema>;

/** Cross-field rules that a per-variable schema cannot express. */
function checkCombinations(env: Env): string[] {
  const problems: string[] = [];
  if (env.TELEGRAM_MODE === 'webhook' && env.TELEGRAM_BOT_TOKEN) {
    if (!env.TELEGRAM_WEBHOOK_URL) problems.push('TELEGRAM_WEBHOOK_URL: required when TELEGRAM_MODE=webhook');
    if (!env.TELEGRAM_WEBHOOK_SECRET) problems.push('TELEGRAM_WEBHOOK_SECRET: required when TELEGRAM_MODE=webhook');
  }
  if (env.LLM_FIRST_TOKEN_TIMEOUT_MS !== undefined && env.LLM_FIRST_TOKEN_TIMEOUT_MS >= env.LLM_TIMEOUT_MS)
    problems.push('LLM_FIRST_TOKEN_TIMEOUT_MS: must be below LLM_TIMEOUT_MS (a fallback needs time to answer)');
  return problems;
}

/** Default wait for a provider's first token before the next one is tried. */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 20_000;

/**
 * The first-token wait in effect: the setting, else the default capped at half the reply's
 * limit, so a fallback always has time left to answer within LLM_TIMEOUT_MS.
 */
export const firstTokenTimeoutMs = (env: Pick<Env, 'LLM_FIRST_TOKEN_TIMEOUT_MS' | 'LLM_TIMEOUT_MS'>): number =>
  env.LLM_FIRST_TOKEN_TIMEOUT_MS ?? Math.min(DEFAULT_FIRST_TOKEN_TIMEOUT_MS, Math.floor(env.LLM_TIMEOUT_MS / 2));

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
}

/** Parses the environment; the error message names every bad variable, one per line. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (parsed.success) {
    const problems = checkCombinations(parsed.data);
    if (problems.length === 0) return parsed.data;
    throw new ConfigError(`Invalid configuration — ${problems.join('; ')}`);
  }
  const lines = parsed.error.issues.map((issue) => {
    const name = issue.path[0] === undefined ? '(environment)' : String(issue.path[0]);
    return `${name}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration — ${lines.join('; ')}`);
}

/**
 * The interface the HTTP server binds. Outside production the gateway prints a local admin
 * token on start, so unless HOST says otherwise it listens on this machine only; production
 * (the container) listens on every interface as before.
 */
export const listenHost = (env: Pick<Env, 'HOST' | 'NODE_ENV'>): string =>
  env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');
