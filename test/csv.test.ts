// Pure logic: CSV cells as Hark writes them (quoting, and formulas made inert).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, csvDocument } from '../src/core/csv.ts';
import { asksForCsv } from '../src/http/query.ts';

test('text that a spreadsheet would run as a formula gets a leading apostrophe', () => {
  for (const text of ['=1+1', '+1', '-1', '@A1', '\tx', '\rx']) assert.equal(csvCell(text).replace(/^"|"$/g, '').startsWith(`'${text[0]}`), true, JSON.stringify(text));
  assert.equal(csvCell('=HYPERLINK("a","b")'), `"'=HYPERLINK(""a"",""b"")"`);
});

test('numbers, empty cells and ordinary text are left alone; separators are quoted', () => {
  assert.equal(csvCell(-0.25), '-0.25');
  assert.equal(csvCell(3), '3');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell('red team'), 'red team');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
  assert.equal(csvDocument([['a', 1], ['-x', -1]]), "a,1\n'-x,-1\n");
});

test('CSV is answered where Accept asks for it over JSON, not where it refuses it or sends a wildcard', () => {
  for (const accept of ['text/csv', 'text/csv; charset=utf-8', 'text/csv, application/json', 'application/json;q=0.5, text/csv', 'TEXT/CSV;Q=0.9, */*;q=0.1']) assert.equal(asksForCsv(accept), true, accept);
  for (const accept of [undefined, '', '*/*', 'application/json', 'text/csv;q=0, application/json', 'text/csv;q=0', 'application/json, text/csv;q=0.5', 'text/*', 'text/html', 'text/csv;q=bad']) assert.equal(asksForCsv(accept), false, String(accept));
});
