// The layers of src/ and the imports allowed between them (checked by `npm run lint:layers`, in CI):
//   http → services / runs / transcription / analysis / jobs → cards, engines, media, net,
//   storage, db → config, errors, ids (platform). Nothing imports a layer above its own.
const domain = '^src/(services|runs|transcription|analysis|webhooks)/';
const platform = '^src/(db|net|media|storage|security)/';

module.exports = {
  forbidden: [
    {
      name: 'http-is-the-top',
      comment: 'Only the runtime and the CLI start the HTTP layer; nothing below it imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/http/', '^src/runtime\\.ts$', '^src/cli\\.ts$'] },
      to: { path: '^src/http/' },
    },
    {
      name: 'routes-are-leaves',
      comment: 'A route file does not import another route file; shared route code lives beside them.',
      severity: 'error',
      from: { path: '^src/http/routes/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'domain-below-jobs-wiring',
      comment: 'Services and run kinds do not import job handlers (jobs call services, not the reverse).',
      severity: 'error',
      from: { path: domain },
      to: { path: '^src/jobs/', pathNot: ['^src/jobs/queue\\.ts$'] },
    },
    {
      name: 'cards-are-data',
      comment: 'Cards (public JSON shapes) depend on nothing but schema helpers, row types and pure shape logic (talk statistics of older transcripts).',
      severity: 'error',
      from: { path: '^src/cards/' },
      to: { path: '^src/', pathNot: ['^src/cards/', '^src/scopes\\.ts$', '^src/db/tables\\.ts$', '^src/db/stored-json\\.ts$', '^src/engines/[^/]+/registry\\.ts$', '^src/engines/[^/]+/types\\.ts$', '^src/engines/types\\.ts$', '^src/services/recording-filters\\.ts$', '^src/transcription/talk-stats\\.ts$'] },
    },
    {
      name: 'engines-stand-alone',
      comment: 'Engines know their own inputs and the platform, never the services, jobs, runs or HTTP.',
      severity: 'error',
      from: { path: '^src/engines/' },
      to: { path: ['^src/(services|jobs|runs|http|cards|transcription|analysis|webhooks)/'] },
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
      comment: 'Database, network, media and storage code knows nothing of the features above it.',
      severity: 'error',
      from: { path: platform },
      to: { path: ['^src/(services|runs|transcription|analysis|webhooks|jobs|http|cards|engines)/'] },
    },
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true, dependencyTypesNot: ['type-only'] } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
