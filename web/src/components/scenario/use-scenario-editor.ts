// What both scenario pages (transcription and analysis) do around their forms: read the scenario,
// keep an editable draft of it, save the draft (the saved card replaces the cached one, the lists
// are refreshed, "Saved." is shown) and delete it (back to the scenarios).
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

interface Options<S, K extends readonly unknown[]> {
  workspaceId: string;
  /** The scenario's query (queries.transcriptionScenario / queries.analysisScenario). */
  query: UseQueryOptions<S, Error, S, K> & { queryKey: K };
  /** The list the scenario is in, refreshed after a save or a delete. */
  listKey: readonly unknown[];
  patch: (draft: S) => Promise<S>;
  remove: () => Promise<unknown>;
}

export function useScenarioEditor<S, K extends readonly unknown[]>({ workspaceId, query, listKey, patch, remove }: Options<S, K>) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const scenario = useQuery(query);
  const [draft, setDraft] = useState<S | null>(null);
  useEffect(() => {
    if (scenario.data) setDraft(scenario.data);
  }, [scenario.data]);
  const save = useMutation({
    mutationFn: patch,
    onSuccess: async (saved) => {
      client.setQueryData<S>(query.queryKey, saved);
      await client.invalidateQueries({ queryKey: listKey });
      notifications.show({ color: 'green', message: 'Saved.' });
    },
  });
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKey });
      navigate(`/w/${workspaceId}/scenarios`);
    },
  });
  const set = (change: Partial<S>) => setDraft((current) => (current ? { ...current, ...change } : current));
  return { scenario, draft, set, save, remove: removal };
}
