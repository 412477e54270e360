// The global styles come first so each feature's own stylesheet, imported with its pages, follows them.
import './base.css';
import '../ui/ui.css';
import './app.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiProvider, SessionProvider } from '../auth/auth';
import { ToastProvider } from '../ui/Toasts';
import { NotificationsProvider } from '../dashboard/notifications';
import { createQueryClient } from './queryClient';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiProvider queryClient={queryClient}>
        <SessionProvider>
          <ToastProvider>
            <NotificationsProvider>
              <App />
            </NotificationsProvider>
          </ToastProvider>
        </SessionProvider>
      </ApiProvider>
    </QueryClientProvider>
  </StrictMode>,
);
