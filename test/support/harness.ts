// One running gateway (every role, in this process) wired to local fakes of Telegram and
// OpenAI, on the shared real MongoDB-wire server and Redis.
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/log.js';
import { startApp, type RunningApp, type ProcessRole } from '../../src/app.js';
import type { Env } from '../../src/config/env.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../doubles/fakeTelegram.js';
import { startFakeWeather, type FakeWeather } from '../doubles/fakeWeather.js';
import { TEST_OPS_TOKEN, testEnv } from './testEnv.js';

export interface Harness {
  env: Env;
  app: RunningApp;
  tg: FakeTelegram;
  llm: FakeOpenAI;
  weather: FakeWeather;
  gql<T = unknown>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<{ status: number; body: GqlBody<T> }>;
  stop(): Promise<void>;
}

export interface GqlBody<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

export async function startHarness(
  overrides: Record<string, string> = {},
  roles: ProcessRole[] = ['gateway', 'worker', 'api'],
  fakes: { telegram?: FakeTelegramOptions } = {},
): Promise<Harness> {
  const tg = await startFakeTelegram(fakes.telegram);
  const llm = await startFakeOpenAI();
  const weather = await startFakeWeather();
  const env = testEnv({
    TELEGRAM_API_ROOT: tg.apiRoot,
    OPENAI_BASE_URL: llm.baseURL,
    WEATHER_GEOCODING_URL: weather.url,
    WEATHER_FORECAST_URL: weather.url,
    ...overrides,
  });
  const log = createLogger(env.LOG_LEVEL);
  const app = await startApp(env, { roles: new Set(roles), log, mongoUri: env.MONGODB_URI!, redisUrl: env.REDIS_URL });
  return {
    env,
    app,
    tg,
    llm,
    weather,
    async gql<T>(query: string, variables: Record<string, unknown> = {}, token: string | null = TEST_OPS_TOKEN) {
      const res = await fetch(`${app.apiUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, body: (await res.json()) as GqlBody<T> };
    },
    async stop() {
      await app.stop();
      const client = await MongoClient.connect(env.MONGODB_URI!);
      await client.db(env.MONGODB_DB).dropDatabase().catch(() => {});
      await client.close();
      await tg.close();
      await llm.close();
      await weather.close();
    },
  };
}
