import { Link, useRouterState } from '@tanstack/react-router';

// Pages whose own issues are still open. Each entry goes when its page lands.
const pendingPages: Array<{ pattern: RegExp; title: string; arrivesWith: string }> = [
  { pattern: /^\/about$/, title: 'About', arrivesWith: 'the marketing site' },
  { pattern: /^\/company-details$/, title: 'Company Details', arrivesWith: 'the marketing site' },
  { pattern: /^\/features$/, title: 'Features', arrivesWith: 'the marketing site' },
  { pattern: /^\/contact$/, title: 'Contact', arrivesWith: 'the marketing site' },
  { pattern: /^\/privacy-policy$/, title: 'Privacy Policy', arrivesWith: 'the legal pages' },
  { pattern: /^\/terms$/, title: 'Terms and Conditions', arrivesWith: 'the legal pages' },
  { pattern: /^\/refund-policy$/, title: 'Refund Policy', arrivesWith: 'the legal pages' },
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
