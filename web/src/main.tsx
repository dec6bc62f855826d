// Hark's web interface: providers (theme, data cache, notifications) and the router.
// The styles of the date pickers, charts and drop zone load with the pages that use them.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Alert, Anchor, Badge, createTheme, Notification, defaultVariantColorsResolver, parseThemeColor, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './routes.tsx';
import { queries } from './api/queries.ts';
import { queryClient } from './api/query-client.ts';

// Shades dark enough for text on white to meet WCAG AA contrast (4.5:1).
// Links are underlined, so they do not rely on colour alone.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Light and subtle buttons and badges write their text in the darkest shade, so it stays above
  // 4.5:1 on their tinted and hovered backgrounds.
  variantColorResolver: (input) => {
    const colors = defaultVariantColorsResolver(input);
    if (input.variant !== 'light' && input.variant !== 'subtle') return colors;
    const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
    if (!parsed.isThemeColor) return colors;
    const dark = `var(--mantine-color-${parsed.color}-9)`;
    return { ...colors, color: dark, hoverColor: dark, hover: `var(--mantine-color-${parsed.color}-1)` };
  },
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Text on tinted backgrounds stays near-black: Mantine's coloured text there is below 4.5:1
    // (the tint, the border and the words carry the meaning).
    Alert: Alert.extend({ vars: () => ({ root: { '--alert-color': 'var(--mantine-color-gray-9)' } }) }),
    Badge: Badge.extend({ defaultProps: { variant: 'light' }, vars: () => ({ root: { '--badge-color': 'var(--mantine-color-gray-9)' } }) }),
    // Select, MultiSelect and Autocomplete mount their option lists when opened, not with the page:
    // a list kept mounted (Mantine's default) is positioned at mount, each forcing a layout.
    // (A plain entry, so the entry chunk does not import the combobox.)
    Combobox: { defaultProps: { keepMounted: false } },
    // A table wider than the screen shows its scrollbar whenever it overflows (Mantine's default shows
    // it on hover, which a phone never does: a clipped table looked complete).
    TableScrollContainer: { defaultProps: { scrollAreaProps: { type: 'auto' } } },
    // A notification's close button is an icon: it needs a name.
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
    // "Show password" is reached with Tab too (Mantine leaves it to the mouse), as every control is.
    PasswordInput: { defaultProps: { visibilityToggleFocusable: true } },
  },
});
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  // A field's error (and its border) in a red dark enough to read as text on white.
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-placeholder': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

// A workspace page needs the session first: asked for now, beside the page's code, not after it.
if (window.location.pathname.startsWith('/w/')) void queryClient.prefetchQuery(queries.session());

// The first render is a transition: React renders it in slices and lets the browser breathe between them.
startTransition(() => createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
));
