// Process entrypoint: `npm start [-- --role gateway|worker|api]`. Reads `.env` beside
// package.json (the real environment wins), validates config, makes sure MongoDB and Redis are
// reachable (starting local stand-ins in development), runs the roles.
import { parseArgs } from 'node:util';
import { loadEnv, ConfigError } from '../src/config/env.js';
import { loadDotenv } from '../src/config/dotenv.js';
import { createLogger } from '../src/log.js';
import { ensureLocalServices } from '../src/localServices/index.js';
import { ROLES, startApp, type ProcessRole } from './startApp.js';
import { redisReachable, mongoReachable } from '../src/localServices/reachability.js';
import { projectRoot } from '../src/localServices/ferretdb.js';
import { consoleInvite, devAdminToken } from './devAdminToken.js';
import { join } from 'node:path';

function parseRoles(): Set<ProcessRole> {
  const { values } = parseArgs({ options: { role: { type: 'string', multiple: true } }, allowPositionals: false });
  const roles = values.role ?? [...ROLES];
  for (const r of roles) {
    if (!(ROLES as readonly string[]).includes(r))
      throw new ConfigError(`--role must be one of ${ROLES.join(', ')} (got "${r}")`);
  }
  return new Set(roles as ProcessRole[]);
}

async function main(): Promise<void> {
  let env;
  let roles;
  let fromFile: string[] | null;
  try {
    // Before the environment is validated, so a setting kept in .env counts like any other.
    fromFile = loadDotenv(join(projectRoot, '.env'));
    env = loadEnv();
    roles = parseRoles();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(env.LOG_LEVEL);
  // How many settings came from the file, never their values.
  if (fromFile) log.info({ settings: fromFile.length }, 'read .env beside package.json (the environment wins)');

  let mongoUri = env.MONGODB_URI;
  let redisUrl = env.REDIS_URL;
  let stopLocal = async () => {};
  if (env.LOCAL_SERVICES === 'auto') {
    const local = await ensureLocalServices({
      mongoUri,
      redisUrl,
      log: (line) => log.info(line),
      // A redis-server started here keeps its queues across restarts (AOF, fsync always).
      redisDataDir: join(projectRoot, '.local', 'redis'),
      ...(env.LOCAL_FERRETDB_POSTGRES_URL ? { ferretPostgresUrl: env.LOCAL_FERRETDB_POSTGRES_URL } : {}),
    });
    ({ mongoUri, redisUrl } = local);
    stopLocal = local.stop;
  } else {
    if (!mongoUri || !(await mongoReachable(mongoUri)))
      throw new Error('MONGODB_URI is unset or unreachable and LOCAL_SERVICES=off');
    if (!(await redisReachable(redisUrl))) throw new Error('REDIS_URL is unreachable and LOCAL_SERVICES=off');
  }

  const tokenFile = env.ADMIN_TOKEN_FILE ?? join(projectRoot, '.local', 'admin-token');
  const devToken = devAdminToken(env, tokenFile);
  if (devToken) env = { ...env, OPS_TOKENS: [devToken] };
  const app = await startApp(env, { roles, log, mongoUri, redisUrl });
  log.info({ roles: [...roles] }, 'rainbow gateway started');
  // Printed to the terminal, not logged: logs never carry tokens.
  if (devToken && app.apiUrl) process.stdout.write(consoleInvite(app.apiUrl, devToken, tokenFile));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app.stop();
    await stopLocal();
    process.exit(0);
  };
  // A library promise nobody awaited (e.g. a platform client's background task) must be seen
  // in the logs, not silently end a gateway serving every other chat.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`rainbow gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
