// Every scope an API key can hold (the specification's five plus CONTRACT.md's).
export const scopes = [
  'recordings:read',
  'recordings:write',
  'transcripts:read',
  'transcripts:write',
  'analysis:read',
  'analysis:write',
  'scenarios:write',
  'reports:read',
  'webhooks:manage',
  'keys:manage',
] as const;

export type Scope = (typeof scopes)[number];
