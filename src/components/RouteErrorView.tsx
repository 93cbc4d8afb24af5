import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { errorMessage } from '../../machines/services/errors';

/** Why something could not load, and Retry. */
export function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <>
      <p role="alert" className="alert alert--error">
        {errorMessage(error, 'This page could not be loaded.')}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </>
  );
}

/** Shown when a page's chunk or data fails to load; Retry loads it again. */
export function RouteErrorView({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const retry = () => {
    reset();
    void router.invalidate();
  };
  return (
    <section className="page page--narrow" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <LoadFailure error={error} onRetry={retry} />
    </section>
  );
}
