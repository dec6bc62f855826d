// The layers of src/ and the imports allowed between them (checked by `npm run lint:layers`, in CI;
// type-only imports count like the others):
//
//   cli.ts, runtime.ts, http/app.ts, wiring/   the top: they know every feature and wire them
//   features/<name>/                           one folder per feature (routes, store, jobs, cards)
//   core/                                      runs, executions, scenarios, events, pipeline, filters
//   http/ (the kit)                            request typing, schemas, query helpers, errors, web
//   engines/                                   speech recognisers and analysis engines
//   platform/                                  database, storage, media, network, queue, security
//   context.ts                                 the context: the process's services, as types (the
//                                              platform's database, queue, storage, metrics, and the
//                                              core's pipeline interface); read by core, features, wiring
//   config.ts, errors.ts, ids.ts, logger.ts, progress.ts, scopes.ts, wer.ts   the kernel: imports nothing of the project
//
// Nothing imports a layer above its own, and no feature imports another. What several features
// read lives in core: the recording (its store and lifecycle, upload intake, pipeline status), the
// transcript (its card, parts, statistics, sentiment, key phrases, chapters, phrase rules) and the
// analysis result and questions. What follows from what (a prepared recording is transcribed, a
// transcript analysed, a template labels speakers) is announced through core/pipeline.ts and
// decided in wiring/automation.ts, so no feature reaches into another to make it happen.
const top = ['^src/wiring/', '^src/http/app\\.ts$', '^src/runtime\\.ts$', '^src/cli\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'only-the-top-wires',
      comment: 'The wiring (jobs, automation, the app, the runtime, the CLI) is imported by nothing below it.',
      severity: 'error',
      from: { path: '^src/', pathNot: top },
      to: { path: top },
    },
    {
      name: 'no-feature-imports-another',
      comment: 'A feature is one folder: it imports the core, the HTTP kit, the engines and the platform, never another feature.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'core-knows-no-feature',
      comment: 'The core (runs, executions, scenarios, events, the pipeline) serves every feature and imports none.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'http-kit-below-core',
      comment: 'The HTTP kit (request typing, schemas, query helpers, error handling, static web) knows no core, no feature and no context.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '^src/http/app\\.ts$' },
      to: { path: ['^src/core/', '^src/features/', '^src/context\\.ts$'] },
    },
    {
      name: 'kernel-imports-nothing',
      comment: 'The kernel (config, errors, ids, instant, logger, progress, scopes, wer) imports no other module of the project.',
      severity: 'error',
      from: { path: '^src/(config|errors|ids|instant|logger|progress|scopes|wer)\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(config|errors|ids|instant|logger|progress|scopes|wer)\\.ts$' },
    },
    {
      name: 'context-below-core',
      comment: 'The context composes the platform\'s services and the core\'s pipeline interface, nothing else.',
      severity: 'error',
      from: { path: '^src/context\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/(config|errors|ids|instant|logger|progress|scopes|wer)\\.ts$', '^src/platform/', '^src/core/pipeline\\.ts$'] },
    },
    {
      name: 'engines-stand-alone',
      comment: 'Engines know their own inputs and the platform, never the core, the features or HTTP.',
      severity: 'error',
      from: { path: '^src/engines/' },
      to: { path: ['^src/(core|features|http)/', '^src/context\\.ts$'] },
    },
    {
      name: 'engine-kinds-apart',
      comment: 'Analysis engines and transcription engines share only src/engines/*.ts.',
      severity: 'error',
      from: { path: '^src/engines/analysis/' },
      to: { path: '^src/engines/transcription/' },
    },
    {
      name: 'platform-at-the-bottom',
      comment: 'Database, storage, media, network, queue and security code knows nothing above it.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: ['^src/(core|features|engines|http)/', '^src/context\\.ts$'] },
    },
    {
      name: 'routes-are-leaves',
      comment: 'A feature\'s routes file does not import another routes file; what two share lives beside them (the run and scenario route factories in core).',
      severity: 'error',
      from: { path: '-routes\\.ts$' },
      to: { path: '^src/features/.*-routes\\.ts$' },
    },
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
