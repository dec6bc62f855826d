import { describe, expect, test } from 'vitest';
import { csvSummary, fileWarning, metadataForFile, metadataFromCsv, metadataFromPattern, parseCsv } from './per-file-metadata.ts';

describe('metadata per file', () => {
  test('a CSV names each file in its first column; quoted cells and CRLF are read', () => {
    expect(parseCsv('a,"b ""c""",d\r\n1,2,3\n')).toEqual([['a', 'b "c"', 'd'], ['1', '2', '3']]);
    const { byFile, problem } = metadataFromCsv('file,agent,queue\ncall1.wav,ana,billing\n"call, 2.wav",sam,\n');
    expect(problem).toBeNull();
    expect(byFile.get('call1.wav')).toEqual({ agent: 'ana', queue: 'billing' });
    expect(byFile.get('call, 2.wav')).toEqual({ agent: 'sam' });
    expect(metadataFromCsv('agent,queue\nana,billing\n').problem).toMatch(/first column/);
  });

  test('a file-name pattern gives its fields; the extension may be left out; no match gives nothing', () => {
    expect(metadataFromPattern('{agent}_{date}_{queue}.wav', 'ana_2026-11-02_billing.wav')).toEqual({ agent: 'ana', date: '2026-11-02', queue: 'billing' });
    expect(metadataFromPattern('{agent}_{date}_{queue}', 'ana_2026-11-02_billing.mp3')).toEqual({ agent: 'ana', date: '2026-11-02', queue: 'billing' });
    expect(metadataFromPattern('{agent}-{_}.wav', 'ana-x7.wav')).toEqual({ agent: 'ana' });
    expect(metadataFromPattern('{agent}_{queue}.wav', 'nounderscore.wav')).toBeNull();
    expect(metadataFromPattern('no fields', 'x.wav')).toBeNull();
  });

  test("a file's own values win over the batch's; the CSV before the pattern", () => {
    const csv = metadataFromCsv('file,agent\na.wav,ana\n').byFile;
    expect(metadataForFile('a.wav', { agent: 'batch', team: 'north' }, csv, '{agent}.wav')).toEqual({ agent: 'ana', team: 'north' });
    expect(metadataForFile('sam.wav', { team: 'north' }, csv, '{agent}.wav')).toEqual({ agent: 'sam', team: 'north' });
    expect(metadataForFile('sam.wav', { team: 'north' }, null, '')).toEqual({ team: 'north' });
  });
});

describe('a file\'s warning before upload', () => {
  test('says where a file gets no values of its own, or a call time that is no date', () => {
    expect(fileWarning('ana_2026-11-02_billing.wav', {}, null, '{agent}_{recorded_at}_{queue}')).toBeNull();
    expect(fileWarning('recording7.wav', {}, null, '{agent}_{recorded_at}_{queue}')).toBe('its name does not fit the pattern: no values of its own');
    expect(fileWarning('ana_2026-13-02_billing.wav', {}, null, '{agent}_{recorded_at}_{queue}')).toBe('recorded_at “2026-13-02” is not a date (2026-11-20, or 2026-11-20T09:30)');
    expect(fileWarning('b.wav', {}, new Map([['a.wav', { agent: 'ana' }]]), '')).toBe('not in the CSV: no values of its own');
    expect(fileWarning('b.wav', { agent: 'ana' }, null, '')).toBeNull();
  });
});

describe('the CSV summary', () => {
  const rows = new Map([
    ['a.wav', {}],
    ['b.wav', {}],
  ]);
  test('counts the rows against the files chosen, and names rows for files not chosen', () => {
    expect(csvSummary('calls.csv', rows, ['a.wav', 'c.wav'])).toBe('calls.csv: values for 1 of the 2 files chosen; 1 row names no file chosen (b.wav)');
    expect(csvSummary('calls.csv', rows, ['a.wav', 'b.wav'])).toBe('calls.csv: values for 2 of the 2 files chosen');
    expect(csvSummary('calls.csv', rows, [])).toBe('calls.csv: rows for 2 files');
  });
});
