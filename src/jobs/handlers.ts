// Every job kind this build runs, with its queue settings.
import type { Context } from '../context.ts';
import type { JobHandler } from './queue.ts';

export function jobHandlers(_ctx: Context): JobHandler<never>[] {
  return [];
}
