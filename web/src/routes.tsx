// Every page has its own URL; each page's code loads when it is first opened.
import { createBrowserRouter, Navigate } from 'react-router';
import { Home } from './pages/Home.tsx';
import { RouteError } from './components/RouteError.tsx';
import { onNewPage, prefetchRecording, prefetchRecordings } from './api/prefetch.ts';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** What a page shows while its code loads on the first visit: nothing (it takes a moment), said to the router so it does not warn. */
const Loading = () => null;

export const router = createBrowserRouter([
  { path: '/', element: <Home />, errorElement: <RouteError /> },
  { path: '/sign-in', HydrateFallback: Loading, lazy: page(() => import('./pages/SignIn.tsx')), errorElement: <RouteError /> },
  { path: '/sign-up', HydrateFallback: Loading, lazy: page(() => import('./pages/SignUp.tsx')), errorElement: <RouteError /> },
  { path: '/invite/:token', HydrateFallback: Loading, lazy: page(() => import('./pages/Invite.tsx')), errorElement: <RouteError /> },
  {
    path: '/w/:workspaceId',
    HydrateFallback: Loading,
    lazy: page(() => import('./components/WorkspaceLayout.tsx')),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="recordings" replace /> },
      { path: 'recordings', loader: prefetchRecordings, shouldRevalidate: onNewPage, lazy: page(() => import('./pages/Recordings.tsx')) },
      { path: 'recordings/:recordingId', loader: prefetchRecording, shouldRevalidate: onNewPage, lazy: page(() => import('./pages/Recording.tsx')) },
      { path: 'scenarios', lazy: page(() => import('./pages/Scenarios.tsx')) },
      { path: 'scenarios/analysis/:scenarioId', lazy: page(() => import('./pages/AnalysisScenario.tsx')) },
      { path: 'scenarios/analysis/:scenarioId/answers', lazy: page(() => import('./pages/Answers.tsx')) },
      { path: 'scenarios/transcription/:scenarioId', lazy: page(() => import('./pages/TranscriptionScenario.tsx')) },
      { path: 'executions', lazy: page(() => import('./pages/Executions.tsx')) },
      { path: 'search', lazy: page(() => import('./pages/Search.tsx')) },
      { path: 'reports', lazy: page(() => import('./pages/Reports.tsx')) },
      { path: 'categories', lazy: page(() => import('./pages/Categories.tsx')) },
      { path: 'settings', lazy: page(() => import('./pages/Settings.tsx')) },
    ],
  },
  { path: '*', HydrateFallback: Loading, lazy: page(() => import('./pages/NotFound.tsx')) },
]);
