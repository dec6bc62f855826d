// Settings: the workspace, API keys, webhooks and people (keys and webhooks are the owner's), and
// the signed-in account's password.
import { Divider, Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AccountSettings } from '../components/settings/AccountSettings.tsx';
import { KeySettings } from '../components/settings/KeySettings.tsx';
import { MemberSettings } from '../components/settings/MemberSettings.tsx';
import { WebhookSettings } from '../components/settings/WebhookSettings.tsx';
import { WorkspaceSettings } from '../components/settings/WorkspaceSettings.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { can } from '../session.tsx';
import { usePageTitle } from '../components/PageTitle.ts';

export default function Settings() {
  const workspace = useWorkspace();
  usePageTitle('Settings', workspace.name);
  const [search, setSearch] = useSearchParams();
  const owner = can.manage(workspace.role);
  const tab = search.get('tab') ?? 'workspace';
  return (
    <Stack>
      <Title order={1}>Settings</Title>
      <Tabs value={tab} onChange={(v) => setSearch(v && v !== 'workspace' ? { tab: v } : {})} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="workspace">Workspace</Tabs.Tab>
          {owner && <Tabs.Tab value="keys">API keys</Tabs.Tab>}
          {owner && <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>}
          <Tabs.Tab value="people">People</Tabs.Tab>
          <Tabs.Tab value="account">Your account</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="workspace" pt="md">
          <WorkspaceSettings key={workspace.id} workspace={workspace} />
        </Tabs.Panel>
        {owner && (
          <Tabs.Panel value="keys" pt="md">
            <KeySettings workspaceId={workspace.id} />
          </Tabs.Panel>
        )}
        {owner && (
          <Tabs.Panel value="webhooks" pt="md">
            <WebhookSettings workspaceId={workspace.id} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="people" pt="md">
          <MemberSettings workspace={workspace} />
        </Tabs.Panel>
        <Tabs.Panel value="account" pt="md">
          <AccountSettings />
        </Tabs.Panel>
      </Tabs>
      <Divider />
    </Stack>
  );
}
