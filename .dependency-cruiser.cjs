// The layers of src/ and the imports allowed between them (checked by `npm run lint:layers`, in CI;
// type-only imports count like the others):
//
//   cli.ts, runtime.ts, http/app.ts, wiring/   the top: they know every feature and wire them
//   features/<name>/                           one folder per feature (routes, store, jobs, cards)
//   core/                                      runs, executions, scenarios, events, pipeline, filters
//   http/ (the kit)                            request typing, schemas, query helpers, errors, web
//   engines/                                   speech recognisers and analysis engines
//   platform/                                  database, storage, media, network, queue, security
//   config.ts, context.ts, errors.ts, ids.ts, logger.ts, scopes.ts, wer.ts   the kernel
//
// Nothing imports a layer above its own. Features import each other only down a declared order:
// a transcript is made of a recording, an analysis reads a transcript, a report reads analyses
// (recordings ← transcription ← analysis ← insights; files, the alternative upload form, reads the
// three); access, catalog and webhooks stand alone. What follows from what (a prepared recording
// is transcribed, a transcript analysed) is announced through core/pipeline.ts and decided in
// wiring/automation.ts, so no feature reaches up to start another.
const top = ['^src/wiring/', '^src/http/app\\.ts$', '^src/runtime\\.ts$', '^src/cli\\.ts$'];

/** Each feature and the features it may import. */
const features = {
  recordings: [],
  transcription: ['recordings'],
  analysis: ['recordings', 'transcription'],
  insights: ['recordings', 'transcription', 'analysis'],
  files: ['recordings', 'transcription', 'analysis'],
  categories: ['recordings', 'transcription', 'analysis'],
  access: [],
  catalog: [],
  webhooks: [],
};

module.exports = {
  forbidden: [
    {
      name: 'only-the-top-wires',
      comment: 'The wiring (jobs, automation, the app, the runtime, the CLI) is imported by nothing below it.',
      severity: 'error',
      from: { path: '^src/', pathNot: top },
      to: { path: top },
    },
    ...Object.entries(features).map(([name, allowed]) => ({
      name: `feature-${name}-imports-only-below-it`,
      comment: `features/${name} may import ${allowed.length ? allowed.map((f) => `features/${f}`).join(', ') : 'no other feature'}.`,
      severity: 'error',
      from: { path: `^src/features/${name}/` },
      to: { path: '^src/features/', pathNot: [`^src/features/${name}/`, ...allowed.map((f) => `^src/features/${f}/`)] },
    })),
    {
      name: 'core-knows-no-feature',
      comment: 'The core (runs, executions, scenarios, events, the pipeline) serves every feature and imports none.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'http-kit-below-core',
      comment: 'The HTTP kit (request typing, schemas, query helpers, error handling, static web) knows no core and no feature.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '^src/http/app\\.ts$' },
      to: { path: ['^src/core/', '^src/features/'] },
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
