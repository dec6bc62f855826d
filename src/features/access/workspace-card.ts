// JSON cards of workspaces, their members and browser sessions.
import { Type } from '@sinclair/typebox';
import { roles, type Role } from '../../scopes.ts';
import { DateTime, Nullable, StringEnum } from '../../http/schemas/schema-types.ts';
import type { Workspace } from './workspaces.ts';


export const WorkspaceCard = Type.Object(
  {
    id: Type.String({ description: 'ws-<uuid>' }),
    name: Type.String(),
    plan: Nullable(Type.String({ description: 'Set by an operator; null while on the trial' })),
    trial_ends_at: DateTime,
    trial_days_left: Type.Integer({ description: 'Whole days until the trial ends (0 once ended, or with a plan)' }),
    default_retention_days: Nullable(Type.Integer({ description: 'Retention of new recordings that give none; null: the server default' })),
    retention: Type.Object(
      {
        default_days: Type.Integer({ description: 'The days a new recording that gives none is kept: default_retention_days, or the server default' }),
        server_default_days: Type.Integer({ description: 'The server\'s default, which applies while default_retention_days is null' }),
        min_days: Type.Integer({ description: 'The fewest days retention_days may be (the server\'s range)' }),
        max_days: Type.Integer({ description: 'The most days retention_days may be (the server\'s range)' }),
      },
      { description: 'What retention_days means here: the default a new recording gets and the range the server takes' },
    ),
    role: Nullable(StringEnum(roles, { description: 'The signed-in account\'s role; null for an API key' })),
    created_at: DateTime,
  },
  { $id: 'Workspace' },
);

/** The server's retention settings (config.retention). */
export interface RetentionRange {
  defaultDays: number;
  minDays: number;
  maxDays: number;
}

export function presentWorkspace(workspace: Workspace, role: Role | null, range: RetentionRange, now = Date.now()) {
  const left = workspace.plan === null ? Math.max(0, Math.ceil((workspace.trial_ends_at.getTime() - now) / 86_400_000)) : 0;
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    trial_ends_at: workspace.trial_ends_at,
    trial_days_left: left,
    default_retention_days: workspace.default_retention_days,
    retention: { default_days: workspace.default_retention_days ?? range.defaultDays, server_default_days: range.defaultDays, min_days: range.minDays, max_days: range.maxDays },
    role,
    created_at: workspace.created_at,
  };
}

export const MemberCard = Type.Object(
  { account_id: Type.String(), email: Type.String(), role: StringEnum(roles), created_at: DateTime },
  { $id: 'Member' },
);

export const SessionCard = Type.Object(
  {
    account: Type.Object({ id: Type.String(), email: Type.String() }),
    csrf_token: Type.String({ description: 'Send in the X-CSRF-Token header with every write made with the session cookie' }),
    expires_at: DateTime,
    workspaces: Type.Array(WorkspaceCard),
  },
  { $id: 'Session' },
);
