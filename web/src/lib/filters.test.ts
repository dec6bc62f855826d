import { describe, expect, test } from 'vitest';
import { activeFilterCount, emptyFilters, filtersFromSearch, filtersToQuery, filtersToSearch, signedScore } from './filters.ts';

describe('filters and the URL', () => {
  test('a URL gives its filters and the filters give the URL back', () => {
    const search = new URLSearchParams('status=completed&recorded_after=2026-11-01&metadata.agent=ana&metadata.team=north&tab=x');
    const filters = filtersFromSearch(search);
    expect(filters).toEqual({ stage: null, status: 'completed', recordedAfter: '2026-11-01', recordedBefore: null, category: null, topic: null, sentiment: null, metadata: { agent: ['ana'], team: ['north'] } });
    expect(filtersToSearch(filters, search).toString()).toBe('tab=x&status=completed&recorded_after=2026-11-01&metadata.agent=ana&metadata.team=north');
  });

  test('empty values and a bare "metadata." are no filters; changing filters drops the cursor', () => {
    expect(filtersFromSearch(new URLSearchParams('status=&metadata.=x&metadata.agent='))).toEqual(emptyFilters);
    const next = filtersToSearch({ ...emptyFilters, status: 'failed' }, new URLSearchParams('cursor=abc&status=completed'));
    expect(next.toString()).toBe('status=failed');
  });

  test('the API query names metadata fields as metadata.<field>', () => {
    expect(filtersToQuery({ ...emptyFilters, metadata: { 'queue name': ['billing'] } })).toEqual({ 'metadata.queue name': 'billing' });
  });

  test('a field with several values matches any: once per value in the URL and a list in the query', () => {
    const filters = filtersFromSearch(new URLSearchParams('metadata.agent=ana&metadata.agent=ben&metadata.agent=ana&metadata.team=north'));
    expect(filters.metadata).toEqual({ agent: ['ana', 'ben'], team: ['north'] });
    expect(filtersToSearch(filters).toString()).toBe('metadata.agent=ana&metadata.agent=ben&metadata.team=north');
    expect(filtersToQuery(filters)).toEqual({ 'metadata.agent': ['ana', 'ben'], 'metadata.team': 'north' });
    expect(activeFilterCount(filters)).toBe(2);
  });

  test('a topic goes as it is; a sentiment choice in the URL becomes the API\'s bounds', () => {
    const filters = filtersFromSearch(new URLSearchParams('topic=refund&sentiment=negative&category=cat-1'));
    expect(filters).toEqual({ ...emptyFilters, category: 'cat-1', topic: 'refund', sentiment: 'negative' });
    expect(filtersToSearch(filters).toString()).toBe('category=cat-1&topic=refund&sentiment=negative');
    // Below −0.05, as a category's "below −0.05" reads it: scores have three decimals, the API's bounds are inclusive.
    expect(filtersToQuery(filters)).toEqual({ category: 'cat-1', topic: 'refund', sentiment_max: '-0.051' });
    expect(filtersToQuery({ ...emptyFilters, sentiment: 'positive' })).toEqual({ sentiment_min: '0.201' });
    expect(filtersFromSearch(new URLSearchParams('sentiment=angry')).sentiment).toBeNull();
  });

  test('the status a badge shows is the API\'s pipeline_status, beside the audio\'s own status', () => {
    const filters = filtersFromSearch(new URLSearchParams('pipeline_status=transcribed&status=completed'));
    expect([filters.stage, filters.status]).toEqual(['transcribed', 'completed']);
    expect(filtersToSearch(filters).toString()).toBe('pipeline_status=transcribed&status=completed');
    expect(filtersToQuery({ ...emptyFilters, stage: 'analysed' })).toEqual({ pipeline_status: 'analysed' });
    expect(activeFilterCount({ ...emptyFilters, stage: 'failed' })).toBe(1);
  });
});

describe('signedScore', () => {
  test('two decimals with a sign, so a mean at a bound reads as the bound', () => {
    expect(signedScore(-0.05)).toBe('−0.05');
    expect(signedScore(0.3)).toBe('+0.30');
    expect(signedScore(-0.001)).toBe('0.00');
    expect(signedScore(0)).toBe('0.00');
  });
});
