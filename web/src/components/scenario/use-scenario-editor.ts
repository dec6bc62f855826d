// What both scenario pages (transcription and analysis) do around their forms: read the scenario,
// keep an editable draft of it, save the draft (the saved card replaces the cached one, the lists
// are refreshed, "Saved." is shown) and delete it (back to the scenarios).
//
// A draft is saved as an edit of the version it was started from. When the scenario is saved
// elsewhere meanwhile (another tab, "Means yes" on a recording), the save is refused and the draft
// is kept: the page offers to load the saved version or to save the draft over it. A refetch never
// replaces a draft that has changes. Leaving the page (a link, the back button, closing the tab)
// with changes not saved asks first.
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';

interface Versioned {
  id: string;
  version: number;
}

interface Options<S extends Versioned, K extends readonly unknown[]> {
  workspaceId: string;
  /** The scenario's query (queries.transcriptionScenario / queries.analysisScenario). */
  query: UseQueryOptions<S, Error, S, K> & { queryKey: K };
  /** The list the scenario is in, refreshed after a save or a delete. */
  listKey: readonly unknown[];
  /** Saves a draft as an edit of `draft.version`. */
  patch: (draft: S) => Promise<S>;
  remove: () => Promise<unknown>;
}

/** A draft and the scenario it was started from (the same object until the first change). */
interface Edit<S> {
  base: S;
  draft: S;
}

export const changedElsewhere = (error: unknown): boolean => error instanceof ApiError && error.problem.code === 'scenario_changed';

export function useScenarioEditor<S extends Versioned, K extends readonly unknown[]>({ workspaceId, query, listKey, patch, remove }: Options<S, K>) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const scenario = useQuery(query);
  const [edit, setEdit] = useState<Edit<S> | null>(null);
  useEffect(() => {
    const data = scenario.data;
    // A draft with changes stays, unless it is another scenario's (the page was reused for another).
    if (data) setEdit((current) => (!current || current.draft === current.base || current.base.id !== data.id ? { base: data, draft: data } : current));
  }, [scenario.data]);
  const save = useMutation({
    mutationFn: patch,
    onSuccess: async (saved) => {
      setEdit({ base: saved, draft: saved });
      client.setQueryData<S>(query.queryKey, saved);
      await client.invalidateQueries({ queryKey: listKey });
      notifications.show({ color: 'green', message: 'Saved.' });
    },
    onError: async (error) => {
      if (changedElsewhere(error)) await client.invalidateQueries({ queryKey: query.queryKey });
    },
  });
  // Set once the scenario is deleted: its draft is nothing to keep.
  const gone = useRef(false);
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      gone.current = true;
      await client.invalidateQueries({ queryKey: listKey });
      navigate(`/w/${workspaceId}/scenarios`);
    },
  });
  const dirty = edit !== null && edit.draft !== edit.base;
  // A save under way is not "changes not saved".
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !gone.current && !save.isPending && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers before the standard (Safari, older Chrome) ask only when this is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  const set = (change: Partial<S>) => setEdit((current) => (current ? { ...current, draft: { ...current.draft, ...change } } : current));
  const latest = scenario.data;
  /** The scenario was saved elsewhere since this draft was started, and the draft has changes. */
  const stale = edit !== null && latest !== undefined && edit.draft !== edit.base && latest.version !== edit.base.version;
  return {
    scenario,
    draft: edit?.draft ?? null,
    set,
    /** Saves the draft as an edit of the version it was started from. */
    // A refusal the page shows as `stale` is not shown again as an error; one it cannot (the
    // scenario could not be read again) is.
    save: { mutate: (after?: { onSuccess?: () => void }, change?: Partial<S>) => edit && save.mutate({ ...edit.draft, ...change }, after), isPending: save.isPending, error: changedElsewhere(save.error) && stale ? null : save.error },
    remove: removal,
    stale,
    /** A navigation waiting on the person (changes not saved): LeaveUnsaved asks them. */
    blocker,
    /** Drops the draft's changes for the scenario as it is saved now. */
    reload: () => {
      if (latest) setEdit({ base: latest, draft: latest });
      save.reset();
    },
    /** Saves the draft over what was saved elsewhere. */
    overwrite: () => {
      if (edit && latest) save.mutate({ ...edit.draft, version: latest.version });
    },
  };
}
