// One running gateway (every role, in this process) wired to local fakes of Telegram and
// OpenAI, on the shared real MongoDB-wire server and Redis.
import { MongoClient } from 'mongodb';
import { ClientError, GraphQLClient } from 'graphql-request';
import { createLogger, type Logger } from '../../src/log.js';
import { startApp, type Extensions, type RunningApp, type ProcessRole } from '../../app/startApp.js';
import type { Env } from '../../src/config/env.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../doubles/fakeTelegram.js';
import { startFakeWeather, type FakeWeather } from '../doubles/fakeWeather.js';
import { TEST_OPS_TOKEN, testEnv } from './testEnv.js';

export interface Harness {
  env: Env;
  app: RunningApp;
  tg: FakeTelegram;
  llm: FakeOpenAI;
  weather: FakeWeather;
  gql<T = unknown>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<{ status: number; body: GqlBody<T> }>;
  stop(): Promise<void>;
}

export interface GqlBody<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

/**
 * One GraphQL request through a real client (graphql-request) over HTTP, keeping errors and the
 * HTTP status instead of throwing, so tests can assert on codes.
 */
export async function gqlRequest<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = TEST_OPS_TOKEN,
): Promise<{ status: number; body: GqlBody<T> }> {
  const client = new GraphQLClient(url, {
    errorPolicy: 'all',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  try {
    const r = await client.rawRequest<T>(query, variables);
    return {
      status: r.status,
      body: {
        ...(r.data !== undefined && r.data !== null ? { data: r.data } : {}),
        ...(r.errors ? { errors: r.errors as GqlBody<T>['errors'] } : {}),
      },
    };
  } catch (err) {
    if (err instanceof ClientError) {
      const { status, errors, data } = err.response;
      return {
        status,
        body: { ...(data ? { data: data as T } : {}), ...(errors ? { errors: errors as GqlBody<T>['errors'] } : {}) },
      };
    }
    throw err;
  }
}

export async function startHarness(
  overrides: Record<string, string> = {},
  roles: ProcessRole[] = ['gateway', 'worker', 'api'],
  fakes: { telegram?: FakeTelegramOptions; openai?: FakeOpenAIOptions } = {},
  extensions: Extensions = {},
  /** A logger of the test's own (to read what was logged); default: one at env.LOG_LEVEL. */
  o: { log?: Logger } = {},
): Promise<Harness> {
  const tg = await startFakeTelegram(fakes.telegram);
  const llm = await startFakeOpenAI(fakes.openai);
  const weather = await startFakeWeather();
  const env = testEnv({
    TELEGRAM_API_ROOT: tg.apiRoot,
    OPENAI_BASE_URL: llm.baseURL,
    WEATHER_GEOCODING_URL: weather.url,
    WEATHER_FORECAST_URL: weather.url,
    ...overrides,
  });
  const log = o.log ?? createLogger(env.LOG_LEVEL);
  const app = await startApp(env, {
    roles: new Set(roles),
    log,
    mongoUri: env.MONGODB_URI!,
    redisUrl: env.REDIS_URL,
    extensions,
  });
  return {
    env,
    app,
    tg,
    llm,
    weather,
    gql: (query, variables, token) => gqlRequest(`${app.apiUrl}/graphql`, query, variables, token),
    async stop() {
      await app.stop();
      const client = await MongoClient.connect(env.MONGODB_URI!);
      await client
        .db(env.MONGODB_DB)
        .dropDatabase()
        .catch(() => {});
      await client.close();
      await tg.close();
      await llm.close();
      await weather.close();
    },
  };
}
