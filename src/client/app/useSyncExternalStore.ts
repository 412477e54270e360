// React 18+ has useSyncExternalStore built in: wouter's import of the shim resolves here.
export { useSyncExternalStore } from 'react';
