// Call analytics over HTTP on real recognised speech (flite voices, pocketsphinx): a stereo call
// transcribed per channel with speakers, talk statistics and named exports; speaker labels from
// metadata; phrase rules targeted at a speaker and a time window; search by speaker; a spoken card
// number and phone number redacted in the transcript and silenced in the audio.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { upload, waitForRecording } from './helpers/api.ts';
import { maxVolume, speech, stereoCall } from './helpers/audio.ts';
import { assertProblem, oneBackend, eventually, hasBlob, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

interface Segment {
  start: number;
  end: number;
  text: string;
  channel: number;
  speaker: string;
}
interface Transcript {
  text: string;
  segments: Segment[];
  words: (Omit<Segment, 'text'> & { word: string })[];
  stats: {
    speakers: { speaker: string; channel: number; talk_seconds: number; talk_ratio: number; words: number; words_per_minute: number; turns: number; longest_turn_seconds: number }[];
    silence_seconds: number;
    overlap_seconds: number;
    interruptions: number;
  };
  sentiment: { segments: number[]; speakers: { speaker: string; mean: number }[] };
}
interface Answer {
  question_id: string;
  answer: boolean | string;
  evidence: { text: string; start: number; end: number }[];
  speaker?: string;
  within_seconds?: number;
  method?: string;
}

// The agent greets and mentions the recording, the customer complains, the agent offers a refund.
const CALL = [
  { channel: 0 as const, at: 0.5, text: 'Hello, thank you for calling. This call is recorded for quality.' },
  { channel: 1 as const, at: 5.5, text: 'My card was charged twice for the same order.' },
  { channel: 0 as const, at: 10, text: 'I can refund that for you today.' },
];
const CALL_SECONDS = 14;

// The store plays no part in what this suite proves (audio, engines, HTTP shapes): one backend.
for (const backend of await oneBackend()) {
  describe(`call analytics on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    let callId: string;
    let callScenario: string;
    const call = stereoCall(CALL, CALL_SECONDS);
    const request = (method: 'GET' | 'POST', url: string, payload?: object) => hark.request({ method, url: `${P}${url}`, key: account.key, ...(payload ? { payload } : {}) });

    const transcribe = async (recordingId: string, scenarioId: string): Promise<Transcript> => {
      const started = await request('POST', `/recordings/${recordingId}/transcription-runs`, { transcription_scenario_id: scenarioId });
      assert.equal(started.statusCode, 202, started.body);
      const run = await eventually(async () => {
        const card = (await request('GET', `/transcription-runs/${started.json<{ id: string }>().id}`)).json<{ status: string; error_code: string | null }>();
        return ['completed', 'failed'].includes(card.status) ? card : null;
      }, 120_000, 'the transcription run');
      assert.equal(run.status, 'completed', String(run.error_code));
      return (await request('GET', `/transcription-runs/${started.json<{ id: string }>().id}/transcript`)).json<Transcript>();
    };
    const scenario = async (options: object): Promise<string> => {
      const created = await request('POST', '/transcription-scenarios', { name: `calls ${Math.random()}`, options });
      assert.equal(created.statusCode, 201, created.body);
      return created.json<{ id: string }>().id;
    };

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      callId = (await upload(hark, account, call, { fields: { metadata: JSON.stringify({ agent: 'sam', speakers: { 0: 'sam' } }) } })).json<{ id: string }>().id;
      callScenario = await scenario({ speaker_labels: { 0: 'agent', 1: 'customer' } });
    });
    after(() => hark.destroy());

    test('a stereo call is transcribed channel by channel: speakers, statistics and named exports', async () => {
      const recording = await waitForRecording(hark, account, callId, ['completed']);
      assert.equal(recording.channels, 2);
      const transcript = await transcribe(callId, callScenario);
      const said = (speaker: string) => transcript.words.filter((w) => w.speaker === speaker).map((w) => w.word);
      for (const word of ['thank', 'calling', 'recorded', 'refund']) assert.ok(said('agent').includes(word), `agent said "${word}": ${said('agent').join(' ')}`);
      for (const word of ['card', 'charged', 'order']) assert.ok(said('customer').includes(word), `customer said "${word}": ${said('customer').join(' ')}`);
      for (const word of ['refund', 'calling']) assert.ok(!said('customer').includes(word));
      assert.ok(!said('agent').includes('charged'));
      assert.ok(transcript.words.every((w) => (w.speaker === 'agent' ? w.channel === 0 : w.channel === 1)));
      // Merged in time order: agent, customer, agent.
      assert.deepEqual([...new Set(transcript.segments.map((s) => s.speaker))], ['agent', 'customer']);
      assert.deepEqual(transcript.segments.map((s) => s.start), [...transcript.segments.map((s) => s.start)].sort((a, b) => a - b));
      assert.match(transcript.text, /^agent: .*calling.*\ncustomer: .*charged.*\nagent: .*refund/);

      const { stats } = transcript;
      assert.deepEqual(stats.speakers.map((s) => s.speaker), ['agent', 'customer']);
      const [agent, customer] = stats.speakers;
      assert.ok(agent && customer);
      assert.ok(agent.talk_seconds > customer.talk_seconds && customer.talk_seconds > 1, JSON.stringify(stats));
      assert.ok(Math.abs(agent.talk_ratio + customer.talk_ratio - 1) < 0.01);
      assert.equal(agent.turns, 2);
      assert.equal(customer.turns, 1);
      assert.ok(agent.words >= 15 && customer.words >= 8 && customer.words_per_minute > 60, JSON.stringify(stats));
      assert.ok(stats.silence_seconds > 2 && stats.silence_seconds < CALL_SECONDS - 7, JSON.stringify(stats));
      assert.equal(stats.overlap_seconds, 0);
      assert.equal(stats.interruptions, 0);

      const srt = (await request('GET', `/recordings/${callId}/transcript?format=srt`)).body;
      assert.match(srt, /^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\nagent: Hello thank you for calling/);
      assert.match(srt, /\ncustomer: My card was charged/);
      const txt = (await request('GET', `/recordings/${callId}/transcript?format=txt`)).body;
      assert.deepEqual(txt.trim().split('\n').map((line) => line.split(':')[0]), ['agent', 'customer', 'agent']);
    });

    test('speaker labels come from a metadata field the scenario names; "mix" keeps one speaker', async () => {
      await waitForRecording(hark, account, callId, ['completed']);
      const byMetadata = await transcribe(callId, await scenario({ speaker_labels: { 0: 'agent', 1: 'customer' }, speaker_labels_field: 'speakers' }));
      assert.deepEqual([...new Set(byMetadata.segments.map((s) => s.speaker))], ['sam', 'customer']);
      const mixed = await transcribe(callId, await scenario({ channels: 'mix' }));
      assert.deepEqual([...new Set(mixed.segments.map((s) => `${s.channel}/${s.speaker}`))], ['0/channel_0']);
      assert.doesNotMatch(mixed.text, /channel_0:/);
      assert.ok(/calling/.test(mixed.text) && /charged/.test(mixed.text));
    });

    test('phrase rules and questions targeted at a speaker and at the first seconds', async () => {
      await waitForRecording(hark, account, callId, ['completed']);
      await transcribe(callId, callScenario);
      const questions = [
        { id: 'notice', text: 'Did the agent say the call is recorded?', type: 'boolean', phrases: ['this call is recorded', 'call may be recorded'], speaker: 'agent', within_seconds: 10 },
        { id: 'agent_charged', text: 'Did the agent mention a charge?', type: 'boolean', phrases: ['card was charged'], speaker: 'agent' },
        { id: 'customer_charged', text: 'Did the customer mention a charge?', type: 'boolean', phrases: ['card was charged'], speaker: 'customer' },
        { id: 'early_refund', text: 'Was a refund offered in the first 8 seconds?', type: 'boolean', phrases: ['refund'], within_seconds: 8 },
        { id: 'refund', text: 'Was a refund offered?', type: 'boolean', phrases: ['refund that for you'] },
        { id: 'ask', text: 'What did the customer ask for?', type: 'text', speaker: 'customer' },
      ];
      const created = await request('POST', '/analysis-scenarios', { name: 'compliance', questions });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(created.json<{ questions: object[] }>().questions, questions);
      const started = await request('POST', `/recordings/${callId}/analysis-runs`, { analysis_scenario_id: created.json<{ id: string }>().id });
      assert.equal(started.statusCode, 202, started.body);
      const runId = started.json<{ id: string }>().id;
      await eventually(async () => (await request('GET', `/analysis-runs/${runId}`)).json<{ status: string }>().status === 'completed', 60_000, 'the analysis run');
      const { answers } = (await request('GET', `/recordings/${callId}/analysis-results/${runId}`)).json<{ answers: Answer[] }>();
      const answer = (id: string) => answers.find((a) => a.question_id === id) as Answer;
      assert.equal(answer('notice').answer, true);
      const [notice] = answer('notice').evidence;
      assert.ok(notice && notice.start > 2 && notice.end < 5.5, JSON.stringify(notice));
      assert.match(notice.text, /call (is|his) recorded/);
      assert.equal(answer('agent_charged').answer, false);
      assert.deepEqual(answer('agent_charged').evidence, []);
      assert.equal(answer('customer_charged').answer, true);
      assert.ok((answer('customer_charged').evidence[0]?.start ?? 0) > 5.5);
      assert.equal(answer('early_refund').answer, false);
      assert.equal(answer('refund').answer, true);
      assert.ok((answer('refund').evidence[0]?.start ?? 0) > 10);
      // A model's answer about the customer rests only on what the customer said.
      assert.equal(typeof answer('ask').answer, 'string');
      for (const evidence of answer('ask').evidence) assert.ok(evidence.start >= 5.5 && evidence.end <= 9, JSON.stringify(evidence));
      // Each answer says what part of the call it read, and how it was reached.
      assert.deepEqual(
        answers.map(({ question_id, speaker, within_seconds, method }) => ({ question_id, speaker, within_seconds, method })),
        questions.map((q) => ({ question_id: q.id, speaker: q.speaker, within_seconds: q.within_seconds, method: q.phrases ? 'phrases' : 'engine' })),
      );
    });

    test('search finds what one speaker said, filtered by speaker', async () => {
      await waitForRecording(hark, account, callId, ['completed']);
      await transcribe(callId, callScenario);
      const hits = (query: string) => request('GET', `/search?${query}`).then((r) => r.json<{ data: { recording_id: string; speaker: string; start: number }[] }>().data);
      const customer = await hits('q=charged&speaker=customer');
      assert.ok(customer.length > 0 && customer.every((h) => h.speaker === 'customer' && h.recording_id === callId && h.start > 5));
      assert.deepEqual(await hits('q=charged&speaker=agent'), []);
      assert.ok((await hits('q=refund&speaker=agent')).length > 0);
    });

    test('a spoken card number and phone number are redacted in the transcript and silenced in the audio', async () => {
      const source = speech('My card number is four one one one, one one one one, one one one one, one one one one. And my phone number is five five five, one two three, four five six seven.');
      const id = (await upload(hark, account, source)).json<{ id: string }>().id;
      await waitForRecording(hark, account, id, ['completed']);
      const redacting = await scenario({ redact: ['credit_card', 'phone_number'], redact_audio: true, keep_original_audio: false });
      const transcript = await transcribe(id, redacting);
      assert.match(transcript.text, /\[CREDIT_CARD\].*\[PHONE_NUMBER\]/);
      assert.doesNotMatch(JSON.stringify(transcript), /(one|five) (one|five) (one|five)|four five six/);
      const markers = transcript.words.filter((w) => w.word.startsWith('['));
      assert.deepEqual(markers.map((w) => w.word), ['[CREDIT_CARD]', '[PHONE_NUMBER]']);
      assert.ok(transcript.segments.some((s) => s.text.includes('[CREDIT_CARD]')));

      const card = (await request('GET', `/recordings/${id}`)).json<{ audio_redacted_at: string | null; original_audio_deleted_at: string | null }>();
      assert.ok(card.audio_redacted_at && card.original_audio_deleted_at);
      // The original goes right after the completion commits.
      await eventually(async () => !(await hasBlob(hark, `recordings/${account.workspaceId}/${id}/original`)), 10_000, 'the original to be deleted');
      const audio = await request('GET', `/recordings/${id}/audio`);
      assert.equal(audio.statusCode, 200);
      assert.equal(audio.headers['content-type'], 'audio/wav');
      const fs = await import('node:fs');
      const served = `${source}.served.wav`;
      fs.writeFileSync(served, audio.rawPayload);
      for (const marker of markers) {
        assert.ok(maxVolume(source, marker.start, marker.end) > -30, 'the source is loud there');
        assert.ok(maxVolume(served, marker.start, marker.end) < -80, `${marker.word} is silenced at ${marker.start}-${marker.end}: ${maxVolume(served, marker.start, marker.end)} dB`);
      }
      assert.ok(maxVolume(served, 0, Math.max(0.5, (markers[0]?.start ?? 1) - 0.2)) > -30, 'the rest is still heard');

      // A later redaction of other kinds starts from the redacted audio: the card stays silent.
      await transcribe(id, await scenario({ redact: ['email'], redact_audio: true }));
      const again = `${source}.again.wav`;
      fs.writeFileSync(again, (await request('GET', `/recordings/${id}/audio`)).rawPayload);
      for (const marker of markers) assert.ok(maxVolume(again, marker.start, marker.end) < -80, `${marker.word} stays silenced`);

      // Analysis reads the redacted transcript only.
      const questions = [{ id: 'card', text: 'Was a card number given?', type: 'boolean', phrases: ['four one one one'] }];
      const analysis = await request('POST', '/analysis-scenarios', { name: 'card rule', questions });
      const started = await request('POST', `/recordings/${id}/analysis-runs`, { analysis_scenario_id: analysis.json<{ id: string }>().id });
      const runId = started.json<{ id: string }>().id;
      await eventually(async () => (await request('GET', `/analysis-runs/${runId}`)).json<{ status: string }>().status === 'completed', 60_000, 'the analysis run');
      const result = (await request('GET', `/recordings/${id}/analysis-results/${runId}`)).json<{ answers: Answer[] }>();
      assert.equal(result.answers[0]?.answer, false);
    });

    test('the Call QA template in one step: speakers labelled, questions answered on the call; card numbers redacted by default', async () => {
      const other = await registerAccount(hark);
      const Q = `/api/v1/workspaces/${other.workspaceId}`;
      const ask = (method: 'GET' | 'POST', url: string, payload?: object) => hark.request({ method, url: `${Q}${url}`, key: other.key, ...(payload ? { payload } : {}) });
      const templates = (await ask('GET', '/analysis-scenario-templates')).json<{ data: { id: string; questions: { id: string }[] }[] }>().data;
      assert.deepEqual(templates.map((t) => t.id), ['call_qa']);
      const defaultScenario = (await ask('GET', '/transcription-scenarios')).json<{ data: { id: string; options: { redact: string[]; speaker_labels: Record<string, string> } }[] }>().data[0]!;
      assert.deepEqual(defaultScenario.options.redact, ['credit_card'], 'a new workspace redacts card numbers');
      assert.deepEqual(defaultScenario.options.speaker_labels, {});
      const added = await ask('POST', '/analysis-scenarios/from-template', { template: 'call_qa' });
      assert.equal(added.statusCode, 201, added.body);
      const qa = added.json<{ id: string; name: string; labelled_transcription_scenario_id: string; questions: { id: string }[] }>();
      assert.equal(qa.name, 'Call QA');
      assert.equal(qa.labelled_transcription_scenario_id, defaultScenario.id);
      assert.deepEqual(qa.questions.map((q) => q.id), ['greeting', 'recording_notice', 'refund_offered', 'call_reason']);
      const labelled = (await ask('GET', `/transcription-scenarios/${defaultScenario.id}`)).json<{ options: { speaker_labels: Record<string, string> } }>();
      assert.deepEqual(labelled.options.speaker_labels, { 0: 'agent', 1: 'customer' });
      assertProblem(await ask('POST', '/analysis-scenarios/from-template', { template: 'nope' }), 400, 'validation_failed');

      const id = (await upload(hark, other, call)).json<{ id: string }>().id;
      await waitForRecording(hark, other, id, ['completed']);
      const run = (await ask('POST', `/recordings/${id}/transcription-runs`)).json<{ id: string }>();
      await eventually(async () => (await ask('GET', `/transcription-runs/${run.id}`)).json<{ status: string }>().status === 'completed', 120_000, 'transcribed');
      const analysis = (await ask('POST', `/recordings/${id}/analysis-runs`, { analysis_scenario_id: qa.id })).json<{ id: string }>();
      await eventually(async () => (await ask('GET', `/analysis-runs/${analysis.id}`)).json<{ status: string }>().status === 'completed', 120_000, 'analysed');
      const answers = (await ask('GET', `/recordings/${id}/analysis-results/${analysis.id}`)).json<{ answers: Answer[] }>().answers;
      const byId = Object.fromEntries(answers.map((a) => [a.question_id, a]));
      assert.equal(byId.greeting!.answer, true, JSON.stringify(byId.greeting));
      assert.ok(byId.greeting!.evidence[0]!.start < 15);
      assert.equal(byId.recording_notice!.answer, true, JSON.stringify(byId.recording_notice));
      assert.equal(byId.refund_offered!.answer, true, JSON.stringify(byId.refund_offered));
      assert.equal(typeof byId.call_reason!.answer, 'string');
    });

    test('the talk report averages talk statistics per metadata field and week, in JSON and CSV', async () => {
      await waitForRecording(hark, account, callId, ['completed']);
      const latest = await transcribe(callId, callScenario);
      const report = (await request('GET', '/reports/talk?group_by=metadata.agent&group_by=created_at:week&metadata.agent=sam')).json<{
        groups: { key: Record<string, string>; transcripts: number; silence_seconds_avg: number; speakers: { speaker: string; talk_ratio_avg: number; talk_seconds_avg: number; sentiment_avg: number | null }[] }[];
      }>();
      assert.equal(report.groups.length, 1);
      const [group] = report.groups;
      assert.equal(group?.key['metadata.agent'], 'sam');
      assert.match(group?.key['created_at:week'] ?? '', /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(group?.transcripts, 1);
      assert.equal(group?.silence_seconds_avg, latest.stats.silence_seconds);
      assert.deepEqual(
        group?.speakers.map((s) => [s.speaker, s.talk_ratio_avg, s.talk_seconds_avg]),
        latest.stats.speakers.map((s) => [s.speaker, s.talk_ratio, s.talk_seconds]),
      );
      // Sentiment per speaker: one call, so the call's own means.
      assert.deepEqual(
        group?.speakers.map((s) => [s.speaker, s.sentiment_avg]),
        latest.sentiment.speakers.map((s) => [s.speaker, s.mean]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      const csv = await hark.request({ method: 'GET', url: `${P}/reports/talk?group_by=metadata.agent&metadata.agent=sam`, key: account.key, headers: { accept: 'text/csv' } });
      assert.match(csv.headers['content-type'] as string, /^text\/csv/);
      const [header, row] = csv.body.trim().split('\n');
      assert.match(header ?? '', /^metadata\.agent,transcripts,silence_seconds_avg,overlap_seconds_avg,interruptions_avg,agent\.talk_share,agent\.talk_ratio_avg,.*agent\.sentiment_avg,customer\.talk_share/);
      assert.match(row ?? '', /^sam,1,/);
      // Over every call of the workspace (speakers named differently from call to call), each
      // group's shares of the talk add up to 1.
      const all = (await request('GET', '/reports/talk')).json<{ groups: { transcripts: number; speakers: { talk_share: number }[] }[] }>();
      for (const g of all.groups) assert.ok(Math.abs(g.speakers.reduce((sum, s) => sum + s.talk_share, 0) - 1) < 0.01, JSON.stringify(g));
    });

    test("a question's examples: sentences that mean yes, read beside its wording by the basic engine", async () => {
      await waitForRecording(hark, account, callId, ['completed']);
      await transcribe(callId, callScenario);
      const text = 'Did the agent offer to give the money back?';
      const questions = [
        { id: 'plain', text, type: 'boolean' },
        { id: 'with_examples', text, type: 'boolean', examples: ['We can refund that for you.', 'I will send you a new one.'] },
      ];
      const created = await request('POST', '/analysis-scenarios', { name: 'examples', questions });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(created.json<{ questions: object[] }>().questions, questions);
      const started = await request('POST', `/recordings/${callId}/analysis-runs`, { analysis_scenario_id: created.json<{ id: string }>().id });
      const runId = started.json<{ id: string }>().id;
      await eventually(async () => (await request('GET', `/analysis-runs/${runId}`)).json<{ status: string }>().status === 'completed', 60_000, 'the analysis run');
      const { answers } = (await request('GET', `/recordings/${callId}/analysis-results/${runId}`)).json<{ answers: Answer[] }>();
      const answer = (id: string) => answers.find((a) => a.question_id === id) as Answer;
      // The call never says "money back": the wording alone finds nothing; the example finds the offer.
      assert.equal(answer('plain').answer, false);
      assert.deepEqual(answer('plain').evidence, []);
      assert.equal(answer('with_examples').answer, true);
      assert.match(answer('with_examples').evidence[0]?.text ?? '', /refund/);
      assert.ok((answer('with_examples').evidence[0]?.start ?? 0) > 9, JSON.stringify(answer('with_examples').evidence));
    });

    test('bad options and questions are 400s that create nothing', async () => {
      const before = (await request('GET', '/transcription-scenarios')).json<{ data: unknown[] }>().data.length;
      assertProblem(await request('POST', '/transcription-scenarios', { options: { redact_audio: true } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/transcription-scenarios', { options: { redact: ['passport'] } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/transcription-scenarios', { options: { channels: 'stereo' } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/transcription-scenarios', { options: { speaker_labels: { 9: 'agent' } } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/transcription-scenarios', { options: { keep_original_audio: false } }), 400, 'validation_failed');
      assert.equal((await request('GET', '/transcription-scenarios')).json<{ data: unknown[] }>().data.length, before);
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'What?', type: 'text', phrases: ['hello'] }] }), 400, 'validation_failed');
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'Said?', type: 'boolean', phrases: [] }] }), 400, 'validation_failed');
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'Said?', type: 'boolean', within_seconds: -1 }] }), 400, 'validation_failed');
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'What?', type: 'text', examples: ['a refund'] }] }), 400, 'validation_failed');
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'Said?', type: 'boolean', examples: [' ?! '] }] }), 400, 'validation_failed');
      assertProblem(await request('POST', '/analysis-scenarios', { name: 'x', questions: [{ text: 'Said?', type: 'boolean', examples: Array.from({ length: 11 }, (_, i) => `example ${i}`) }] }), 400, 'validation_failed');
    });
  });
}
