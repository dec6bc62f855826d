// `hark <command>`: serve, worker, migrate, admin, openapi.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { modelsCommand } from './models-cli.ts';
import { startMetricsServer } from './observability/metrics-server.ts';
import { startRuntime } from './runtime.ts';
import { scopes, type Scope } from './scopes.ts';
import { createApiKey } from './services/api-keys.ts';
import { createWorkspace, setPlan } from './services/workspaces.ts';

const usage = `usage: hark <command>
  serve [--no-workers]   API, docs and workers (workers off with --no-workers)
  worker                 workers only
  migrate                apply database migrations and exit
  admin create-workspace NAME
  admin create-key WORKSPACE_ID [--name NAME] [--scopes a,b,...]
  admin set-plan WORKSPACE_ID PLAN|none
  models add NAME PATH   register a whisper.cpp (ggml) or llama.cpp (GGUF) model file
  models list | models pull NAME
  openapi                print the OpenAPI document`;

async function serve(config: Config, http: boolean, workers: boolean): Promise<void> {
  const runtime = await startRuntime(config, { http, workers });
  const log = runtime.ctx.log;
  const metricsServer =
    config.metricsPort === null ? null : await startMetricsServer(runtime.ctx.metrics, { host: config.host, port: config.metricsPort, token: config.metricsToken, log });
  if (runtime.app) {
    const address = await runtime.app.listen({ host: config.host, port: config.port });
    log.info({ address, workers, store: runtime.ctx.database.kind }, 'hark is serving');
  } else {
    log.info({ store: runtime.ctx.database.kind }, 'hark worker started');
  }
  const stop = (signal: string) => {
    log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down: finishing requests in flight and running work');
    // A second signal does not wait.
    process.once(signal, () => process.exit(1));
    Promise.all([metricsServer?.close(), runtime.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Runs `fn` on a migrated database without queue or workers. */
async function withDatabase<T>(config: Config, fn: (ctx: Parameters<typeof createWorkspace>[0]) => Promise<T>): Promise<T> {
  const runtime = await startRuntime({ ...config, logLevel: 'warn' }, { http: false, workers: false });
  try {
    return await fn(runtime.ctx);
  } finally {
    await runtime.close();
  }
}

async function admin(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: 'string' }, scopes: { type: 'string' } },
  });
  const [action, first, second] = positionals;
  if (action === 'create-workspace' && first) {
    const workspace = await withDatabase(config, (ctx) => ctx.db.transaction().execute((trx) => createWorkspace(ctx, trx, first)));
    console.log(JSON.stringify({ workspace_id: workspace.id, trial_ends_at: workspace.trial_ends_at }));
  } else if (action === 'create-key' && first) {
    const wanted = values.scopes ? values.scopes.split(',').map((s) => s.trim()) : [...scopes];
    const unknown = wanted.filter((s) => !(scopes as readonly string[]).includes(s));
    if (unknown.length > 0) throw new Error(`unknown scopes: ${unknown.join(', ')} (known: ${scopes.join(', ')})`);
    const { key, secret } = await withDatabase(config, async (ctx) => {
      const exists = await ctx.db.selectFrom('workspaces').select('id').where('id', '=', first).executeTakeFirst();
      if (!exists) throw new Error(`workspace ${first} does not exist`);
      return createApiKey(ctx.db, first, { name: values.name ?? 'CLI key', scopes: wanted as Scope[] });
    });
    console.log(JSON.stringify({ id: key.id, key: secret, scopes: key.scopes }));
  } else if (action === 'set-plan' && first && second) {
    const workspace = await withDatabase(config, (ctx) => setPlan(ctx, first, second === 'none' ? null : second));
    console.log(JSON.stringify({ workspace_id: workspace.id, plan: workspace.plan }));
  } else {
    throw new Error(usage);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config, true, !rest.includes('--no-workers'));
    case 'worker':
      return serve(config, false, true);
    case 'migrate': {
      const database = await openDatabase(config);
      try {
        const applied = await migrate(database);
        createLogger(config.logLevel).info({ applied }, 'migrations applied');
      } finally {
        await database.close();
      }
      return;
    }
    case 'admin':
      return admin(config, rest);
    case 'models':
      return modelsCommand(config, rest);
    case 'openapi': {
      const runtime = await startRuntime({ ...config, logLevel: 'silent', dataDir: config.dataDir }, { http: true, workers: false });
      try {
        process.stdout.write(`${JSON.stringify(runtime.app?.swagger(), null, 2)}\n`);
      } finally {
        await runtime.close();
      }
      return;
    }
    default:
      console.error(usage);
      process.exitCode = command ? 1 : 0;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
