// Every scope an API key can hold (the specification's five plus CONTRACT.md's), and what each role
// in a workspace holds. Managing the workspace itself (settings, members) goes with `keys:manage`:
// whoever can mint keys already administers the workspace.
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

export const roles = ['owner', 'member', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** Roles map onto scopes: owner everything, member all but keys, webhooks and people, viewer reads. */
export const roleScopes: Record<Role, readonly Scope[]> = {
  owner: scopes,
  member: scopes.filter((s) => s !== 'keys:manage' && s !== 'webhooks:manage'),
  viewer: ['recordings:read', 'transcripts:read', 'analysis:read', 'reports:read'],
};
