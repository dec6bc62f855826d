// Scenario versions over HTTP, through the shipped TypeScript client: every change moves a
// scenario's version on (an edit, or `auto` taken by another scenario); an update that names the
// version it was made on is refused with 409 scenario_changed, changing nothing, once the scenario
// has moved on, so an editor left open cannot undo a change saved elsewhere. An update without a
// version is applied as before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { backends, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

for (const backend of await backends()) {
  describe(`scenario versions on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    before(async () => {
      hark = await startHark({ backend, workers: false });
      client = hark.client((await registerAccount(hark)).key);
    });
    after(() => hark.destroy());

    test('an analysis scenario edited on an old version is refused and keeps the newer change', async () => {
      const created = await client.createAnalysisScenario({ body: { name: 'QA', questions: [{ id: 'refund', text: 'Did the agent offer a refund?', type: 'boolean' }] } });
      assert.equal(created.version, 1);
      // Two editors read version 1; the first adds an example, the second renames later.
      const taught = await client.updateAnalysisScenario({
        path: { scenario_id: created.id },
        body: { version: 1, questions: [{ id: 'refund', text: 'Did the agent offer a refund?', type: 'boolean', examples: ['we will refund the full amount'] }] },
      });
      assert.equal(taught.version, 2);
      const problem = await rejectsWith(client.updateAnalysisScenario({ path: { scenario_id: created.id }, body: { version: 1, name: 'QA renamed', questions: [{ id: 'refund', text: 'Did the agent offer a refund?', type: 'boolean' }] } }), 409, 'scenario_changed');
      assert.match(problem.detail ?? '', /version 1 .* version 2/);
      const now = await client.getAnalysisScenario({ path: { scenario_id: created.id } });
      assert.equal(now.name, 'QA', 'the refused update changed nothing');
      assert.deepEqual(now.questions[0]!.examples, ['we will refund the full amount']);
      assert.equal(now.version, 2);
      // Read again and made on the current version, the change goes through; without a version, too.
      assert.equal((await client.updateAnalysisScenario({ path: { scenario_id: created.id }, body: { version: 2, name: 'QA renamed' } })).version, 3);
      const unconditional = await client.updateAnalysisScenario({ path: { scenario_id: created.id }, body: { summary: false } });
      assert.equal(unconditional.version, 4);
      assert.equal(unconditional.name, 'QA renamed');
    });

    test('an update that writes the values a scenario has changes nothing: its version stays, and an edit made on it still applies', async () => {
      const created = await client.createTranscriptionScenario({ body: { name: 'Same', auto: false } });
      // An editor saving its whole draft unchanged, or one field as it is.
      const same = await client.updateTranscriptionScenario({ path: { scenario_id: created.id }, body: { version: created.version, name: 'Same', auto: false, language: created.language, options: created.options } });
      assert.equal(same.version, created.version);
      assert.equal(same.updated_at, created.updated_at, 'nothing was written');
      const analysis = await client.createAnalysisScenario({ body: { name: 'Same QA', summary: true, questions: [{ id: 'refund', text: 'Did the agent offer a refund?', type: 'boolean' }] } });
      assert.equal((await client.updateAnalysisScenario({ path: { scenario_id: analysis.id }, body: { summary: true, questions: analysis.questions } })).version, analysis.version);
      // Another editor's change made on that version goes through.
      const renamed = await client.updateTranscriptionScenario({ path: { scenario_id: created.id }, body: { version: created.version, name: 'Renamed' } });
      assert.equal(renamed.version, created.version + 1);
      // The no-op on the version it has left is still refused: the editor would not know of the rename.
      await rejectsWith(client.updateTranscriptionScenario({ path: { scenario_id: created.id }, body: { version: created.version, name: 'Renamed' } }), 409, 'scenario_changed');
    });

    test('auto taken by another transcription scenario moves the first one on', async () => {
      const first = await client.createTranscriptionScenario({ body: { name: 'First', auto: true } });
      const second = await client.createTranscriptionScenario({ body: { name: 'Second' } });
      await client.updateTranscriptionScenario({ path: { scenario_id: second.id }, body: { version: second.version, auto: true } });
      const moved = await client.getTranscriptionScenario({ path: { scenario_id: first.id } });
      assert.equal(moved.auto, false);
      assert.equal(moved.version, first.version + 1);
      // An editor still on the first scenario's old version would turn auto back on: refused.
      await rejectsWith(client.updateTranscriptionScenario({ path: { scenario_id: first.id }, body: { version: first.version, auto: true, name: 'First' } }), 409, 'scenario_changed');
      assert.equal((await client.getTranscriptionScenario({ path: { scenario_id: second.id } })).auto, true);
    });

    test('scenarios taking auto at once: each is answered, and one is automatic at the end', async () => {
      const made = await Promise.all(['A', 'B', 'C', 'D'].map((name) => client.createAnalysisScenario({ body: { name: `Race ${name}` } })));
      const taken = await Promise.all(made.map((scenario) => client.updateAnalysisScenario({ path: { scenario_id: scenario.id }, body: { auto: true } })));
      assert.equal(taken.length, 4);
      const automatic = (await client.listAnalysisScenarios()).data.filter((scenario) => scenario.auto);
      assert.equal(automatic.length, 1);
    });

    test('a version that is not a positive integer is a 400; an unknown scenario is a 404 before any version check', async () => {
      const created = await client.createAnalysisScenario({ body: { name: 'Checks' } });
      await rejectsWith(client.updateAnalysisScenario({ path: { scenario_id: created.id }, body: { version: 0 } }), 400, 'validation_failed');
      await rejectsWith(client.updateAnalysisScenario({ path: { scenario_id: 'sca-00000000-0000-4000-8000-000000000000' }, body: { version: 1 } }), 404, 'not_found');
    });
  });
}
