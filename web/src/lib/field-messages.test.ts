import { describe, expect, test } from 'vitest';
import { fieldMessage, fieldName, plainMessage } from './field-messages.ts';

describe('validation errors as a person reads them', () => {
  test('fields by their names in words', () => {
    expect(fieldName('email')).toBe('Email');
    expect(fieldName('default_retention_days')).toBe('Default retention days');
    expect(fieldName('questions/0/text')).toBe('Questions 1 text');
    expect(fieldName('limit')).toBe('Limit');
    expect(fieldName('body')).toBe('The request');
  });

  test("the schema's phrases in plain English; others as written", () => {
    expect(plainMessage('must match format "email"')).toBe('must be an e-mail address');
    expect(plainMessage('must NOT have fewer than 1 characters')).toBe('must not be empty');
    expect(plainMessage('must NOT have fewer than 8 characters')).toBe('must be at least 8 characters');
    expect(plainMessage('must be >= 1')).toBe('must be at least 1');
    expect(plainMessage("must have required property 'workspace_name'")).toBe('needs workspace name');
    expect(plainMessage('must be between 1 and 3650')).toBe('must be between 1 and 3650');
    expect(fieldMessage({ path: 'email', message: 'must match format "email"' })).toBe('Email: must be an e-mail address');
  });

  test('writes URL and ID in capitals, and tells a person, not a setting, who can allow a private address', () => {
    expect(fieldMessage({ path: 'url', message: 'must reach a public address (127.0.0.1 is not; an operator may allow private addresses with HARK_ALLOW_PRIVATE_ADDRESSES=1)' })).toBe(
      'URL: must reach a public address (127.0.0.1 is not; the operator of this Hark server can allow private addresses)',
    );
    expect(fieldName('recording_ids/2')).toBe('Recording IDs 3');
  });
});
