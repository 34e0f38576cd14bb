import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import { warmUpIntl } from './app/warm-up-intl.ts';
import { registerServiceWorker } from './lib/register-service-worker.ts';
import { languageOfLocale } from './i18n/languages.ts';
import { activateLanguage, startingLanguage } from './i18n/load-language.ts';
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

const root = document.getElementById('root');

function render(): void {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

// The first paint is in one language: the one last shown here (or the browser's) until the profile says.
const language = startingLanguage(languageOfLocale);
void activateLanguage(language).finally(render);
warmUpIntl(language);

registerServiceWorker();
