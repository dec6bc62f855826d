// The app's one query cache, shared by the providers (main.tsx) and the routes' prefetches.
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A client's mistake will not go away by asking again.
      retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
    },
  },
});
