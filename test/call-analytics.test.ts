// Call analytics over HTTP on real recognised speech (flite voices, pocketsphinx), through the
// shipped TypeScript client: a stereo call transcribed per channel with speakers, talk statistics
// and named exports; speaker labels from metadata; phrase rules targeted at a speaker and a time
// window; search by speaker; a spoken card number and phone number redacted in the transcript and
// silenced in the audio. Exports, audio bytes and CSV (media types, raw bodies) are asked for by hand.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient, Schemas } from '../clients/typescript/src/index.ts';
import { transcriptionEnds } from './helpers/api.ts';
import { dithered, maxVolume, speech, stereoCall } from './helpers/audio.ts';
import { oneBackend, eventually, hasBlob, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';

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
    let client: HarkClient;
    let P: string;
    let callId: string;
    let callScenario: string;
    const call = stereoCall(CALL, CALL_SECONDS);
    // Every answer the client receives is checked against openapi.json, where 201 (scenarios) and
    // 202 (runs) are the only success statuses documented: a creation answered otherwise fails there.

    /** The scenario of the call's latest transcript: a test that needs callScenario's transcribes only where another came since. */
    let callLatest: string | null = null;
    /** Transcribes a recording with a scenario; the run must complete. */
    const transcribe = async (recordingId: string, scenarioId: string) => {
      const started = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: { transcription_scenario_id: scenarioId } });
      const run = await transcriptionEnds(client, started.id, 120_000);
      assert.equal(run.status, 'completed', String(run.error_code));
      if (recordingId === callId) callLatest = scenarioId;
      return client.getRunTranscript({ path: { run_id: started.id } });
    };
    /** The call's latest transcript, made by callScenario (transcribed now unless it already was). */
    const callTranscript = async () => {
      await client.waitForRecording(callId);
      return callLatest === callScenario ? client.getRecordingTranscript({ path: { recording_id: callId } }) : transcribe(callId, callScenario);
    };
    const scenario = async (options: Partial<Schemas['TranscriptionScenario']['options']>): Promise<string> =>
      (await client.createTranscriptionScenario({ body: { name: `calls ${Math.random()}`, options } })).id;
    /** Analyses a recording with a scenario; its result once the run has completed, read under the recording. */
    const analyse = async (on: HarkClient, recordingId: string, scenarioId: string, timeoutMs: number, what: string) => {
      const { id: runId } = await on.createAnalysisRun({ path: { recording_id: recordingId }, body: { analysis_scenario_id: scenarioId } });
      await eventually(async () => (await on.getAnalysisRun({ path: { run_id: runId } })).status === 'completed', timeoutMs, what);
      return on.getAnalysisResult({ path: { recording_id: recordingId, run_id: runId } });
    };

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      callId = (await client.upload(call, { metadata: { agent: 'sam', speakers: { 0: 'sam' } } })).id;
      callScenario = await scenario({ speaker_labels: { 0: 'agent', 1: 'customer' } });
    });
    after(() => hark.destroy());

    test('a stereo call is transcribed channel by channel: speakers, statistics and named exports', async () => {
      const recording = await client.waitForRecording(callId);
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

      // The exports are HTTP shapes (a body that is not JSON): asked for by hand.
      const srt = (await hark.request({ method: 'GET', url: `${P}/recordings/${callId}/transcript?format=srt`, key: account.key })).body;
      assert.match(srt, /^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\nagent: Hello, thank you for calling\. This call/);
      assert.match(srt, /\ncustomer: My card was charged/);
      const txt = (await hark.request({ method: 'GET', url: `${P}/recordings/${callId}/transcript?format=txt`, key: account.key })).body;
      assert.deepEqual(txt.trim().split('\n').map((line) => line.split(':')[0]), ['agent', 'customer', 'agent']);
    });

    test('speaker labels come from a metadata field the scenario names; "mix" keeps one speaker', async () => {
      await client.waitForRecording(callId);
      const byMetadata = await transcribe(callId, await scenario({ speaker_labels: { 0: 'agent', 1: 'customer' }, speaker_labels_field: 'speakers' }));
      assert.deepEqual([...new Set(byMetadata.segments.map((s) => s.speaker))], ['sam', 'customer']);
      const mixed = await transcribe(callId, await scenario({ channels: 'mix' }));
      assert.deepEqual([...new Set(mixed.segments.map((s) => `${s.channel}/${s.speaker}`))], ['0/channel_0']);
      assert.doesNotMatch(mixed.text, /channel_0:/);
      assert.ok(/calling/.test(mixed.text) && /charged/.test(mixed.text));
    });

    test('a stereo file whose two channels carry one signal (dual mono) is one channel: every word once', async () => {
      const mono = speech('Thank you for calling, my parcel never arrived.');
      const dual = path.join(os.tmpdir(), `dual-mono-${process.pid}.mp3`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', mono, '-ac', '2', dual]);
      const { id } = await client.upload(dual);
      const card = await client.waitForRecording(id);
      assert.equal(card.channels, 1, 'the channels are alike');
      const transcript = await transcribe(id, callScenario);
      assert.deepEqual([...new Set(transcript.segments.map((s) => s.channel))], [0]);
      assert.equal(transcript.stats.overlap_seconds, 0, 'no one talks over themselves');
      fs.rmSync(dual, { force: true });
    });

    test("a channel's silence that carries a recorder's dither is heard as silence: no words, turns or interruptions in it", async () => {
      // The customer (flite's kal voice) speaks three times; between, the channel holds dither of a
      // step either side of zero, as recorders write silence. pocketsphinx filled such stretches with
      // a word seconds long ("up" from 18 s to 26 s) and lost the words beside them.
      const utterances = [
        { channel: 0 as const, at: 0.5, text: 'Thank you for calling, this is Sam. How can I help you today?' },
        { channel: 1 as const, at: 5, text: 'I was billed twice for my order last week.', voice: 'kal' as const },
        { channel: 0 as const, at: 9, text: 'I am sorry about that. Can you give me your order number please?' },
        { channel: 1 as const, at: 14, text: 'Sure, it is four five seven two nine.', voice: 'kal' as const },
        { channel: 0 as const, at: 18, text: 'Thanks. I have refunded the duplicate payment. You will see it in three to five business days.' },
        { channel: 1 as const, at: 26, text: 'Thank you very much, goodbye.', voice: 'kal' as const },
      ];
      const { id } = await client.upload(dithered(stereoCall(utterances, 30)));
      await client.waitForRecording(id);
      const transcript = await transcribe(id, callScenario);
      const customer = transcript.words.filter((w) => w.speaker === 'customer');
      const heard = customer.map((w) => `${w.word}@${w.start}-${w.end}`).join(' ');
      // The agent alone talks from 9 to 13 s and from 18 to 23.5 s.
      for (const [from, to] of [[9, 13], [18, 23.5]] as const) assert.ok(customer.every((w) => w.end <= from || w.start >= to), `nothing heard from the customer between ${from} and ${to} s: ${heard}`);
      assert.ok(customer.every((w) => w.end - w.start < 1.5), heard);
      assert.equal(transcript.stats.speakers.find((s) => s.speaker === 'customer')?.turns, 3, heard);
      assert.equal(transcript.stats.interruptions, 0, heard);
      assert.equal(transcript.stats.overlap_seconds, 0, heard);
      for (const word of ['order', 'thank', 'much']) assert.ok(customer.some((w) => w.word === word), `customer said "${word}": ${heard}`);
    });

    test('a mono call is not given the channels\' names: a question about one speaker reads everyone, uncertain', async () => {
      const line = `mono-${Math.random()}`;
      const mono = (await client.upload(speech('Thank you for calling. I would like a refund for my order, please.'), { metadata: { line } })).id;
      await client.waitForRecording(mono);
      const mixed = await transcribe(mono, await scenario({ speaker_labels: { 0: 'agent', 1: 'customer' } }));
      assert.deepEqual([...new Set(mixed.segments.map((s) => s.speaker))], ['channel_0'], 'the customer\'s words are not the agent\'s');
      const asked = await client.createAnalysisScenario({
        body: { name: `mono ${Math.random()}`, summary: false, questions: [{ id: 'greeting', text: 'Did the agent thank the customer for calling?', type: 'boolean', speaker: 'agent', phrases: ['thank you for calling'] }, { id: 'anyone', text: 'Was a refund asked for?', type: 'boolean', phrases: ['refund'] }] },
      });
      const result = await analyse(client, mono, asked.id, 60_000, 'the mono analysis');
      const [greeting, anyone] = [result.answers[0]!, result.answers[1]!];
      assert.equal(greeting.answer, true, 'read from everyone\'s words');
      assert.equal(greeting.speaker, undefined, 'the answer does not claim the agent said it');
      assert.equal(greeting.speaker_not_found, 'agent', 'and says whom it could not find');
      assert.ok(greeting.confidence < 0.6, `uncertain: ${greeting.confidence}`);
      assert.equal(anyone.answer, true);
      assert.equal(anyone.speaker_not_found, undefined);
      assert.ok(anyone.confidence >= 0.6, 'a question about anyone keeps its confidence');
      // Reports name its one speaker as everyone on a one-channel call, not as the left channel of stereo calls.
      const talk = await client.getTalkReport({ query: { 'metadata.line': line } });
      assert.deepEqual(talk.groups[0]?.speakers.map((s) => [s.speaker, s.talk_share]), [['one_channel', 1]]);
      const moods = await client.getAnalysisReport({ query: { analysis_scenario_id: asked.id, 'metadata.line': line, sentiment: true } });
      assert.deepEqual(moods.groups[0]?.sentiment?.map((s) => s.speaker), ['one_channel']);
    });

    test('a stereo call transcribed before its channels were named: a question about the agent reads everyone, uncertain, instead of a sure no', async () => {
      const line = `stereo-${Math.random()}`;
      const earlier = (await client.upload(call, { metadata: { line } })).id;
      await client.waitForRecording(earlier);
      const unnamed = await transcribe(earlier, await scenario({}));
      assert.deepEqual([...new Set(unnamed.segments.map((s) => s.speaker))].sort(), ['channel_0', 'channel_1']);
      assert.deepEqual((await client.getTalkReport({ query: { 'metadata.line': line } })).groups[0]?.speakers.map((s) => s.speaker), ['channel_0', 'channel_1'], 'a stereo call keeps its channels');
      // A transcript stored before `sound` was measured goes by the recording's channels.
      await hark.runtime.ctx.db.updateTable('transcripts').set({ sound: null }).where('recording_id', '=', earlier).execute();
      assert.deepEqual((await client.getTalkReport({ query: { 'metadata.line': line } })).groups[0]?.speakers.map((s) => s.speaker), ['channel_0', 'channel_1'], 'an older stereo transcript keeps its channels');
      const asked = await client.createAnalysisScenario({
        body: { name: `earlier ${Math.random()}`, summary: false, questions: [{ id: 'greeting', text: 'Did the agent thank the customer for calling?', type: 'boolean', speaker: 'agent', phrases: ['thank you for calling'] }] },
      });
      const greeting = (await analyse(client, earlier, asked.id, 60_000, 'the earlier call\'s analysis')).answers[0]!;
      assert.equal(greeting.answer, true, 'the greeting was said, by whoever');
      assert.equal(greeting.speaker_not_found, 'agent');
      assert.ok(greeting.uncertain);
      // Named channels where the agent said nothing: no, and sure of it.
      const named = await client.createAnalysisScenario({
        body: { name: `named ${Math.random()}`, summary: false, questions: [{ id: 'supervisor', text: 'Did the supervisor thank the customer for calling?', type: 'boolean', speaker: 'supervisor', phrases: ['thank you for calling'] }] },
      });
      await callTranscript();
      // The calls to transcribe again are found: two speakers or more, none of them the agent (in any case).
      const missing = (await client.listRecordings({ query: { missing_speaker: 'Agent', limit: 200 } })).data.map((r) => r.id);
      assert.ok(missing.includes(earlier), 'the call transcribed before its channels were named');
      assert.ok(!missing.includes(callId), 'not a call whose transcript names the agent');
      assert.deepEqual((await client.listRecordings({ query: { missing_speaker: 'channel_0', limit: 200 } })).data.map((r) => r.id).filter((id) => id === earlier), [], 'a speaker the call has');
      const supervisor = (await analyse(client, callId, named.id, 60_000, 'the named call\'s analysis')).answers[0]!;
      assert.deepEqual([supervisor.answer, supervisor.speaker, supervisor.speaker_not_found], [false, 'supervisor', undefined]);
      // A speaker written in another case is the transcript's.
      const cased = await client.createAnalysisScenario({
        body: { name: `cased ${Math.random()}`, summary: false, questions: [{ id: 'greeting', text: 'Did the agent thank the customer for calling?', type: 'boolean', speaker: 'Agent', phrases: ['thank you for calling'] }] },
      });
      const agent = (await analyse(client, callId, cased.id, 60_000, 'the cased analysis')).answers[0]!;
      assert.deepEqual([agent.answer, agent.speaker, agent.speaker_not_found, agent.uncertain], [true, 'agent', undefined, false]);
    });

    test('phrase rules and questions targeted at a speaker and at the first seconds', async () => {
      await callTranscript();
      const questions: Schemas['AnalysisScenario']['questions'] = [
        { id: 'notice', text: 'Did the agent say the call is recorded?', type: 'boolean', phrases: ['this call is recorded', 'call may be recorded'], speaker: 'agent', within_seconds: 10 },
        { id: 'agent_charged', text: 'Did the agent mention a charge?', type: 'boolean', phrases: ['card was charged'], speaker: 'agent' },
        { id: 'customer_charged', text: 'Did the customer mention a charge?', type: 'boolean', phrases: ['card was charged'], speaker: 'customer' },
        { id: 'early_refund', text: 'Was a refund offered in the first 8 seconds?', type: 'boolean', phrases: ['refund'], within_seconds: 8 },
        { id: 'refund', text: 'Was a refund offered?', type: 'boolean', phrases: ['refund that for you'] },
        { id: 'ask', text: 'What did the customer ask for?', type: 'text', speaker: 'customer' },
      ];
      const created = await client.createAnalysisScenario({ body: { name: 'compliance', questions } });
      assert.deepEqual(created.questions, questions);
      const { answers } = await analyse(client, callId, created.id, 60_000, 'the analysis run');
      const answer = (id: string) => answers.find((a) => a.question_id === id)!;
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
        answers.map(({ question_id, speaker, within_seconds, method, phrases }) => ({ question_id, speaker, within_seconds, method, phrases })),
        questions.map((q) => ({ question_id: q.id, speaker: q.speaker, within_seconds: q.within_seconds, method: q.phrases ? 'phrases' : 'engine', phrases: q.phrases })),
      );
      // A rule's No names what it looked for: no evidence is no proof of it.
      assert.equal(answer('agent_charged').answer, false);
      assert.deepEqual(answer('agent_charged').phrases, ['card was charged']);
    });

    test('search finds what one speaker said, filtered by speaker', async () => {
      await callTranscript();
      const hits = async (q: string, speaker: string) => (await client.searchTranscripts({ query: { q, speaker } })).data;
      const customer = await hits('charged', 'customer');
      assert.ok(customer.length > 0 && customer.every((h) => h.speaker === 'customer' && h.recording_id === callId && h.start > 5), JSON.stringify(customer));
      assert.deepEqual(await hits('charged', 'agent'), []);
      assert.ok((await hits('refund', 'agent')).length > 0);
    });

    test('a spoken card number and phone number are redacted in the transcript and silenced in the audio', async () => {
      const source = speech('My card number is four one one one, one one one one, one one one one, one one one one. And my phone number is five five five, one two three, four five six seven.');
      const { id } = await client.upload(source);
      await client.waitForRecording(id);
      const redacting = await scenario({ redact: ['credit_card', 'phone_number'], redact_audio: true, keep_original_audio: false });
      const transcript = await transcribe(id, redacting);
      assert.match(transcript.text, /\[CREDIT_CARD\].*\[PHONE_NUMBER\]/);
      assert.doesNotMatch(JSON.stringify(transcript), /(one|five) (one|five) (one|five)|four five six/);
      const markers = transcript.words.filter((w) => w.word.startsWith('['));
      assert.deepEqual(markers.map((w) => w.word), ['[CREDIT_CARD]', '[PHONE_NUMBER]']);
      assert.ok(transcript.segments.some((s) => s.text.includes('[CREDIT_CARD]')));

      const card = await client.getRecording({ path: { recording_id: id } });
      assert.ok(card.audio_redacted_at && card.original_audio_deleted_at);
      // The original goes right after the completion commits.
      await eventually(async () => !(await hasBlob(hark, `recordings/${account.workspaceId}/${id}/original`)), 10_000, 'the original to be deleted');
      // The audio is an HTTP shape (its status, its media type, its bytes): asked for by hand.
      const audio = await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key });
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
      fs.writeFileSync(again, (await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key })).rawPayload);
      for (const marker of markers) assert.ok(maxVolume(again, marker.start, marker.end) < -80, `${marker.word} stays silenced`);

      // Analysis reads the redacted transcript only.
      const analysis = await client.createAnalysisScenario({ body: { name: 'card rule', questions: [{ id: 'card', text: 'Was a card number given?', type: 'boolean', phrases: ['four one one one'] }] } });
      const result = await analyse(client, id, analysis.id, 60_000, 'the analysis run');
      assert.equal(result.answers[0]?.answer, false);
    });

    test('the Call QA template in one step: speakers labelled, questions answered on the call; card numbers redacted by default', async () => {
      const other = hark.client((await registerAccount(hark)).key);
      const templates = (await other.listAnalysisScenarioTemplates()).data;
      assert.deepEqual(templates.map((t) => t.id), ['call_qa']);
      const defaultScenario = (await other.listTranscriptionScenarios()).data[0]!;
      assert.deepEqual(defaultScenario.options.redact, ['credit_card'], 'a new workspace redacts card numbers');
      assert.deepEqual(defaultScenario.options.speaker_labels, {});
      const qa = await other.createAnalysisScenarioFromTemplate({ body: { template: 'call_qa' } });
      assert.equal(qa.name, 'Call QA');
      assert.equal(qa.labelled_transcription_scenario_id, defaultScenario.id);
      assert.deepEqual(qa.questions.map((q) => q.id), ['greeting', 'recording_notice', 'refund_offered', 'call_reason']);
      const labelled = await other.getTranscriptionScenario({ path: { scenario_id: defaultScenario.id } });
      assert.deepEqual(labelled.options.speaker_labels, { 0: 'agent', 1: 'customer' });
      await rejectsWith(other.createAnalysisScenarioFromTemplate({ body: { template: 'nope' } }), 400, 'validation_failed');
      const twice = await other.createAnalysisScenarioFromTemplate({ body: { template: 'call_qa' } });
      assert.equal(twice.name, 'Call QA 2', 'added twice, told apart by name');
      assert.equal(twice.labelled_transcription_scenario_id, null, 'the speakers were named already');
      await other.deleteAnalysisScenario({ path: { scenario_id: twice.id } });

      const { id } = await other.upload(call);
      await other.waitForRecording(id);
      const run = await other.createTranscriptionRun({ path: { recording_id: id } });
      assert.equal((await transcriptionEnds(other, run.id, 120_000)).status, 'completed', 'transcribed');
      const { answers } = await analyse(other, id, qa.id, 120_000, 'analysed');
      const byId = Object.fromEntries(answers.map((a) => [a.question_id, a]));
      assert.equal(byId.greeting!.answer, true, JSON.stringify(byId.greeting));
      assert.ok(byId.greeting!.evidence[0]!.start < 15);
      assert.equal(byId.recording_notice!.answer, true, JSON.stringify(byId.recording_notice));
      assert.equal(byId.refund_offered!.answer, true, JSON.stringify(byId.refund_offered));
      assert.equal(typeof byId.call_reason!.answer, 'string');
    });

    test('the talk report averages talk statistics per metadata field and week, in JSON and CSV', async () => {
      const latest = await callTranscript();
      const report = await client.getTalkReport({ query: { group_by: ['metadata.agent', 'created_at:week'], 'metadata.agent': 'sam' } });
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
      // The analysis report, asked for sentiment, gives the same per speaker over the transcripts its results analysed.
      const asked = await client.createAnalysisScenario({ body: { name: `refunds ${Math.random()}`, questions: [{ id: 'refund', text: 'Was a refund offered?', type: 'boolean', phrases: ['refund'] }] } });
      await analyse(client, callId, asked.id, 60_000, 'the analysis run');
      const analysisQuery = { analysis_scenario_id: asked.id, group_by: ['metadata.agent'], 'metadata.agent': 'sam' };
      const withSentiment = await client.getAnalysisReport({ query: { ...analysisQuery, sentiment: true } });
      assert.deepEqual(
        withSentiment.groups[0]?.sentiment?.map((s) => [s.speaker, s.transcripts, s.mean]),
        latest.sentiment.speakers.map((s) => [s.speaker, 1, s.mean]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      assert.equal((await client.getAnalysisReport({ query: analysisQuery })).groups[0]?.sentiment, undefined, 'only when asked');
      // The filters that read the recordings (sentiment, topic, category, status) narrow the report too.
      const calls = async (filters: Record<string, unknown>) => (await client.getAnalysisReport({ query: { ...analysisQuery, ...filters } })).groups[0]?.calls ?? 0;
      const customer = latest.sentiment.speakers.find((s) => s.speaker === 'customer')!.mean;
      assert.equal(await calls({ sentiment_speaker: 'customer', sentiment_min: Math.max(-1, customer - 0.01) }), 1);
      assert.equal(await calls({ sentiment_speaker: 'customer', sentiment_min: Math.min(1, customer + 0.01) }), 0);
      assert.equal(await calls({ sentiment_speaker: 'Customer', sentiment_min: Math.max(-1, customer - 0.01) }), 1, 'a speaker in any case');
      await rejectsWith(client.getAnalysisReport({ query: { ...analysisQuery, sentiment_min: 0.5, sentiment_max: -0.5 } }), 400, 'validation_failed');
      assert.equal(await calls({ topic: latest.key_phrases[0]!.text }), 1);
      assert.equal(await calls({ topic: 'zeppelin' }), 0);
      assert.deepEqual((await client.getAnalysisReport({ query: { analysis_scenario_id: asked.id, topic: 'zeppelin' } })).groups, [], 'without group_by, a filter that finds nothing gives no group of 0 calls');
      assert.equal(await calls({ category: 'cat-00000000-0000-4000-8000-000000000000', status: 'completed' }), 0);
      assert.equal(await calls({ status: 'completed', created_after: '2020-01-01T00:00:00Z' }), 1);
      const analysisCsv = await hark.request({ method: 'GET', url: `${P}/reports/analysis?analysis_scenario_id=${asked.id}&group_by=metadata.agent&metadata.agent=sam&sentiment=true`, key: account.key, headers: { accept: 'text/csv' } });
      assert.match(analysisCsv.body.split('\n')[0] ?? '', /^metadata\.agent,calls,refund\.true,refund\.false,refund\.uncertain,refund\.reviewed,refund\.overturned,refund\.rate,agent\.sentiment_avg,customer\.sentiment_avg$/);
      // The CSV answer is an HTTP shape (a media type, a body that is not JSON): asked for by hand.
      const csv = await hark.request({ method: 'GET', url: `${P}/reports/talk?group_by=metadata.agent&metadata.agent=sam`, key: account.key, headers: { accept: 'text/csv' } });
      assert.match(csv.headers['content-type'] as string, /^text\/csv/);
      const [header, row] = csv.body.trim().split('\n');
      assert.match(header ?? '', /^metadata\.agent,transcripts,silence_seconds_avg,overlap_seconds_avg,interruptions_avg,agent\.talk_share,agent\.talk_ratio_avg,.*agent\.sentiment_avg,customer\.talk_share/);
      assert.match(row ?? '', /^sam,1,/);
      // Over every call of the workspace (speakers named differently from call to call), each
      // group's shares of the talk add up to 1.
      assert.deepEqual((await client.getTalkReport({ query: { 'metadata.agent': 'nobody' } })).groups, [], 'no transcript, no group (an average of nothing is not 0)');
      const all = await client.getTalkReport();
      for (const g of all.groups) assert.ok(Math.abs(g.speakers.reduce((sum, s) => sum + s.talk_share, 0) - 1) < 0.01, JSON.stringify(g));
    });

    test("a question answered from its meaning, not its words, and a question's examples read beside its wording", async () => {
      await callTranscript();
      // The call never says "money back" nor "offer": "I can refund that" means both.
      const meaning = 'Did the agent offer money back?';
      const unworded = 'Did the agent put it right?';
      const questions: Schemas['AnalysisScenario']['questions'] = [
        { id: 'meaning', text: meaning, type: 'boolean', speaker: 'agent' },
        { id: 'customer', text: 'Did the customer offer money back?', type: 'boolean', speaker: 'customer' },
        { id: 'plain', text: unworded, type: 'boolean' },
        { id: 'with_examples', text: unworded, type: 'boolean', examples: ['We can refund that for you.', 'I will send you a new one.'] },
      ];
      const created = await client.createAnalysisScenario({ body: { name: 'examples', questions } });
      assert.deepEqual(created.questions, questions);
      const { answers } = await analyse(client, callId, created.id, 60_000, 'the analysis run');
      const answer = (id: string) => answers.find((a) => a.question_id === id)!;
      assert.equal(answer('meaning').answer, true, JSON.stringify(answer('meaning')));
      assert.match(answer('meaning').evidence[0]?.text ?? '', /refund/);
      assert.ok((answer('meaning').evidence[0]?.start ?? 0) > 9, JSON.stringify(answer('meaning').evidence));
      assert.equal(answer('customer').answer, false, 'the customer offered nothing');
      // Wording the call does not carry finds nothing; the example finds the offer.
      assert.equal(answer('plain').answer, false);
      assert.deepEqual(answer('plain').evidence, []);
      assert.equal(answer('with_examples').answer, true);
      assert.match(answer('with_examples').evidence[0]?.text ?? '', /refund/);
      assert.ok((answer('with_examples').evidence[0]?.start ?? 0) > 9, JSON.stringify(answer('with_examples').evidence));
    });

    test('bad options and questions are 400s that create nothing', async () => {
      const count = async () => (await client.listTranscriptionScenarios()).data.length;
      const before = await count();
      // Bodies the client's types refuse (no name, unknown values), sent as they would arrive from elsewhere.
      const createScenario = (body: unknown) => client.createTranscriptionScenario({ body: body as never });
      await rejectsWith(createScenario({ options: { redact_audio: true } }), 400, 'validation_failed');
      await rejectsWith(createScenario({ options: { redact: ['passport'] } }), 400, 'validation_failed');
      await rejectsWith(createScenario({ options: { channels: 'stereo' } }), 400, 'validation_failed');
      await rejectsWith(createScenario({ options: { speaker_labels: { 9: 'agent' } } }), 400, 'validation_failed');
      await rejectsWith(createScenario({ options: { keep_original_audio: false } }), 400, 'validation_failed');
      assert.equal(await count(), before);
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'What?', type: 'text', phrases: ['hello'] }] } }), 400, 'validation_failed');
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'Said?', type: 'boolean', phrases: [] }] } }), 400, 'validation_failed');
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'Said?', type: 'boolean', within_seconds: -1 }] } }), 400, 'validation_failed');
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'What?', type: 'text', examples: ['a refund'] }] } }), 400, 'validation_failed');
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'Said?', type: 'boolean', examples: [' ?! '] }] } }), 400, 'validation_failed');
      await rejectsWith(client.createAnalysisScenario({ body: { name: 'x', questions: [{ text: 'Said?', type: 'boolean', examples: Array.from({ length: 11 }, (_, i) => `example ${i}`) }] } }), 400, 'validation_failed');
    });
  });
}
