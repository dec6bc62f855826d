// Pure logic: readable text from unpunctuated words — sentences at pauses, question marks,
// capitals, "I" — with the recognised words kept, and text that must be left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTranscript, punctuate, type FormattedWord } from '../src/features/transcription/formatting.ts';
import { capitalisedOnly, nameFormsOf, WORD_LIST, writeNames } from '../src/features/transcription/names.ts';
import fs from 'node:fs';

/** Words 0.3 s apart (0.25 s long), with a pause of `pause` seconds before each index in `pausesBefore`. */
function spoken(text: string, pausesBefore: Record<number, number> = {}, channel = 0, speaker = 'agent') {
  let at = 0;
  return text.split(' ').map((word, i) => {
    at += pausesBefore[i] ?? 0;
    // Back to back, as pocketsphinx writes the words of a phrase; a pause only where one is given.
    const w = { word, start: at, end: at + 0.3, confidence: 0.9, channel, speaker };
    at += 0.3;
    return w;
  });
}

test('a word said where a long turn was cut in two (segments that touch) is written once, in the later segment', () => {
  // "we enjoyed building | building a fire": the recogniser's cut falls at "building"'s start.
  const words = spoken('as much as we enjoyed building a fire on view');
  const cut = words[5]!.start;
  const segments = [
    { start: 0, end: cut, text: 'as much as we enjoyed', channel: 0, speaker: 'channel_0' },
    { start: cut, end: words.at(-1)!.end, text: 'building a fire on view', channel: 0, speaker: 'channel_0' },
  ];
  const formatted = formatTranscript({ language: 'en', text: '', segments, words }, false);
  const said = formatted.segments.map((segment) => segment.text.toLowerCase().replace(/[.,?]/g, '').split(' '));
  assert.deepEqual(said, [['as', 'much', 'as', 'we', 'enjoyed'], ['building', 'a', 'fire', 'on', 'view']]);
  assert.equal(formatted.text.toLowerCase().match(/building/g)?.length, 1, formatted.text);
});

test('sentences end at pauses: a full stop, or a question mark where the sentence opens as a question', () => {
  const words = punctuate(spoken('thank you for calling how can i help you today', { 4: 0.8 }));
  assert.equal(words.map((w) => w.punctuated_word).join(' '), 'Thank you for calling. How can I help you today?');
  assert.equal(words.map((w) => w.word).join(' '), 'thank you for calling how can i help you today', 'the recognised words are kept');
});

test('"I" and its contractions are capitalised; a redaction marker stays one token; one word is a sentence', () => {
  assert.equal(punctuate(spoken("i'm sure i'll call back")).map((w) => w.punctuated_word).join(' '), "I'm sure I'll call back.");
  assert.equal(punctuate(spoken('my card is [CREDIT_CARD]')).map((w) => w.punctuated_word).join(' '), 'My card is [CREDIT_CARD].');
  assert.equal(punctuate(spoken('is')).map((w) => w.punctuated_word).join(' '), 'Is.', 'a lone opener is no question');
  assert.deepEqual(punctuate([]), []);
});

test('breaks: a sentence ends where the next word opens one, else a comma where the break is long or the next word carries on; after an opening yes, well or good morning; not after a marker or "the"', () => {
  const text = (said: string, pauses: Record<number, number> = {}) => punctuate(spoken(said, pauses)).map((w) => w.punctuated_word).join(' ');
  assert.equal(text('if it arrives broken just send it back', { 4: 0.3 }), 'If it arrives broken, just send it back.');
  assert.equal(text('the parcel came on monday but it was broken', { 5: 0.1 }), 'The parcel came on monday, but it was broken.', 'a short break before a word that carries the sentence on');
  assert.equal(text('the parcel came on monday the box was broken', { 5: 0.1 }), 'The parcel came on monday. The box was broken.', 'a short break before a word that opens a sentence');
  assert.equal(text('please send it to the office', { 4: 0.3 }), 'Please send it to the office.', 'no mark after a word a sentence does not end on');
  assert.equal(text('yes i can help with that', { 1: 0.1 }), 'Yes, I can help with that.');
  assert.equal(text('good morning this is sam', { 2: 0.1 }), 'Good morning, this is sam.');
  assert.equal(text('well it depends', { 1: 0.1 }), 'Well, it depends.');
  assert.equal(text('no problem at all'), 'No problem at all.', 'an opening no is not set off: "no problem"');
  assert.equal(text('yes'), 'Yes.', 'a word alone ends its sentence');
  assert.equal(text('my card is [CREDIT_CARD] today', { 4: 0.3 }), 'My card is [CREDIT_CARD] today.', 'a marker stays one token');
  assert.equal(text('hello how are you', { 1: 0.8 }), 'Hello. How are you?', 'a sentence pause is a full stop, not a comma');
  assert.equal(text('i had no email from you could you check', { 6: 0.1 }), 'I had no email from you. Could you check?', '"you" ends a sentence as an object; "I", "we", "they" do not');
  assert.equal(text('so can you please check the order'), 'So can you please check the order?', 'a lead-in word, then a verb and its subject: a question');
  assert.equal(text('and what time does it open'), 'And what time does it open?');
  assert.equal(text('so it is broken'), 'So it is broken.', 'a lead-in word before a statement');
  assert.equal(text('okay can'), 'Okay can.', 'a verb without its subject does not ask');
  assert.equal(text('now is the time to call'), 'Now is the time to call.', '"now" opens a statement with its verb first');
  assert.equal(text('so do i'), 'So do I.', '"so do I" agrees, it does not ask');
  assert.equal(text('have a nice day'), 'Have a nice day.');
  assert.equal(text('okay have a good one'), 'Okay have a good one.');
  assert.equal(text('have you got the number'), 'Have you got the number?');
  for (const [said, at, written] of [['could you tell me the order number', 2, 'Could you tell me the order number?'], ['can you please check the order', 2, 'Can you please check the order?'], ['do you have the order number', 2, 'Do you have the order number?']] as const) {
    assert.equal(text(said, { [at]: 0.2 }), written, '"you" after its verb is a subject: the sentence goes on');
  }
});

test('"and", "but" and "or" carry a sentence on even where the model would end it there; a sentence opened by "if" or "because" goes on past its clause with a comma', () => {
  const text = (said: string, pauses: Record<number, number>, odds: Record<number, number>) =>
    punctuate(spoken(said, pauses), undefined, said.split(' ').map((_, i) => odds[i] ?? -10)).map((w) => w.punctuated_word).join(' ');
  assert.equal(text('it was sent on monday but it never arrived', { 5: 0.1 }, { 5: 0 }), 'It was sent on monday, but it never arrived.');
  assert.equal(text('the discount is ten percent and it ends soon', { 5: 0.1 }, { 5: 0 }), 'The discount is ten percent, and it ends soon.');
  assert.equal(text('it was sent on monday it never arrived', { 5: 0.1 }, { 5: 0 }), 'It was sent on monday. It never arrived.', 'the model still ends a sentence before another word');
  assert.equal(text('if they do not i can book an engineer', { 4: 0.1 }, { 4: 0 }), 'If they do not, I can book an engineer.');
  assert.equal(text('because it broke we sent another one', { 3: 0.1 }, { 3: 0 }), 'Because it broke, we sent another one.');
  assert.equal(text('if they do not i can book one we will call you', { 4: 0.1, 8: 0.1 }, { 4: 0, 8: 0 }), 'If they do not, I can book one. We will call you.', 'past its clause, the next break ends the sentence');
  assert.equal(text('when did you order it i placed it last week', { 5: 0.1 }, { 5: 0 }), 'When did you order it? I placed it last week.', '"when" asks as often as it opens a clause');
});

test('a question said straight after a statement, without a pause, is a sentence of its own where the model ends one before it', () => {
  const text = (said: string, odds: Record<number, number>) => punctuate(spoken(said), undefined, said.split(' ').map((_, i) => odds[i] ?? -10)).map((w) => w.punctuated_word).join(' ');
  assert.equal(text('you will see it in five days is there anything else', { 7: 0.3 }), 'You will see it in five days. Is there anything else?');
  assert.equal(text('let me check that for you can you hold on', { 6: 2.6 }), 'Let me check that for you. Can you hold on?');
  assert.equal(text('you will see it in five days is there anything else', { 7: -3 }), 'You will see it in five days is there anything else.', 'not where the model does not say so');
  assert.equal(text('the reason is there was a fault', { 2: 0.5 }), 'The reason is there was a fault.', 'nor where the statement before it would be under three words');
  // A comma a clause's break left before it gives way to the full stop.
  const clause = 'because it broke is there a fix';
  assert.equal(punctuate(spoken(clause, { 3: 0.2 }), undefined, clause.split(' ').map((_, i) => (i === 3 ? 0.5 : -10))).map((w) => w.punctuated_word).join(' '), 'Because it broke. Is there a fix?');
});

test('a break never splits a number, nor cuts a sentence of one or two words, nor asks without a subject after the verb', () => {
  const format = (said: string, pauses: Record<number, number>) => formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 999, text: '', channel: 0, speaker: 'agent' }], words: spoken(said, pauses) }, false).text;
  assert.equal(format('it costs twenty five dollars', { 3: 0.3 }), 'It costs $25.', 'not "twenty, $5"');
  assert.equal(format('my card is four one one one', { 4: 0.3, 5: 0.3, 6: 0.3 }), 'My card is 4111.');
  assert.equal(format('order one hundred and twelve arrived', { 3: 0.1 }), 'Order 112 arrived.');
  assert.equal(format('it is broken', { 1: 0.1 }), 'It is broken.');
  assert.equal(format('can you help me', { 1: 0.1 }), 'Can you help me?');
  assert.equal(format('thank you for calling', { 1: 0.1 }), 'Thank you for calling.');
  assert.equal(format('a full refund which takes five days', { 3: 0.1 }), 'A full refund, which takes five days.');
  assert.equal(format('i checked your account is that right', { 4: 0.1 }), 'I checked your account. Is that right?');
  assert.equal(format('the total amount is twenty dollars', { 3: 0.1 }), 'The total amount is $20.', 'a verb with no subject after it does not ask');
  // A word a verb like "is" follows opens a sentence as its subject; not after "of", nor "and", nor in a number.
  assert.equal(format('we open at nine am parking is free after six', { 5: 0.1 }), 'We open at 9 AM. Parking is free after six.');
  assert.equal(format('the cost of parking is high', { 3: 0.1 }), 'The cost of parking is high.');
  assert.equal(format('i called and was told to wait', { 2: 0.1 }), 'I called, and was told to wait.');
  assert.equal(format('the fee is twenty five is that right', { 5: 0.1 }), 'The fee is 25. Is that right?');
});

test('segments and the text are rebuilt from the punctuated words, per speaker; no words leaves the text alone', () => {
  const agent = spoken('hello thank you for calling', { 1: 0.2 }, 0, 'agent');
  const customer = spoken('hi my parcel never arrived', { 0: 2, 1: 0.2 }, 1, 'customer');
  const segments = [
    { start: 0, end: 1.5, text: 'hello thank you for calling', channel: 0, speaker: 'agent' },
    { start: 2, end: 3.5, text: 'hi my parcel never arrived', channel: 1, speaker: 'customer' },
  ];
  const formatted = formatTranscript({ language: 'en', text: 'x', segments, words: [...agent, ...customer] }, true);
  assert.deepEqual(formatted.segments.map((s) => s.text), ['Hello, thank you for calling.', 'Hi, my parcel never arrived.']);
  assert.equal(formatted.text, 'agent: Hello, thank you for calling.\ncustomer: Hi, my parcel never arrived.');
  const bare = { language: 'en', text: 'as the engine wrote it', segments: [{ start: 0, end: 1, text: 'as the engine wrote it', channel: 0, speaker: 'channel_0' }], words: [] };
  assert.equal(formatTranscript(bare, false).text, 'as the engine wrote it');
});

test('e-mail and web addresses said aloud are written as addresses; the words keep what was said', () => {
  const format = (text: string) => formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 99, text: '', channel: 0, speaker: 'agent' }], words: spoken(text) }, false);
  const cases: [string, string][] = [
    ['my email is john dot smith at example dot com thanks', 'My email is john.smith@example.com thanks.'],
    ['write to jane at gmail dot com', 'Write to jane@gmail.com.'],
    ['go to w w w dot example dot com slash help', 'Go to www.example.com/help.'],
    ['see www dot hark dot dev slash docs slash api', 'See www.hark.dev/docs/api.'],
    ['visit example dot com today', 'Visit example.com today.'],
    // Left alone: no address here.
    ['the dot com years were wild', 'The dot com years were wild.'],
    ['look at that dot on the map', 'Look at that dot on the map.'],
    ['we met at the office at nine', 'We met at the office at nine.'],
    ['we use dot net for the backend', 'We use dot net for the backend.'],
    ['the whole dot com thing', 'The whole dot com thing.'],
  ];
  for (const [said, written] of cases) assert.equal(format(said).text, written, said);
  const words: FormattedWord[] = format('write to jane at gmail dot com').words;
  assert.deepEqual(words.map((w) => w.punctuated_word), ['Write', 'to', 'jane@gmail.com.', '', '', '', '']);
  assert.deepEqual(words.map((w) => w.word), ['write', 'to', 'jane', 'at', 'gmail', 'dot', 'com']);
});

test('names and places the word list has only with capitals are written with them; a name that is also a word stays as said', () => {
  // As the list is sorted: an acronym before the name spelt the same ("SAM", "Sam").
  // An acronym's plural is an acronym too ("PMS" and "PMs": pms stays PMS).
  const list = capitalisedOnly(['London', 'Monday', 'PMS', 'PMs', 'SAM', 'Sam', "Sam's", 'TV', 'Bill', 'bill', 'John', 'john', 'help', ''].join('\n'));
  assert.deepEqual([...list.entries()], [['london', 'London'], ['monday', 'Monday'], ['pms', 'PMS'], ['sam', 'Sam'], ['tv', 'TV']]);
  const words = writeNames(punctuate(spoken("this is sam's line from london on monday tv bill john")), list);
  assert.equal(words.map((w) => w.punctuated_word).join(' '), "This is Sam's line from London on Monday TV bill john.");
  assert.equal(writeNames(punctuate(spoken('tv [CREDIT_CARD]')), list).map((w) => w.punctuated_word).join(' '), 'TV [CREDIT_CARD].');
});

test('a name that is also a word is written as a name where it is introduced as one', () => {
  const list = capitalisedOnly(['London', ''].join('\n'));
  const forms = nameFormsOf(['Bill', 'bill', 'Jane', 'jane', 'Maria', 'maria', 'Mike', 'mike', 'March', 'march', 'great', ''].join('\n'));
  const written = (said: string) => writeNames(punctuate(spoken(said)), list, forms).map((w) => w.punctuated_word).join(' ');
  assert.equal(written('hello my name is maria and i am calling from london'), 'Hello my name is Maria and I am calling from London.');
  assert.equal(written('hi this is jane speaking how can i help'), 'Hi this is Jane speaking how can I help.');
  assert.equal(written('this is mike from the billing team'), 'This is Mike from the billing team.');
  assert.equal(written('you can call me bill'), 'You can call me Bill.');
  // Not where the words around it do not say it is a name.
  assert.equal(written('this is bill for the meeting'), 'This is bill for the meeting.');
  assert.equal(written('the mike is broken this is great'), 'The mike is broken this is great.');
  // Words the list also has as names, where they are words.
  const withWords = nameFormsOf(['On', 'on', 'An', 'an', 'Me', 'me', 'Will', 'will', ''].join('\n'));
  for (const said of ['please call me on my mobile', 'can i speak to an agent', 'this is me calling about my bill']) {
    assert.doesNotMatch(writeNames(punctuate(spoken(said)), list, withWords).map((w) => w.punctuated_word).join(' '), /\b(On|An|Me)\b/, said);
  }
});

test('formatted transcripts take names from Debian\'s word list', { skip: !fs.existsSync(WORD_LIST) && 'wamerican-large is not installed (scripts/setup.sh installs it)' }, () => {
  const months = (said: string) => formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 99, text: '', channel: 0, speaker: 'agent' }], words: spoken(said) }, false).text;
  assert.equal(months('we had rain in march and since may'), 'We had rain in March and since May.', 'a month that is also a word, after a word that names a time');
  assert.equal(months('this may take a while but you may wait'), 'This may take a while but you may wait.', '"may" the verb stays');
  assert.equal(months('the soldiers march in august'), 'The soldiers march in August.');
  for (const said of ['the day after may be better', 'by may i ask who is calling', 'logging in may take a minute']) assert.doesNotMatch(months(said), /May/, `"may" the verb: ${said}`);
  assert.equal(months('from march to may'), 'From March to May.');
  assert.equal(months('it went up in may and again in june'), 'It went up in May and again in June.');
  const formatted = formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 3, text: '', channel: 0, speaker: 'agent' }], words: spoken('sam flew from london to spain on monday') }, false);
  assert.equal(formatted.text, 'Sam flew from London to Spain on Monday.');
});
