import { useId, type FormEvent } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { passwordResetMachine } from '../../../machines/passwordReset.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';
import { useHydrated } from '../../hooks/useHydrated';

const resetPasswordRoute = getRouteApi('/reset-password');

export function ResetPasswordPage() {
  // Prerendered: until the app takes over, a submit would be a plain page request, so wait.
  const hydrated = useHydrated();
  usePageHead({ title: pageTitle('Reset Password'), description: `Reset the password of your ${site.brand} account.` });
  const { code } = resetPasswordRoute.useSearch();
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().passwordReset ?? passwordResetMachine, { input: { code, auth } });
  const step = useSelector(flow, (snapshot) => (snapshot.matches('codeEntry') || snapshot.matches('done') ? 2 : 1));
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const email = useSelector(flow, (snapshot) => (snapshot.context.codeSent ? snapshot.context.email : null));
  const prefilledCode = useSelector(flow, (snapshot) => snapshot.context.code);
  const emailId = useId();
  const codeId = useId();

  const requestCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    flow.send({ type: 'email.submitted', ...formValues(event.currentTarget, ['email'] as const) });
  };
  const reset = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    flow.send({ type: 'reset.submitted', ...formValues(event.currentTarget, ['code', 'password', 'passwordConfirmation'] as const) });
  };

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Reset Password</h1>
        {step === 1 ? (
          <>
            <p className="auth-card__lead">Enter the email of your account and we will send you a reset code.</p>
            <FormMessages error={error} />
            <form key="request" method="post" onSubmit={requestCode} noValidate aria-busy={busy}>
              <div className="field">
                <label htmlFor={emailId}>Email</label>
                <input id={emailId} name="email" type="email" autoComplete="email" />
              </div>
              <button type="submit" className="button button--primary button--block" disabled={busy || !hydrated}>
                {busy ? 'Sending...' : 'Send Reset Code'}
              </button>
            </form>
          </>
        ) : (
          <>
            <p className="auth-card__lead">Enter the code from the email and choose a new password.</p>
            <FormMessages
              error={error}
              notice={email ? `If an account exists for ${email}, a reset code is on its way. Check your inbox.` : null}
            />
            <form key="reset" method="post" onSubmit={reset} noValidate aria-busy={busy}>
              <div className="field">
                <label htmlFor={codeId}>Reset Code</label>
                <input id={codeId} name="code" autoComplete="one-time-code" defaultValue={prefilledCode} />
              </div>
              <PasswordField label="New Password" name="password" autoComplete="new-password" />
              <PasswordField label="Confirm New Password" name="passwordConfirmation" autoComplete="new-password" />
              <button type="submit" className="button button--primary button--block" disabled={busy || !hydrated}>
                {busy ? 'Resetting...' : 'Reset Password'}
              </button>
            </form>
            <button type="button" className="link-button" disabled={busy} onClick={() => flow.send({ type: 'code.requestedAgain' })}>
              Send a new code
            </button>
          </>
        )}
        <p className="auth-card__links">
          <Link to="/login">Back to Log In</Link>
        </p>
      </div>
    </section>
  );
}
