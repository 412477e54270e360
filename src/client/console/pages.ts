import type { ComponentType } from 'react';
import { lazyPage } from '../app/lazyPage';

/**
 * The console's pages, in nav order. A page is its own chunk inside the console (loaded
 * on first visit). To add one: write `src/client/console/<Name>.tsx` exporting a
 * component of that name taking no props, and point its entry's `page` at it.
 * `path` is relative to /console ('/' is the Overview).
 */
/** `nav: false`: a page reached from another (a customer's profile), not from the nav. */
export type ConsolePage = { path: string; label: string; page: ComponentType | null; nav?: boolean };

export const CONSOLE_PAGES: ConsolePage[] = [
  { path: '/', label: 'Overview', page: lazyPage(() => import('./Overview'), 'Overview') },
  { path: '/fleet', label: 'Fleet', page: lazyPage(() => import('./Fleet'), 'Fleet') },
  { path: '/catalog', label: 'Catalog', page: lazyPage(() => import('./Catalog'), 'Catalog') },
  { path: '/upgrades', label: 'Upgrades', page: lazyPage(() => import('./Upgrades'), 'Upgrades') },
  { path: '/customers', label: 'Customers', page: lazyPage(() => import('./Customers'), 'Customers') },
  { path: '/customers/:id', label: 'Customer', page: lazyPage(() => import('./Customer'), 'Customer'), nav: false },
  { path: '/money', label: 'Money', page: lazyPage(() => import('./Money'), 'Money') },
  { path: '/settings', label: 'Settings', page: lazyPage(() => import('./Settings'), 'Settings') },
  { path: '/log', label: 'Log', page: lazyPage(() => import('./Log'), 'Log') },
  { path: '/support', label: 'Support', page: lazyPage(() => import('./Support'), 'Support') },
];
