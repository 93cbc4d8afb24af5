import { useId, type FormEvent } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { passwordLogInMachine } from '../../../machines/passwordLogIn.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
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
  const logIn = useFlowActor(useFlows().passwordLogIn ?? passwordLogInMachine, { input: { auth } });
  const loggingIn = useSelector(logIn, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(logIn, (snapshot) => snapshot.context.error);
  const secondStep = useSelector(logIn, (snapshot) => snapshot.children.secondFactor);
  // After the second step's Back: the identifier as it was typed.
  const identifier = useSelector(logIn, (snapshot) => snapshot.context.identifier);
  const identifierId = useId();
  const rememberId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { identifier, password } = formValues(event.currentTarget, ['identifier', 'password'] as const);
    logIn.send({ type: 'login.submitted', identifier, password, returnTo: from ?? '/' });
  };

  // The password was right and two-factor is on: the code comes next, on this page.
  if (secondStep) return <SecondFactorStep step={secondStep} />;

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Log In</h1>
        <p className="auth-card__lead">Welcome back to {site.brand}.</p>
        <AuthMessages auth={auth} error={error} />
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
