import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** False in prerendered HTML and while hydrating, true once React runs the page. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
