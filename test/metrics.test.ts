// Prometheus metrics: behind a token, scraped after real work — request durations by route and
// status, run durations by engine, run failures by error code, webhook outcomes, waiting runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { upload, waitForRecording } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, eventually, registerAccount, startHark, type Hark } from './helpers/harness.ts';

describe('metrics', () => {
  let hark: Hark;
  before(async () => {
    hark = await startHark({ backend: 'pglite', env: { HARK_METRICS_TOKEN: 'scrape-me' } });
  });
  after(() => hark.destroy());

  const scrape = () => hark.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } });

  test('refused without the token; without a token configured there is no endpoint', async () => {
    assertProblem(await hark.request({ method: 'GET', url: '/metrics' }), 401, 'unauthorized');
    assertProblem(await hark.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } }), 401, 'unauthorized');
    const plain = await startHark({ backend: 'pglite', workers: false });
    try {
      assertProblem(await plain.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } }), 404, 'not_found');
    } finally {
      await plain.destroy();
    }
  });

  test('after a completed run and a failed one, the scrape shows them', async () => {
    const account = await registerAccount(hark);
    const P = `/api/v1/workspaces/${account.workspaceId}`;
    const id = (await upload(hark, account, speech('Hello and welcome.'))).json<{ id: string }>().id;
    await waitForRecording(hark, account, id, ['completed']);
    const run = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key })).json<{ id: string }>();
    await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}`, key: account.key })).json<{ status: string }>().status === 'completed', 60_000, 'the run');
    const remote = (await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'remote', engine: 'openai', model: 'whisper-1', options: { base_url: 'http://127.0.0.1:9/v1' }, retry: { max_attempts: 1 } } })).json<{ id: string }>();
    const failing = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: remote.id } })).json<{ id: string }>();
    await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${failing.id}`, key: account.key })).json<{ status: string }>().status === 'failed', 60_000, 'the failure');

    const response = await scrape();
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/plain/);
    const text = response.body;
    assert.match(text, /hark_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/workspaces\/:workspace_id\/recordings",status="202"\} 1/);
    assert.match(text, /hark_run_duration_seconds_count\{kind="transcription",engine="pocketsphinx"\} 1/);
    for (const phase of ['cmn', 'search', 'lattice']) {
      const seconds = new RegExp(`hark_transcription_decode_seconds_total\\{engine="pocketsphinx",phase="${phase}"\\} (\\S+)`).exec(text)?.[1];
      assert.ok(Number(seconds) > 0, `${phase}: ${seconds}`);
    }
    // Where the time went, by stage: preparation of the upload and the run's engine and storing.
    const stage = (kind: string, name: string) => Number(new RegExp(`hark_pipeline_seconds_total\\{kind="${kind}",stage="${name}"\\} (\\S+)`).exec(text)?.[1]);
    for (const name of ['fetch', 'probe', 'convert', 'store']) assert.ok(stage('preparation', name) >= 0, `preparation ${name}`);
    assert.ok(stage('preparation', 'convert') > 0);
    for (const name of ['execute', 'store']) assert.ok(stage('transcription', name) > 0, `transcription ${name}`);
    assert.match(text, /hark_run_failures_total\{kind="transcription",error_code="[a-z_]+"\} 1/);
    assert.match(text, /hark_runs\{kind="transcription",status="queued"\} 0/);
    assert.match(text, /hark_queue_oldest_seconds\{kind="analysis"\} 0/);
    assert.match(text, /hark_transcription_real_time_factor_count\{engine="pocketsphinx"\} 1/);
    const factor = Number(/hark_transcription_real_time_factor_sum\{engine="pocketsphinx"\} (\S+)/.exec(text)?.[1]);
    assert.ok(factor > 0 && factor < 20, `real-time factor ${factor}`);
  });
});

test('metrics: jobs waiting in every queue, with the age of the oldest', async () => {
  // No workers: the upload's preparation job waits.
  const hark = await startHark({ backend: 'pglite', workers: false, env: { HARK_METRICS_TOKEN: 'scrape-me' } });
  try {
    const account = await registerAccount(hark);
    assert.equal((await upload(hark, account, speech('Hello.'))).statusCode, 202);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = (await hark.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } })).body;
    assert.match(text, /^hark_jobs\{queue="prepare-audio",state="created"\} 1$/m);
    const oldest = Number(/^hark_jobs_oldest_seconds\{queue="prepare-audio"\} (\S+)$/m.exec(text)?.[1]);
    assert.ok(oldest >= 1 && oldest < 60, `oldest ${oldest}`);
  } finally {
    await hark.destroy();
  }
});
