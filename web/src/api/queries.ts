// Queries several pages share.
import { useQuery } from '@tanstack/react-query';
import { api, ok } from './client.ts';

export function useTranscriptionScenarios(workspaceId: string) {
  return useQuery({
    queryKey: ['transcription-scenarios', workspaceId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-scenarios', { params: { path: { workspace_id: workspaceId } } })),
  });
}

export function useAnalysisScenarios(workspaceId: string) {
  return useQuery({
    queryKey: ['analysis-scenarios', workspaceId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-scenarios', { params: { path: { workspace_id: workspaceId } } })),
  });
}

export function useEngines(workspaceId: string) {
  return useQuery({
    queryKey: ['engines', workspaceId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/engines', { params: { path: { workspace_id: workspaceId } } })),
    staleTime: 5 * 60_000,
  });
}

export const activeRun = (status: string) => status === 'queued' || status === 'running';

export function useMetadataFields(workspaceId: string) {
  return useQuery({
    queryKey: ['metadata-fields', workspaceId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/metadata-fields', { params: { path: { workspace_id: workspaceId } } })),
    staleTime: 60_000,
  });
}

export function useCategories(workspaceId: string) {
  return useQuery({
    queryKey: ['categories', workspaceId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/categories', { params: { path: { workspace_id: workspaceId } } })),
  });
}
