import { getRouteApi } from '@tanstack/react-router';

const profileRoute = getRouteApi('/profile');

/** Shows who is logged in until the profile area (its own issue) lands. */
export function ProfilePage() {
  const user = profileRoute.useLoaderData();
  return (
    <section className="page page--narrow">
      <h1>Profile</h1>
      <p>
        Logged in as <strong>{user.username}</strong> ({user.email}).
      </p>
      <p className="placeholder__badge">Placeholder page: the profile area is coming soon.</p>
    </section>
  );
}
