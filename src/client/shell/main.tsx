// First: it configures zod before any schema module is evaluated.
import '../app/zod-config';
// The global styles come first so each feature's own stylesheet, imported with its pages, follows them.
import './base.css';
import '../ui/ui.css';
import './app.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiProvider, SessionProvider } from '../session/session';
import { ToastProvider } from '../ui/Toasts';
import { createQueryClient } from '../app/queryClient';
import { ErrorBoundary } from '../app/ErrorBoundary';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiProvider queryClient={queryClient}>
        <SessionProvider>
          <ToastProvider>
            {/* Last resort for the frame itself (top bar, menus); pages have their own. */}
            <ErrorBoundary home="/">
              <App />
            </ErrorBoundary>
          </ToastProvider>
        </SessionProvider>
      </ApiProvider>
    </QueryClientProvider>
  </StrictMode>,
);
