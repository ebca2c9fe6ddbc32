#!/usr/bin/env node
// Command line: serve (every role in one process), api and worker (the roles apart), migrate, and API key management.
import { parseArgs } from 'node:util';
import { createApp } from './app.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { ApiKeys } from './keys/api-keys.js';
import { createLogger } from './logger.js';
import { revokeApiKey } from './revoke-key.js';
import { type Db, describeTarget, openDatabase } from './store/database.js';
import { migrateToLatest } from './store/migrations.js';

const USAGE = `Usage: crawlservice <command>

Commands:
  serve                     start the API and every background role in one process (default)
  api                       start only the HTTP API, scrapes included (scale-out: worker processes on
                            the same database do the background work)
  worker                    start only the background roles, without HTTP: crawl runner, webhook
                            dispatcher (event fan-out and deliveries), task scheduler, sweeper
                            (expired data, interrupted scrapes)
  migrate                   apply pending database migrations and exit
  keys create [--name N]    create an API key and print it once
  keys list                 list API keys (ids, names, prefixes; never the keys)
  keys revoke <id|prefix>   revoke a key

Settings come from the environment; see docs/configuration.md.`;

async function withDatabase<T>(config: Config, fn: (db: Db, applied: string[]) => Promise<T>): Promise<T> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
  try {
    const applied = await migrateToLatest(db.kysely);
    return await fn(db, applied);
  } finally {
    await db.close();
  }
}

async function serve(config: Config, mode: 'serve' | 'api' | 'worker'): Promise<void> {
  const logger = createLogger(config.logLevel);
  const app = await createApp({ config, logger, roles: { worker: mode !== 'api' } });
  logger.info(
    { database: describeTarget({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema }) },
    'store ready',
  );

  // Only a process that serves the API needs a key to exist.
  if (mode !== 'worker' && config.createInitialKey && !app.keys.hasEnvKeys && (await app.keys.countStored()) === 0) {
    const created = await app.keys.create('initial');
    // Printed once, on stderr and outside the JSON log, so it never lands in log storage by accident.
    process.stderr.write(
      `\nNo API key existed, so one was created. It is shown only this once:\n\n    ${created.key}\n\n` +
        `Use it as 'Authorization: Bearer <key>'. Manage keys with 'npm run cli -- keys --help'.\n\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  if (mode === 'worker') {
    logger.info({ workerId: app.runner?.workerId }, 'worker running');
    return;
  }
  const address = await app.server.listen({ port: config.port, host: config.host });
  logger.info(
    { address, publicUrl: config.publicUrl ?? null, roles: mode === 'serve' ? ['api', 'worker'] : ['api'] },
    'listening',
  );
}

async function keysCommand(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { name: { type: 'string' } },
    allowPositionals: true,
  });
  await withDatabase(config, async (db) => {
    const keys = new ApiKeys(db.kysely, []);
    switch (action) {
      case 'create': {
        const created = await keys.create(values.name ?? 'unnamed');
        process.stdout.write(
          `Created key ${created.id} (${created.name}). It is shown only this once:\n${created.key}\n`,
        );
        return;
      }
      case 'list': {
        const list = await keys.list();
        if (list.length === 0) process.stdout.write('No stored keys.\n');
        for (const k of list) {
          const state = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
          process.stdout.write(
            `${k.id}  ${k.prefix}…  ${k.name}  created ${k.created_at}  ${state}  last used ${k.last_used_at ?? 'never'}\n`,
          );
        }
        return;
      }
      case 'revoke': {
        const target = positionals[0];
        if (!target) throw new UsageError('keys revoke needs a key id or prefix');
        const n = await revokeApiKey(keys, target);
        if (n === 0) throw new UsageError(`no active key has id or prefix ${target}`);
        process.stdout.write(`Revoked ${n} key(s).\n`);
        return;
      }
      default:
        throw new UsageError(`unknown keys action ${action ?? '(none)'}`);
    }
  });
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help' || args.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker':
      return serve(config, command);
    case 'migrate': {
      const applied = await withDatabase(config, async (_db, names) => names);
      const target = describeTarget({
        url: config.databaseUrl,
        dataDir: config.dataDir,
        schema: config.databaseSchema,
      });
      process.stdout.write(
        `${applied.length > 0 ? `Applied ${applied.join(', ')}. ` : ''}Database ${target} is up to date.\n`,
      );
      return;
    }
    case 'keys':
      return keysCommand(config, args);
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`Fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
