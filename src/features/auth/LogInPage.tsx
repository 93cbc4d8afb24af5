import { useId, type FormEvent } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useAuthActor } from '../../hooks/appContext';
import { pageTitle, site } from '../../config/site';
import { AuthMessages } from './AuthMessages';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { safeReturnPath } from '../../../machines/rules/returnPath';
import { SocialButtons } from './social/SocialButtons';
import { PasskeySignIn } from './PasskeySignIn';
import { usePageHead } from '../../hooks/usePageHead';
import { useHydrated } from '../../hooks/useHydrated';
import { SecondFactorStep } from './SecondFactorStep';

const logInRoute = getRouteApi('/login');

export function LogInPage() {
  // Prerendered: until the app takes over, a submit would be a plain page request, so wait.
  const hydrated = useHydrated();
  usePageHead({ title: pageTitle('Log In'), description: `Log in to your ${site.brand} account.` });
  const auth = useAuthActor();
  const { from } = logInRoute.useSearch();
  const loggingIn = useSelector(auth, (snapshot) => snapshot.matches({ loggedOut: 'loggingIn' }));
  const secondStep = useSelector(
    auth,
    (snapshot) =>
      snapshot.context.ticket !== null && (snapshot.matches({ loggedOut: 'secondFactor' }) || snapshot.matches({ loggedOut: 'loggingIn' })),
  );
  // After the second step's Back: the identifier as it was typed.
  const identifier = useSelector(auth, (snapshot) => snapshot.context.identifier);
  const identifierId = useId();
  const rememberId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { identifier, password } = formValues(event.currentTarget, ['identifier', 'password'] as const);
    auth.send({ type: 'login.submitted', identifier, password, returnTo: from ?? '/' });
  };

  // The password was right and two-factor is on: the code comes next, on this page.
  if (secondStep) return <SecondFactorStep auth={auth} />;

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Log In</h1>
        <p className="auth-card__lead">Welcome back to {site.brand}.</p>
        <AuthMessages auth={auth} />
        <form method="post" onSubmit={submit} aria-busy={loggingIn}>
          <div className="field">
            <label htmlFor={identifierId}>Email or Username</label>
            {/* "webauthn" last: the browser may offer the member's passkeys here (PasskeySignIn). */}
            <input id={identifierId} name="identifier" autoComplete="username webauthn" required defaultValue={identifier} />
          </div>
          <PasswordField label="Password" name="password" autoComplete="current-password" required />
          <div className="field field--inline">
            <input id={rememberId} name="remember" type="checkbox" />
            <label htmlFor={rememberId}>Remember Me</label>
          </div>
          <button type="submit" className="button button--primary button--block" disabled={loggingIn || !hydrated}>
            {loggingIn ? 'Logging In...' : 'Log In'}
          </button>
        </form>
        <div className="auth-card__divider">or</div>
        <PasskeySignIn returnTo={safeReturnPath(from)} />
        <SocialButtons returnTo={safeReturnPath(from)} />
        <p className="auth-card__links">
          <Link to="/reset-password">Reset Password</Link>
          <span>
            New here? <Link to="/signup">Sign Up</Link>
          </span>
          <Link to="/">Back to Home</Link>
        </p>
      </div>
    </section>
  );
}
