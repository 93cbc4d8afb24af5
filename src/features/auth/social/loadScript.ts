import { withTimeout } from '../../../../machines/rules/withTimeout';

const loaded = new Map<string, Promise<void>>();

/** Adds a provider's script once; rejects when it cannot be fetched. */
export function loadScript(src: string, timeoutMs: number, failureMessage: string): Promise<void> {
  const existing = loaded.get(src);
  if (existing) return existing;
  const loading = withTimeout(
    new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        script.remove();
        reject(new Error(failureMessage));
      };
      document.head.append(script);
    }),
    timeoutMs,
    failureMessage,
  ).catch((error: unknown) => {
    loaded.delete(src);
    throw error;
  });
  loaded.set(src, loading);
  return loading;
}
