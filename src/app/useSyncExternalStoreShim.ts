// Stands in for the npm package use-sync-external-store/shim (see vite.config.ts): React 19 has it built in.
export { useSyncExternalStore } from 'react';
