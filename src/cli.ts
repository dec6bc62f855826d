// `hark <command>`: serve, worker, migrate, admin, models, openapi; `--help` on each.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, unknownSettings, type Config } from './config.ts';
import { createLogger, flushLog } from './logger.ts';
import { progressLine } from './progress.ts';
import { scopes, type Scope } from './scopes.ts';
import type { Context } from './context.ts';
// Each command imports what it runs when it runs (the service's modules take seconds to load),
// so that `--help`, a usage error or a setting's mistake answers at once.

/** Each command's usage, printed by `hark <command> --help` (stdout, exit 0, nothing else done). */
const usages = {
  serve: `usage: hark serve [--no-workers]
  Serves the API, the web interface and the docs on HARK_HOST:HARK_PORT, with workers in the same
  process (--no-workers: API only, for API hosts beside \`hark worker\` hosts).
  Settings are environment variables (and a .env file in the working directory); see .env.example.`,
  worker: `usage: hark worker
  Runs workers only (preparation, runs, webhooks) on the shared PostgreSQL (DATABASE_URL).`,
  migrate: `usage: hark migrate
  Applies the database migrations and exits (serve and worker also apply them at start).`,
  admin: `usage: hark admin <action>
  create-workspace NAME                                  a workspace on the trial
  create-key WORKSPACE_ID [--name NAME] [--scopes a,b]   an API key (every scope by default)
  set-plan WORKSPACE_ID PLAN|none                        end the trial with a plan, or go back`,
  models: `usage: hark models <action>
  add NAME PATH   register a whisper.cpp (ggml) or llama.cpp (GGUF) model file
  list            the registered models
  pull NAME       download a whisper.cpp model (needs a route to its public host)`,
  openapi: `usage: hark openapi
  Prints the OpenAPI document (no database needed).`,
} as const;
type Command = keyof typeof usages;

const usage = `usage: hark <command> [options]   (hark <command> --help for its options)
  serve [--no-workers]   API, web interface, docs and workers
  worker                 workers only
  migrate                apply database migrations and exit
  admin                  workspaces, keys and plans from the command line
  models                 local model files for whisper.cpp and llama.cpp
  openapi                print the OpenAPI document`;

/** A mistake in the command line: its message and the usage that would have helped. */
class UsageError extends Error {}

/** The command's own options, strictly: an unknown option, or more than `positionals` arguments, is a usage error. */
function options<T extends Record<string, { type: 'string' | 'boolean' }>>(command: Command, args: string[], spec: T, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: spec });
  } catch (error) {
    // Node's own words for an unknown option go on about positionals; the option is what matters.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    throw new UsageError(`${unknown ? `Unknown option '${unknown[1]}'.` : (error as Error).message}\n\n${usages[command]}`);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`Unexpected argument '${parsed.positionals[positionals]}'\n\n${usages[command]}`);
  return parsed;
}

async function serve(config: Config, http: boolean, workers: boolean): Promise<void> {
  const { startRuntime } = await import('./runtime.ts');
  const { startMetricsServer } = await import('./platform/observability/metrics-server.ts');
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
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal, either one, does not wait for the work (only, a second at most, for the log).
    if (stopping) {
      void flushLog().then(() => process.exit(1));
      return;
    }
    stopping = true;
    log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down: finishing requests in flight and running work');
    Promise.all([metricsServer?.close(), runtime.close()]).then(
      () => flushLog().then(() => process.exit(0)),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        void flushLog().then(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Runs `fn` on a migrated database without queue or workers. */
async function withDatabase<T>(config: Config, fn: (ctx: Context) => Promise<T>): Promise<T> {
  const { startRuntime } = await import('./runtime.ts');
  // Warnings only, on stderr: standard output is the command's result.
  const runtime = await startRuntime({ ...config, logLevel: 'warn' }, { http: false, workers: false, log: createLogger('warn', 'stderr') });
  try {
    return await fn(runtime.ctx);
  } finally {
    await runtime.close();
  }
}

async function admin(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = options('admin', args, { name: { type: 'string' }, scopes: { type: 'string' } }, 3);
  const [action, first, second] = positionals;
  const { createApiKey } = await import('./features/access/api-keys.ts');
  const { createWorkspace, setPlan } = await import('./features/access/workspaces.ts');
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
      return createApiKey(ctx.db, first, { name: values.name ?? 'CLI key', scopes: wanted as Scope[] }, { account: null, key: null });
    });
    console.log(JSON.stringify({ id: key.id, key: secret, scopes: key.scopes }));
  } else if (action === 'set-plan' && first && second) {
    const workspace = await withDatabase(config, (ctx) => setPlan(ctx, first, second === 'none' ? null : second));
    console.log(JSON.stringify({ workspace_id: workspace.id, plan: workspace.plan }));
  } else {
    const actions = ['create-workspace', 'create-key', 'set-plan'];
    const problem =
      action === undefined
        ? `Name an action: ${actions.join(', ')}.`
        : !actions.includes(action)
          ? `Unknown action '${action}': one of ${actions.join(', ')}.`
          : `Wrong arguments for '${action}'.`;
    throw new UsageError(`${problem}\n\n${usages.admin}`);
  }
}

/** The OpenAPI document, from the routes alone: no database is opened. */
async function printOpenApi(config: Config): Promise<void> {
  const { buildDocumentApp } = await import('./runtime.ts');
  const app = await buildDocumentApp({ ...config, logLevel: 'silent' });
  try {
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${usage}\n`);
    if (command === undefined) process.exitCode = 1;
    return;
  }
  if (!(command in usages)) throw new UsageError(`unknown command "${command}"\n\n${usage}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${usages[command as Command]}\n`);
    return;
  }
  readEnvFile();
  const config = loadConfig();
  // A server's log is its output; a one-shot command's output is its result, and its log goes to stderr.
  const log = createLogger(config.logLevel, command === 'serve' || command === 'worker' ? 'stdout' : 'stderr');
  // On stderr, so that output meant for a file (`hark openapi > openapi.json`) stays clean.
  for (const { name, nearest } of unknownSettings(process.env)) process.stderr.write(`warning: ${name} is not a Hark setting and does nothing: did you mean ${nearest}?\n`);
  // Every command but openapi keeps its data in the data folder: a file there is named in a sentence, not as a failed mkdir.
  if (command !== 'openapi' && existsSync(config.dataDir) && !statSync(config.dataDir).isDirectory()) {
    throw new Error(`HARK_DATA_DIR is ${config.dataDir}, which is a file: give a folder (it is made when missing).`);
  }
  switch (command as Command) {
    case 'serve':
      return serve(config, true, !options('serve', rest, { 'no-workers': { type: 'boolean' } }).values['no-workers']);
    case 'worker':
      options('worker', rest, {});
      return serve(config, false, true);
    case 'migrate': {
      options('migrate', rest, {});
      const { openDatabase } = await import('./platform/db/database.ts');
      const { migrate } = await import('./platform/db/migrate.ts');
      const database = await openDatabase(config);
      try {
        const started = Date.now();
        const applied = await migrate(database, ({ name, number, of }) => progressLine(`migrating ${number}/${of}: ${name}`));
        progressLine(applied.length === 0 ? 'the database is up to date' : `${applied.length} migration${applied.length === 1 ? '' : 's'} applied in ${((Date.now() - started) / 1000).toFixed(1)} s`, true);
        log.info({ applied }, 'migrations applied');
      } finally {
        await database.close();
      }
      return;
    }
    case 'admin':
      return admin(config, rest);
    case 'models': {
      const { positionals } = options('models', rest, {}, 3);
      return (await import('./models-cli.ts')).modelsCommand(config, positionals, (problem) => new UsageError(`${problem}\n\n${usages.models}`));
    }
    case 'openapi':
      options('openapi', rest, {});
      return printOpenApi(config);
  }
}

/** Settings from a .env file in the working directory; the environment wins over it. */
function readEnvFile(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

// Output to a pipe closed early (`hark openapi | head`) ends the writing, not the process.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : String(error));
  void flushLog().then(() => process.exit(error instanceof UsageError ? 2 : 1));
});
