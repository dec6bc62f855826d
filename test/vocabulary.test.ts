// A team's own terms: pronounced from the model's dictionary, by espeak-ng or as dictionary words,
// added to pocketsphinx only for scenarios that name them, written back as the team spells them;
// and over HTTP on recognised speech (through the shipped TypeScript client), a product name the
// dictionary lacks is heard only with it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { createPocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { writeVocabulary, decoderVocabulary, MODEL_DICTIONARY, VOCABULARY_WEIGHT } from '../src/engines/transcription/pocketsphinx-vocabulary.ts';
import { ARPABET, compoundPhones, dictionary, espeakPhones, ipaToArpabet, pronounce, pronunciations, rulePhones, spokenWords } from '../src/engines/transcription/pronunciation.ts';
import { promptOf } from '../src/engines/transcription/prompt.ts';
import { formatTranscript } from '../src/features/transcription/formatting.ts';
import { vocabularyCasing } from '../src/features/transcription/vocabulary.ts';
import fs from 'node:fs';
import { multipart, speech } from './helpers/audio.ts';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { oneBackend, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';

test('IPA as espeak-ng writes it becomes ARPAbet; a symbol without a phone is refused', () => {
  assert.deepEqual(ipaToArpabet('zˈɛndɛsk'), ['Z', 'EH', 'N', 'D', 'EH', 'S', 'K']);
  assert.deepEqual(ipaToArpabet('twˈɪlɪˌoʊ'), ['T', 'W', 'IH', 'L', 'IH', 'OW']);
  assert.deepEqual(ipaToArpabet('tʃˈætɡpt'), ['CH', 'AE', 'T', 'G', 'P', 'T']);
  assert.deepEqual(ipaToArpabet('hˈɑːɹk'), ['HH', 'AA', 'R', 'K']);
  assert.equal(ipaToArpabet('ʘ'), null);
  assert.equal(ipaToArpabet(''), null);
});

test('a term is pronounced from the dictionary, else espeak-ng, else as dictionary words; each phone is the model\'s', () => {
  const words = dictionary(MODEL_DICTIONARY);
  assert.equal(words.get('desk'), 'D EH S K');
  assert.deepEqual(compoundPhones('zendesk', words), ['Z', 'EH', 'N', 'D', 'EH', 'S', 'K']);
  assert.equal(compoundPhones('qx', words), null);
  assert.deepEqual(pronounce('Customer success', words), { phones: `${words.get('customer')} ${words.get('success')}` });
  const said = pronounce('Qualtrics', words);
  assert.ok('phones' in said && said.phones.split(' ').every((phone) => ARPABET.has(phone)), JSON.stringify(said));
  assert.deepEqual(pronounce('42', words), { unpronounceable: '42' });
  assert.deepEqual(pronounce('Tokyo 東京', words), { unpronounceable: '東京' });
  assert.ok('phones' in pronounce('Zürich', words), 'Latin letters with accents are said');
  assert.deepEqual(spokenWords("O'Neil's help-desk 2.0"), ["o'neil's", 'help', 'desk']);
});

test('a word the dictionary lacks gets each different guess, espeak-ng\'s and phonemize\'s; a dictionary word only its own', () => {
  const words = dictionary(MODEL_DICTIONARY);
  assert.deepEqual(rulePhones('kubernetes'), ['K', 'AH', 'B', 'ER', 'N', 'IH', 'T', 'AH', 'Z']);
  const kubernetes = pronunciations('Kubernetes', words);
  assert.ok('phones' in kubernetes, JSON.stringify(kubernetes));
  assert.ok(kubernetes.phones.includes('K AH B ER N IH T AH Z'), JSON.stringify(kubernetes));
  if (espeakPhones('kubernetes')) assert.equal(kubernetes.phones.length, 2, 'espeak-ng says it otherwise');
  assert.deepEqual(pronunciations('customer', words), { phones: [words.get('customer')] });
  // Guesses multiply across a phrase's words, up to four.
  const phrase = pronunciations('kubernetes qualtrics twilio', words);
  assert.ok('phones' in phrase && phrase.phones.length <= 4 && new Set(phrase.phones).size === phrase.phones.length, JSON.stringify(phrase));
  assert.deepEqual(decoderVocabulary([{ phrase: 'Kubernetes' }]).words.map((w) => w.word).slice(0, 2), espeakPhones('kubernetes') ? ['@kubernetes', '@kubernetes~2'] : ['@kubernetes']);
});

test('decoder words: one alias per pronunciation, shared by equal vocabularies, written back as the term\'s words', () => {
  const vocabulary = decoderVocabulary([{ phrase: 'Zendesk', sounds_like: ['zen desk', 'zen desks'] }, { phrase: 'customer success' }, { phrase: 'Zendesk' }]);
  assert.deepEqual(vocabulary.words.map((w) => w.word), ['@zendesk', '@zendesk~2', '@customer_success']);
  assert.equal(vocabulary.key, decoderVocabulary([{ phrase: 'Zendesk', sounds_like: ['zen desk', 'zen desks'] }, { phrase: 'customer success' }]).key);
  const heard = [
    { word: 'open', start: 0, end: 0.4, confidence: 0.9 },
    { word: '@zendesk~2', start: 0.4, end: 1, confidence: 0.8 },
    { word: '@customer_success', start: 1, end: 2, confidence: 0.7 },
  ];
  assert.deepEqual(writeVocabulary(heard, vocabulary), [
    heard[0],
    { word: 'zendesk', start: 0.4, end: 1, confidence: 0.8 },
    { word: 'customer', start: 1, end: 1.5, confidence: 0.7 },
    { word: 'success', start: 1.5, end: 2, confidence: 0.7 },
  ]);
});

test('formatted text spells the terms as the team does; engines with a prompt get the terms in it', () => {
  const casing = vocabularyCasing(['Zendesk', { phrase: 'HubSpot CRM' }, 'refund', 'US Bank']);
  assert.deepEqual(casing, [{ words: ['zendesk'], written: ['Zendesk'] }, { words: ['hubspot', 'crm'], written: ['HubSpot', 'CRM'] }, { words: ['us', 'bank'], written: ['US', 'Bank'] }]);
  const words = 'we moved from hubspot crm to zendesk call us back'.split(' ').map((word, i) => ({ word, start: i * 0.3, end: i * 0.3 + 0.25, confidence: 1, channel: 0, speaker: 'agent' }));
  const formatted = formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 5, text: '', channel: 0, speaker: 'agent' }], words }, false, casing);
  assert.equal(formatted.text, 'We moved from HubSpot CRM to Zendesk call us back.', 'a term\'s words are cased only where the whole term is said');
  assert.equal(promptOf({ prompt: 'A support call.', vocabulary: [{ phrase: 'Zendesk' }, { phrase: 'HubSpot' }] }), 'A support call. Terms: Zendesk, HubSpot.');
  assert.equal(promptOf({}), undefined);
});

test('a decoder with many terms decodes one utterance after another (the library\'s own add-word path crashed on the second)', () => {
  const terms = ['Zendesk', 'Qualtrics', 'Twilio', 'Kubernetes', 'Shopify', 'Trello', 'Salesforce', 'Dropbox'].map((phrase) => ({ phrase }));
  const vocabulary = decoderVocabulary(terms);
  const decoder = createPocketsphinx({ words: vocabulary.words, wordWeight: VOCABULARY_WEIGHT });
  try {
    const heard = ['I could not log in to Shopify this morning.', 'Please open a ticket in Zendesk for me.', 'I could not log in to Shopify this morning.'].map((text) => {
      const pcm = execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', speech(text), '-ar', '16000', '-ac', '1', '-f', 's16le', '-']);
      return writeVocabulary(decoder.decode(pcm).words, vocabulary).map((w) => w.word).join(' ');
    });
    assert.equal(heard.length, 3);
    assert.match(heard.join(' | '), /zendesk|shopify/, heard.join(' | '));
  } finally {
    decoder.close();
  }
});

// The store plays no part in what this suite proves (audio, engines, HTTP shapes): one backend.
for (const backend of await oneBackend()) {
  describe(`a scenario's vocabulary on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let client: HarkClient;
    let recordingId: string;
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      recordingId = (await client.upload(speech('We use Qualtrics for the survey.'))).id;
      await client.waitForRecording(recordingId);
    });
    after(() => hark.destroy());

    const transcribe = (scenarioId: string) => client.transcribe({ id: recordingId }, { scenarioId });

    test('a product name the dictionary lacks is recognised only with the vocabulary, and written as spelled', async () => {
      const plain = await client.createTranscriptionScenario({ body: { name: 'Plain' } });
      const taught = await client.createTranscriptionScenario({ body: { name: 'Our terms', options: { vocabulary: ['Qualtrics', { phrase: 'Zendesk', sounds_like: ['zen desk'] }] } } });
      assert.deepEqual(taught.options.vocabulary, ['Qualtrics', { phrase: 'Zendesk', sounds_like: ['zen desk'] }], 'kept as given');
      const without = await transcribe(plain.id);
      assert.doesNotMatch(without.text, /qualtrics/i, without.text);
      const withTerms = await transcribe(taught.id);
      assert.match(withTerms.text, /\bQualtrics\b/, withTerms.text);
      const word = withTerms.words.find((w) => w.word === 'qualtrics');
      assert.ok(word?.punctuated_word?.startsWith('Qualtrics'), JSON.stringify(withTerms.words));
    });

    test('the OpenAI-compatible route takes vocabulary[] for one request', async () => {
      const send = (fields: Record<string, string>) => {
        const body = multipart({ model: 'pocketsphinx/en-us', response_format: 'json', ...fields }, { content: fs.readFileSync(speech('We use Qualtrics for the survey.')), filename: 'call.wav', contentType: 'audio/wav' });
        return hark.request({ method: 'POST', url: '/v1/audio/transcriptions', key: account.key, ...body });
      };
      const taught = await send({ 'vocabulary[]': 'Qualtrics' });
      assert.equal(taught.statusCode, 200, taught.body);
      assert.match(taught.json<{ text: string }>().text, /\bQualtrics\b/);
      const refused = await send({ 'vocabulary[]': '1234' });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.body, /no letters/);
      assert.equal(refused.json<{ error: { param: string } }>().error.param, 'vocabulary[0]', 'named as the form field it came in');
    });

    test('the OpenAI-compatible route takes format (a form field or a query parameter) for one request', async () => {
      const send = (fields: Record<string, string>, query = '') => {
        const body = multipart({ model: 'pocketsphinx/en-us', response_format: 'json', ...fields }, { content: fs.readFileSync(speech('It costs twenty five dollars.')), filename: 'call.wav', contentType: 'audio/wav' });
        return hark.request({ method: 'POST', url: `/v1/audio/transcriptions${query}`, key: account.key, ...body });
      };
      const formatted = await send({});
      assert.match(formatted.json<{ text: string }>().text, /\$25\./, formatted.body);
      for (const [fields, query] of [[{ format: 'false' }, ''], [{}, '?format=false']] as const) {
        const plain = await send(fields, query);
        assert.equal(plain.statusCode, 200, plain.body);
        assert.match(plain.json<{ text: string }>().text, /^[a-z ]+$/, `the recogniser's own words: ${plain.body}`);
      }
      for (const [fields, query] of [[{ format: 'bogus' }, ''], [{}, '?format=bogus']] as const) {
        const refused = await send(fields, query);
        assert.equal(refused.statusCode, 400, refused.body);
        const { error } = refused.json<{ error: { param: string | null; code: string | null } }>();
        assert.deepEqual([error.param, error.code], ['format', 'validation_failed'], 'the same answer as a form field or a query parameter');
      }
    });

    test('a term without letters, or too long, is a 400 naming it', async () => {
      const refused = (vocabulary: string[]) => rejectsWith(client.createTranscriptionScenario({ body: { name: 'Bad', options: { vocabulary } } }), 400, 'validation_failed');
      assert.match((await refused(['Zendesk', '1234'])).detail, /options\/vocabulary\/1/);
      assert.match((await refused(['Windows 11'])).detail, /write numbers as said/);
      assert.match((await refused(['x'.repeat(61)])).detail, /vocabulary/);
      // Symbols are not said; an English model says no other script (espeak-ng reads 東京 as "Chinese letter").
      assert.match((await refused(['hello 😀'])).detail, /options\/vocabulary\/0.*not said/);
      assert.match((await refused(['Zendesk', '東京'])).detail, /options\/vocabulary\/1/);
      const accented = await client.createTranscriptionScenario({ body: { name: 'Accents', options: { vocabulary: ['Café Zürich', "O'Neil & Co."] } } });
      // A scenario saved before a rule was added (here: a term with a symbol) keeps working and can
      // be renamed; its terms are checked again when they are edited.
      const stored = await hark.runtime.ctx.db.selectFrom('transcription_scenarios').select('options').where('id', '=', accented.id).executeTakeFirstOrThrow();
      const older = { ...(stored.options as Record<string, unknown>), vocabulary: ['Yahoo!'] };
      await hark.runtime.ctx.db.updateTable('transcription_scenarios').set({ options: JSON.stringify(older) }).where('id', '=', accented.id).execute();
      assert.equal((await client.updateTranscriptionScenario({ path: { scenario_id: accented.id }, body: { name: 'Accents, renamed' } })).name, 'Accents, renamed');
      await rejectsWith(client.updateTranscriptionScenario({ path: { scenario_id: accented.id }, body: { options: { vocabulary: ['Yahoo!', 'Zendesk'] } } }), 400, 'validation_failed');
      await client.deleteTranscriptionScenario({ path: { scenario_id: accented.id } });
      await refused(Array.from({ length: 201 }, (_, i) => `term${i}`));
      const scenarios = (await client.listTranscriptionScenarios()).data;
      assert.equal(scenarios.filter((s) => s.name !== 'Plain' && s.name !== 'Our terms').length, 1, 'nothing half-created (the default only)');
    });
  });
}
