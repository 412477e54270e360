import { useSyncExternalStore } from 'react';

/**
 * What the header's launcher and the lazily loaded chat share: whether the chat's code is
 * here (the launcher shows only then, so a chat that cannot load leaves no dead button)
 * and whether its panel is open. Module state, so it outlives a layout's remount on navigation.
 */
type LauncherState = { available: boolean; open: boolean };

let state: LauncherState = { available: false, open: false };
const listeners = new Set<() => void>();

function set(next: Partial<LauncherState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export const chatLauncher = {
  get: () => state,
  setOpen: (open: boolean) => set({ open }),
  setAvailable: (available: boolean) => set(available ? { available } : { available, open: false }),
  /** The launcher's id: the panel names it (aria-controls) and gives it the focus back on close. */
  buttonId: 'support-launcher',
  panelId: 'support-panel',
};

export function useChatLauncher(): LauncherState {
  return useSyncExternalStore(subscribe, chatLauncher.get, chatLauncher.get);
}
