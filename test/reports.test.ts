// Reports over HTTP: analysis results and recordings grouped by metadata and by day, JSON and CSV.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { upload, waitForRecording } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { sql } from 'kysely';
import { parseGroupBy } from '../src/features/insights/reports.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

const calls = [
  { team: 'red', text: 'Hello, thank you for calling. I would like a refund please.' },
  { team: 'red', text: 'Hello and welcome. I need to change my address.' },
  { team: 'blue', text: 'Yes. I want to cancel my order.' },
];

for (const backend of await backends()) {
  describe(`reports on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    let scenarioId: string;
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      const get = (url: string) => hark.request({ method: 'GET', url: `${P}${url}`, key: account.key });
      const sct = (await get('/transcription-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      scenarioId = (await get('/analysis-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      await hark.request({ method: 'PATCH', url: `${P}/transcription-scenarios/${sct}`, key: account.key, payload: { auto: true } });
      await hark.request({ method: 'PATCH', url: `${P}/analysis-scenarios/${scenarioId}`, key: account.key, payload: { auto: true } });
      for (const call of calls) {
        const id = (await upload(hark, account, speech(call.text), { fields: { metadata: JSON.stringify({ team: call.team }) } })).json<{ id: string }>().id;
        await waitForRecording(hark, account, id, ['completed']);
      }
      await eventually(async () => ((await get(`/analysis-results?analysis_scenario_id=${scenarioId}`)).json<{ data: unknown[] }>().data.length === 3 ? true : null), 180_000, 'three results');
    });
    after(() => hark.destroy());

    test('analysis report by metadata and day, in JSON and CSV', async () => {
      const response = await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team&group_by=created_at:day`, key: account.key });
      assert.equal(response.statusCode, 200, response.body);
      const report = response.json<{ groups: { key: Record<string, string>; results: number; questions: { question_id: string; true: number; false: number; rate: number | null }[] }[] }>();
      assert.equal(report.groups.length, 2);
      const red = report.groups.find((g) => g.key['metadata.team'] === 'red')!;
      assert.equal(red.results, 2);
      assert.match(red.key['created_at:day']!, /^\d{4}-\d{2}-\d{2}$/);
      const greeting = red.questions.find((q) => q.question_id === 'greeting')!;
      assert.equal(greeting.true + greeting.false, 2);
      assert.equal(greeting.rate, greeting.true / 2);
      const filtered = (await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&metadata.team=blue`, key: account.key })).json<{ groups: { results: number }[] }>();
      assert.deepEqual(filtered.groups.map((g) => g.results), [1]);

      const csv = await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team`, key: account.key, headers: { accept: 'text/csv' } });
      assert.match(String(csv.headers['content-type']), /text\/csv/);
      const [header, ...lines] = csv.body.trim().split('\n');
      assert.equal(header, 'metadata.team,calls,greeting.true,greeting.false,greeting.rate');
      assert.equal(lines.length, 2);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=bogus`, key: account.key }), 400, 'validation_failed');
    });

    test('a scenario run again over the same calls leaves the report unchanged: it counts calls, not runs', async () => {
      const get = async (url: string) => (await hark.request({ method: 'GET', url: `${P}${url}`, key: account.key })).json<Record<string, unknown>>();
      const before = await get(`/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team`);
      const already = ((await get(`/analysis-results?analysis_scenario_id=${scenarioId}&limit=200`)).data as unknown[]).length;
      const rerun = await hark.request({ method: 'POST', url: `${P}/analysis-scenarios/${scenarioId}/executions`, key: account.key, payload: { idempotency_key: `rerun-${Date.now()}` } });
      assert.equal(rerun.statusCode, 202, rerun.body);
      await eventually(async () => (((await get(`/analysis-results?analysis_scenario_id=${scenarioId}&limit=200`)).data as unknown[]).length >= already + 3 ? true : null), 180_000, 'the re-run\'s results');
      const after = await get(`/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team`);
      const calls = (report: Record<string, unknown>) => (report.groups as { key: Record<string, string>; results: number; calls: number; questions: { true: number; false: number }[] }[]).map((g) => [g.key['metadata.team'], g.calls, g.results, g.questions.map((q) => q.true + q.false)]);
      assert.deepEqual(calls(after), calls(before), 'the same calls, each counted once');
      assert.deepEqual(calls(after).map(([team, n]) => [team, n]), [['blue', 1], ['red', 2]]);
    });

    test('answers across calls: a row per call, filterable by metadata and answer, per execution, as CSV', async () => {
      type Table = { questions: { id: string }[]; rows: { recording_id: string; metadata: Record<string, string>; analysis_run_id: string; answers: Record<string, { answer: boolean | string; uncertain: boolean }> }[]; total: number };
      const table = async (query = '') => {
        const response = await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenarioId}/answers${query}`, key: account.key });
        assert.equal(response.statusCode, 200, response.body);
        return response.json<Table>();
      };
      const all = await table();
      assert.equal(all.total, 3, 'each call once, however many times it was analysed');
      assert.deepEqual(all.questions.map((q) => q.id), ['greeting', 'request']);
      assert.ok(all.rows.every((row) => typeof row.answers.greeting?.answer === 'boolean' && typeof row.answers.request?.answer === 'string'));
      assert.deepEqual((await table('?metadata.team=red')).rows.map((r) => r.metadata.team), ['red', 'red']);
      const report = (await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}`, key: account.key })).json<{ groups: { questions: { question_id: string; true: number; false: number }[] }[] }>();
      const greeting = report.groups[0]!.questions.find((q) => q.question_id === 'greeting')!;
      assert.equal((await table('?answer.greeting=true')).total, greeting.true, 'the table and the report count the same calls');
      assert.equal((await table('?answer.greeting=false')).total, greeting.false);
      // Paged in the database: the total stays that of the whole filtered table.
      const paged = await table('?limit=1&offset=1');
      assert.deepEqual([paged.rows.length, paged.total], [1, 3]);
      assert.equal(paged.rows[0]!.recording_id, all.rows[1]!.recording_id);
      assert.deepEqual([(await table('?offset=5')).rows.length, (await table('?offset=5')).total], [0, 3]);
      const uncertain = all.rows.filter((r) => r.answers.request?.uncertain).length;
      assert.equal((await table('?answer.request=uncertain')).total, uncertain);
      const executions = (await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenarioId}/executions`, key: account.key })).json<{ data: { id: string }[] }>().data;
      const ofExecution = await table(`?execution_id=${executions[0]!.id}`);
      assert.equal(ofExecution.total, 3);
      const runs = (await hark.request({ method: 'GET', url: `${P}/analysis-runs?execution_id=${executions[0]!.id}`, key: account.key })).json<{ data: { id: string }[] }>().data.map((r) => r.id);
      assert.deepEqual(ofExecution.rows.map((r) => r.analysis_run_id).sort(), runs.sort());
      const csv = await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenarioId}/answers?metadata.team=blue`, key: account.key, headers: { accept: 'text/csv' } });
      const [header, ...lines] = csv.body.trim().split('\n');
      assert.equal(header, 'recording_id,filename,recorded_at,metadata.team,greeting,greeting.confidence,greeting.uncertain,request,request.confidence,request.uncertain');
      assert.equal(lines.length, 1);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenarioId}/answers?answer.greeting=maybe`, key: account.key }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenarioId}/answers?answer.nope=true`, key: account.key }), 400, 'validation_failed');
    });

    test('a call date: recorded_at given, read from the file, or the upload time; editable with metadata, and reports follow', async () => {
      const other = await registerAccount(hark);
      const Q = `/api/v1/workspaces/${other.workspaceId}`;
      const card = async (id: string) => (await hark.request({ method: 'GET', url: `${Q}/recordings/${id}`, key: other.key })).json<{ recorded_at: string; recorded_at_source: string; created_at: string; metadata: Record<string, unknown> }>();
      const given = (await upload(hark, other, speech('Hello.'), { fields: { recorded_at: '2026-10-05T09:30:00+02:00', metadata: '{"team":"red"}' } })).json<{ id: string; recorded_at: string; recorded_at_source: string }>();
      assert.deepEqual([new Date(given.recorded_at).toISOString(), given.recorded_at_source], ['2026-10-05T07:30:00.000Z', 'client']);
      // An M4A carries its own creation time: the call took place then.
      const m4a = path.join(os.tmpdir(), `hark-dated-${process.pid}.m4a`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', speech('Hello there.'), '-c:a', 'aac', '-metadata', 'creation_time=2026-09-14T16:45:00Z', m4a]);
      const dated = (await upload(hark, other, m4a, { contentType: 'audio/mp4', fields: { metadata: '{"team":"blue"}' } })).json<{ id: string }>().id;
      fs.rmSync(m4a, { force: true });
      const fromFile = await waitForRecording(hark, other, dated, ['completed']);
      assert.equal(new Date(fromFile.recorded_at).toISOString(), '2026-09-14T16:45:00.000Z');
      assert.equal(fromFile.recorded_at_source, 'file');
      const plain = (await upload(hark, other, speech('Hello.'))).json<{ id: string; recorded_at: string; recorded_at_source: string; created_at: string }>();
      assert.deepEqual([plain.recorded_at, plain.recorded_at_source], [plain.created_at, 'upload']);
      for (const bad of ['yesterday', '2026-10-05', '2999-01-01T00:00:00Z']) {
        assertProblem(await upload(hark, other, speech('Hello.'), { fields: { recorded_at: bad } }), 400, 'validation_failed');
      }

      // Editing: the metadata replaced, the date moved; the list filters and the reports follow.
      const patched = await hark.request({ method: 'PATCH', url: `${Q}/recordings/${plain.id}`, key: other.key, payload: { metadata: { team: 'green', agent: 'ana' }, recorded_at: '2026-08-01T12:00:00Z' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual((await card(plain.id)).metadata, { team: 'green', agent: 'ana' });
      assert.equal((await card(plain.id)).recorded_at_source, 'client');
      const before = (await hark.request({ method: 'GET', url: `${Q}/recordings?recorded_before=2026-09-01T00:00:00Z`, key: other.key })).json<{ data: { id: string }[] }>().data;
      assert.deepEqual(before.map((r) => r.id), [plain.id]);
      // Sorted by when the calls took place, page by page; a cursor continues only its own sort.
      const list = async (query: string) => (await hark.request({ method: 'GET', url: `${Q}/recordings?${query}`, key: other.key })).json<{ data: { id: string }[]; next_cursor: string | null }>();
      const byCall: string[] = [];
      for (let page = await list('sort=recorded_at&limit=1'); ; page = await list(`sort=recorded_at&limit=1&cursor=${page.next_cursor}`)) {
        byCall.push(...page.data.map((r) => r.id));
        if (!page.next_cursor) break;
      }
      assert.deepEqual(byCall, [given.id, fromFile.id, plain.id]);
      assert.deepEqual((await list('limit=10')).data.map((r) => r.id), [plain.id, fromFile.id, given.id], 'upload order by default');
      const uploadCursor = (await list('limit=1')).next_cursor!;
      assertProblem(await hark.request({ method: 'GET', url: `${Q}/recordings?sort=recorded_at&cursor=${uploadCursor}`, key: other.key }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'GET', url: `${Q}/recordings?sort=duration`, key: other.key }), 400, 'validation_failed');
      const byMonth = (await hark.request({ method: 'GET', url: `${Q}/reports/recordings?group_by=recorded_at:month&status=completed,queued,processing`, key: other.key })).json<{ groups: { key: Record<string, string>; recordings: number }[] }>();
      assert.deepEqual(byMonth.groups.map((g) => g.key['recorded_at:month']), ['2026-08-01', '2026-09-01', '2026-10-01']);
      assertProblem(await hark.request({ method: 'PATCH', url: `${Q}/recordings/${plain.id}`, key: other.key, payload: { recorded_at: 'soon' } }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'PATCH', url: `${Q}/recordings/${plain.id}`, key: other.key, payload: {} }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'PATCH', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${plain.id}`, key: account.key, payload: { metadata: {} } }), 404, 'not_found');
    });

    test('an edited call moves between the groups of the analysis report, and a webhook hears of it', async () => {
      const hook = await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url: 'http://127.0.0.1:9/hook', events: ['recording.updated'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      const report = async () => (await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team`, key: account.key })).json<{ groups: { key: Record<string, string>; calls: number }[] }>().groups.map((g) => [g.key['metadata.team'], g.calls]);
      assert.deepEqual(await report(), [['blue', 1], ['red', 2]]);
      const blue = (await hark.request({ method: 'GET', url: `${P}/recordings?metadata.team=blue`, key: account.key })).json<{ data: { id: string }[] }>().data[0]!.id;
      await hark.request({ method: 'PATCH', url: `${P}/recordings/${blue}`, key: account.key, payload: { metadata: { team: 'red' } } });
      assert.deepEqual(await report(), [['red', 3]]);
      await hark.request({ method: 'PATCH', url: `${P}/recordings/${blue}`, key: account.key, payload: { metadata: { team: 'blue' } } });
      assert.deepEqual(await report(), [['blue', 1], ['red', 2]]);
      const events = await hark.runtime.ctx.db.selectFrom('webhook_events').select('type').where('workspace_id', '=', account.workspaceId).where('type', '=', 'recording.updated').execute();
      assert.equal(events.length, 2);
      await hark.request({ method: 'DELETE', url: `${P}/webhooks/${hook.json<{ id: string }>().id}`, key: account.key });
    });

    test('recordings report with counts by status and total duration', async () => {
      const report = (await hark.request({ method: 'GET', url: `${P}/reports/recordings?group_by=metadata.team`, key: account.key })).json<{ groups: { key: Record<string, string>; recordings: number; by_status: Record<string, number>; total_duration_seconds: number }[] }>();
      const blue = report.groups.find((g) => g.key['metadata.team'] === 'blue')!;
      assert.equal(blue.recordings, 1);
      assert.equal(blue.by_status.completed, 1);
      assert.ok(blue.total_duration_seconds > 1);
      const reader = (await hark.request({ method: 'POST', url: `${P}/api-keys`, key: account.key, payload: { name: 'r', scopes: ['recordings:read'] } })).json<{ key: string }>().key;
      assertProblem(await hark.request({ method: 'GET', url: `${P}/reports/recordings`, key: reader }), 403, 'insufficient_scope');
    });

    test('the list and the reports read a metadata filter the same way, for every value type', async () => {
      // A separate workspace, so the recordings above do not count.
      const other = await registerAccount(hark);
      const Q = `/api/v1/workspaces/${other.workspaceId}`;
      const values: unknown[] = ['3', 3, 3.5, true, 'true', false, 'false', null, 'null', '', 'x', { deep: 'x' }, [1]];
      const wav = speech('Hello.');
      const ids = new Map<string, unknown>();
      for (const value of values) {
        const created = await upload(hark, other, wav, { fields: { metadata: JSON.stringify({ v: value, nested: { v: value } }) } });
        ids.set(created.json<{ id: string }>().id, value);
      }
      for (const filter of ['3', '3.5', 'true', 'false', 'null', '', 'x', '03', 'TRUE']) {
        for (const field of ['v', 'nested.v']) {
          const query = `metadata.${field}=${encodeURIComponent(filter)}`;
          const listed = (await hark.request({ method: 'GET', url: `${Q}/recordings?limit=200&${query}`, key: other.key })).json<{ data: { id: string }[] }>().data;
          const report = (await hark.request({ method: 'GET', url: `${Q}/reports/recordings?${query}`, key: other.key })).json<{ groups: { recordings: number }[] }>();
          const reported = report.groups.reduce((sum, g) => sum + g.recordings, 0);
          assert.equal(reported, listed.length, `${query}: the report counts ${reported}, the list shows ${listed.length}`);
          const expected = [...ids].filter(([, value]) => value === filter || (filter === 'true' && value === true) || (filter === 'false' && value === false) || (filter === 'null' && value === null) || (typeof value === 'number' && filter.trim() !== '' && Number(filter) === value)).length;
          assert.equal(listed.length, expected, query);
        }
      }
      // Groups come in the order of their keys: text in the locale's order, a missing value last.
      const grouped = (await hark.request({ method: 'GET', url: `${Q}/reports/recordings?group_by=metadata.v`, key: other.key })).json<{ groups: { key: Record<string, string | null> }[] }>().groups.map((g) => g.key['metadata.v']!);
      assert.equal(grouped.at(-1), null);
      assert.deepEqual(grouped.slice(0, -1), grouped.slice(0, -1).sort(new Intl.Collator().compare));
    });

    test('CSV reports make a formula in metadata inert (OWASP: =, +, -, @, tab, CR get an apostrophe)', async () => {
      const other = await registerAccount(hark);
      const Q = `/api/v1/workspaces/${other.workspaceId}`;
      const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', 'plain'];
      for (const team of hostile) await upload(hark, other, speech('Hello.'), { fields: { metadata: JSON.stringify({ team }) } });
      const csv = await hark.request({ method: 'GET', url: `${Q}/reports/recordings?group_by=metadata.team`, key: other.key, headers: { accept: 'text/csv' } });
      assert.equal(csv.statusCode, 200, csv.body);
      const firstCells = csv.body.trim().split('\n').slice(1).map((line) => line.split(',')[0]!);
      assert.deepEqual(firstCells.sort(), ['"\'=HYPERLINK(""http://evil.example""', "'\tTAB", "'+1+1", "'-2+3", "'@SUM(A1)", 'plain'].sort());
    });
  });
}

test('period keys are whole numbers whose labels equal PostgreSQL\'s date_trunc in UTC, computed or read from the facts', async () => {
  const hark = await startHark({ backend: 'pglite', workers: false });
  try {
    const moments = ['1969-12-28T23:59:59Z', '1970-01-01T00:00:00Z', '2024-02-29T12:00:00Z', '2026-11-22T23:59:59.999Z', '2026-11-23T00:00:00Z', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00Z'];
    const db = hark.runtime.ctx.db;
    // The facts' generated period columns (migration 021), on a table shaped like analysis_facts.
    await sql`CREATE TEMP TABLE facts_periods (LIKE analysis_facts INCLUDING GENERATED INCLUDING DEFAULTS)`.execute(db);
    for (const [i, moment] of moments.entries()) {
      await sql`INSERT INTO facts_periods (analysis_run_id, workspace_id, analysis_scenario_id, recording_id, created_at, recorded_at, metadata, booleans)
        VALUES (${`anl-${i}`}, 'ws', 'sca', 'fl', ${moment}::timestamptz, ${moment}::timestamptz, '{}', '{}')`.execute(db);
    }
    for (const source of ['recordings', 'facts'] as const) {
      const keys = parseGroupBy(['created_at:day', 'created_at:week', 'created_at:month'], source);
      const recordedKeys = parseGroupBy(['recorded_at:day', 'recorded_at:week', 'recorded_at:month'], source);
      const { rows } = await sql<Record<string, unknown>>`
        SELECT ${sql.join(keys.map((k, i) => sql`${k.expression} AS ${sql.ref(`k${i}`)}`))},
          ${sql.join(recordedKeys.map((k, i) => sql`${k.expression} AS ${sql.ref(`r${i}`)}`))},
          ${sql.join(['day', 'week', 'month'].map((p) => sql`to_char(date_trunc(${p}, rec.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS ${sql.ref(`t_${p}`)}`))}
        FROM facts_periods rec ORDER BY rec.created_at`.execute(db);
      assert.equal(rows.length, moments.length);
      for (const [i, row] of rows.entries()) {
        assert.deepEqual(
          keys.map((k, j) => k.label(row[`k${j}`])),
          [row.t_day, row.t_week, row.t_month],
          `${source}: ${moments[i]}`,
        );
        assert.deepEqual(recordedKeys.map((k, j) => k.label(row[`r${j}`])), [row.t_day, row.t_week, row.t_month], `${source}, recorded_at: ${moments[i]}`);
      }
    }
  } finally {
    await hark.destroy();
  }
});
