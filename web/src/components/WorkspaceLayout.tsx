// The frame of every workspace page: header with the workspace switcher and the account menu,
// navigation, the trial banner, and the page.
import { MAIN_ID, SkipLink } from './SkipLink.tsx';
import { Alert, AppShell, Burger, Center, Group, Loader, Menu, NavLink, Select, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { Link, Navigate, NavLink as RouterLink, Outlet, ScrollRestoration, useLocation, useNavigate, useParams } from 'react-router';
import { api, ok } from '../api/client.ts';
import { setCsrfToken } from '../api/client.ts';
import { useSession, type WorkspaceInfo } from '../session.tsx';
import { ProblemAlert } from './Problem.tsx';
import { formatDate } from '../lib/dates.ts';

const WorkspaceContext = createContext<WorkspaceInfo | null>(null);

/** The workspace the current page is in, with the signed-in account's role. */
export function useWorkspace(): WorkspaceInfo {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside a workspace page');
  return workspace;
}

/**
 * Each section's last query string (its filters, sort, columns), so that leaving a page by the
 * sidebar and coming back finds it as it was. Kept for this tab only; a detail page's own query
 * (a search hit's ?t=) is not its section's.
 */
const lastSearch = new Map<string, string>();

function sectionLink(pathname: string, search: string, workspaceId: string, section: string): string {
  const [, w, id, current, detail] = pathname.split('/');
  if (w === 'w' && id === workspaceId && current === section && detail === undefined) lastSearch.set(`${workspaceId}/${section}`, search);
  return sectionHref(workspaceId, section);
}

/** A section as it was last left (a detail page's way back to its list, filters and columns kept). */
export function sectionHref(workspaceId: string, section: string): string {
  return `/w/${workspaceId}/${section}${lastSearch.get(`${workspaceId}/${section}`) ?? ''}`;
}

const sections = [
  ['recordings', 'Recordings'],
  ['search', 'Search'],
  ['scenarios', 'Scenarios'],
  ['executions', 'Executions'],
  ['reports', 'Reports'],
  ['categories', 'Categories'],
  ['settings', 'Settings'],
] as const;

function TrialBanner({ workspace }: { workspace: WorkspaceInfo }) {
  if (workspace.plan !== null) return null;
  if (workspace.trial_days_left <= 0) {
    return (
      <Alert color="red" title="Your trial has ended" mb="md" role="status">
        You can still read everything here, but new uploads and runs are refused until an operator sets a plan for this workspace.
      </Alert>
    );
  }
  return (
    <Alert color="blue" variant="light" mb="md" role="status" p="xs">
      Trial: {workspace.trial_days_left} {workspace.trial_days_left === 1 ? 'day' : 'days'} left (until {formatDate(workspace.trial_ends_at)}).
    </Alert>
  );
}

export default function WorkspaceLayout() {
  const { workspaceId } = useParams();
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  // On a phone the sections slide over the page: Escape closes them, as it closes a menu.
  useHotkeys(opened ? [['Escape', close]] : []);
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();

  if (session.isPending) {
    // The page's own header (#shell in index.html) stays above while the session is asked for.
    return (
      <Center h="100vh" data-frame-pending>
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (session.isError) return <ProblemAlert error={session.error} />;
  if (!session.data) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  const workspace = session.data.workspaces.find((w) => w.id === workspaceId);
  if (!workspace) return <Navigate to="/" replace />;

  const signOut = async () => {
    await ok(api.DELETE('/api/v1/sessions/current'));
    setCsrfToken(null);
    client.clear();
    navigate('/sign-in', { replace: true });
  };
  const section = location.pathname.split('/')[3] ?? 'recordings';

  return (
    <WorkspaceContext.Provider value={workspace}>
      <SkipLink />
      <AppShell header={{ height: 60 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" aria-expanded={opened} />
              <Text component={Link} to="/" fw={700} fz="lg" c="blue.8" td="none">
                Hark
              </Text>
              <Select
                aria-label="Workspace"
                data={session.data.workspaces.map((w) => ({ value: w.id, label: w.name }))}
                value={workspace.id}
                onChange={(id) => id && navigate(`/w/${id}/${section}`)}
                allowDeselect={false}
                w={{ base: 150, sm: 280 }}
                // A long name whole on hover where the field cuts it.
                title={session.data.workspaces.find((w) => w.id === workspace.id)?.name}
                comboboxProps={{ withinPortal: true }}
              />
            </Group>
            <Menu position="bottom-end">
              <Menu.Target>
                <UnstyledButton aria-label={`Account menu: ${session.data.account.email}`}>
                  <Text size="sm" truncate maw={{ base: 90, sm: 240 }}>
                    {session.data.account.email}
                  </Text>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>Role here: {workspace.role ?? 'API key'}</Menu.Label>
                <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label="Sections">
          {sections.map(([path, label]) => (
            <NavLink key={path} component={RouterLink} to={sectionLink(location.pathname, location.search, workspace.id, path)} label={label} active={section === path} onClick={close} />
          ))}
        </AppShell.Navbar>
        <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
          <TrialBanner workspace={workspace} />
          <Outlet />
          {/* Another page opens at its top (a call opened from a long table too); a page's own filters keep the place. */}
          <ScrollRestoration getKey={(at) => at.pathname} />
        </AppShell.Main>
      </AppShell>
    </WorkspaceContext.Provider>
  );
}
