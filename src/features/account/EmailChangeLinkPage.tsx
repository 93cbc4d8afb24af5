import { Link, getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { emailChangeConfirmationMachine, type EmailChangeLink } from '../../../machines/emailChangeConfirmation.machine';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';
import { useHydrated } from '../../hooks/useHydrated';

const PAGES = {
  confirm: {
    route: getRouteApi('/email-change/confirm'),
    title: 'Confirm Your New Email',
    lead: 'Press the button to make this address the email of your account.',
    action: 'Confirm New Email',
    busy: 'Confirming...',
  },
  cancel: {
    route: getRouteApi('/email-change/cancel'),
    title: 'Cancel Email Change',
    lead: 'Press the button to cancel the change: your account keeps its current email.',
    action: 'Cancel Email Change',
    busy: 'Cancelling...',
  },
} as const;

/** The page a verified e-mail change's link opens; the flow is machines/emailChangeConfirmation.machine.ts. */
function EmailChangeLinkPage({ link }: { link: EmailChangeLink }) {
  const page = PAGES[link];
  const hydrated = useHydrated();
  usePageHead({ title: pageTitle(page.title), description: `${page.title} of your ${site.brand} account.` });
  const { token } = page.route.useSearch();
  const flow = useFlowActor(useFlows().emailChangeConfirmation ?? emailChangeConfirmationMachine, { input: { token, link } });
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const done = useSelector(flow, (snapshot) => snapshot.matches('confirmed'));
  const canSubmit = useSelector(flow, (snapshot) => snapshot.can({ type: 'link.submitted' }));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const message = useSelector(flow, (snapshot) => snapshot.context.message);

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>{page.title}</h1>
        <FormMessages error={error} notice={message} />
        {done ? (
          <p>
            <Link to={link === 'confirm' ? '/login' : '/'} className="button button--primary button--block">
              {link === 'confirm' ? 'Log In Now' : 'Back to Home'}
            </Link>
          </p>
        ) : (
          <>
            {(canSubmit || busy) && <p className="auth-card__lead">{page.lead}</p>}
            {(canSubmit || busy) && (
              <button
                type="button"
                className="button button--primary button--block"
                disabled={busy || !hydrated}
                onClick={() => flow.send({ type: 'link.submitted' })}
              >
                {busy ? page.busy : page.action}
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}

export function EmailChangeConfirmPage() {
  return <EmailChangeLinkPage link="confirm" />;
}

export function EmailChangeCancelPage() {
  return <EmailChangeLinkPage link="cancel" />;
}
