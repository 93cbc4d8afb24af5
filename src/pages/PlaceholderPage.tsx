import { Link, useRouterState } from '@tanstack/react-router';

// Pages whose own issues are still open. Each entry goes when its page lands.
const pendingPages: Array<{ pattern: RegExp; title: string; arrivesWith: string }> = [
  { pattern: /^\/auth\/[^/]+\/callback$/, title: 'Social Login', arrivesWith: 'social sign-in' },
];

/** A plainly labelled stand-in for a page that is not built yet. */
export function PlaceholderPage() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const page = pendingPages.find(({ pattern }) => pattern.test(pathname));
  return (
    <section className="page page--narrow placeholder">
      <h1>{page?.title ?? 'Coming soon'}</h1>
      <p className="placeholder__badge">Placeholder page</p>
      <p>
        This page is a placeholder: it is coming soon, together with {page?.arrivesWith ?? 'a later release'}.
      </p>
      <Link to="/">Back to Home</Link>
    </section>
  );
}
