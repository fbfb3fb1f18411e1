import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { statusOf } from './api/errors';
import { router } from './app/router';
import notificationClasses from './app/notifications.module.css';
import { cssVariablesResolver, themeFor } from './app/theme';
import { I18nProvider, useI18n } from './i18n/i18n';
import { SessionProvider } from './session/session';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not change by asking again.
      retry: (count, error) => { const status = statusOf(error); return (status === null || status >= 500) && count < 2; },
    },
  },
});

const colorSchemeManager = localStorageColorSchemeManager();

/** Mantine's theme carries translated labels (close buttons), so it follows the language. */
function App() {
  const { t } = useI18n();
  const theme = useMemo(() => themeFor(t), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <ModalsProvider>
            <Notifications position="top-center" classNames={notificationClasses} />
            <RouterProvider router={router} />
          </ModalsProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <App />
    </I18nProvider>
  </StrictMode>,
);
