// Sentiment along a call: unit checks of the scorer and the per-speaker thirds, and over HTTP on
// recognised two-channel calls (an angry customer scores negative, a pleased one positive).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scoreText, transcriptSentiment } from '../src/core/transcripts/sentiment.ts';
import { upload, waitForRecording } from './helpers/api.ts';
import { stereoCall } from './helpers/audio.ts';
import { assertProblem, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

test('a lexicon score: negative, positive, neutral, and a negation turns it', () => {
  assert.ok(scoreText('this is terrible and your service is awful') < -0.3);
  assert.ok(scoreText('thank you so much that is really helpful') > 0.3);
  assert.equal(scoreText('my parcel number is one two three'), 0);
  assert.ok(scoreText('i am not happy with this') < 0);
});

test('per speaker: the mean, and the first and last thirds of the call', () => {
  const segment = (speaker: string, start: number, text: string) => ({ start, end: start + 2, text, speaker, channel: speaker === 'agent' ? 0 : 1 });
  const sentiment = transcriptSentiment(
    [
      segment('customer', 0, 'this is terrible I am very angry'),
      segment('agent', 10, 'I am sorry I will fix it now'),
      segment('customer', 25, 'thank you that is great'),
    ],
    30,
  );
  assert.equal(sentiment.segments.length, 3);
  const customer = sentiment.speakers.find((s) => s.speaker === 'customer')!;
  assert.ok(customer.first_third! < 0 && customer.last_third! > 0, JSON.stringify(customer));
  assert.equal(customer.segments, 2);
  assert.equal(sentiment.speakers.find((s) => s.speaker === 'agent')!.first_third, null, 'the agent says nothing in the first third');
});

describe('sentiment over HTTP', () => {
  let hark: Hark;
  let account: Account;
  let P: string;
  before(async () => {
    hark = await startHark({ backend: 'pglite' });
    account = await registerAccount(hark);
    P = `/api/v1/workspaces/${account.workspaceId}`;
  });
  after(() => hark.destroy());

  const ids: Record<string, string> = {};
  async function customerSentiment(customer: string): Promise<number> {
    const file = stereoCall(
      [
        { channel: 0, at: 0.3, text: 'Thank you for calling, how can I help?' },
        { channel: 1, at: 3.5, text: customer },
      ],
      10,
    );
    const id = (await upload(hark, account, file)).json<{ id: string }>().id;
    ids[customer] = id;
    await waitForRecording(hark, account, id, ['completed']);
    const run = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key })).json<{ id: string }>();
    await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}`, key: account.key })).json<{ status: string }>().status === 'completed', 90_000, 'the run');
    const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<{
      segments: unknown[];
      sentiment: { segments: number[]; speakers: { speaker: string; mean: number }[] };
    }>();
    assert.equal(transcript.sentiment.segments.length, transcript.segments.length);
    return transcript.sentiment.speakers.find((s) => s.speaker === 'channel_1')!.mean;
  }

  test('an angry customer scores negative, a pleased one positive', async () => {
    const angry = await customerSentiment('This is terrible. I am very angry, your service is awful.');
    const pleased = await customerSentiment('That is wonderful, thank you so much, you are very helpful.');
    assert.ok(angry < 0, `angry: ${angry}`);
    assert.ok(pleased > 0, `pleased: ${pleased}`);

    // The list filters by a speaker's sentiment: the unhappy customers, the happy ones, anyone's.
    const [angryId, pleasedId] = Object.values(ids);
    const listed = async (query: string) => (await hark.request({ method: 'GET', url: `${P}/recordings?${query}`, key: account.key })).json<{ data: { id: string }[] }>().data.map((r) => r.id).sort();
    assert.deepEqual(await listed('sentiment_speaker=channel_1&sentiment_max=-0.05'), [angryId]);
    assert.deepEqual(await listed('sentiment_speaker=channel_1&sentiment_min=0.05'), [pleasedId]);
    assert.deepEqual(await listed('sentiment_min=-1&sentiment_max=1'), [angryId, pleasedId].sort());
    assert.deepEqual(await listed('sentiment_speaker=nobody&sentiment_min=-1'), []);
    const answers = await hark.request({ method: 'GET', url: `${P}/reports/recordings?sentiment_max=-0.05&sentiment_speaker=channel_1`, key: account.key });
    assert.equal(answers.statusCode, 200, answers.body);
    const refused = await hark.request({ method: 'GET', url: `${P}/recordings?sentiment_min=2`, key: account.key });
    assertProblem(refused, 400, 'validation_failed');
  });
});
