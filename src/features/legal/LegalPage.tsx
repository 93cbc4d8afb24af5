import { useEffect, useRef } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { legalDocumentMachine } from '../../../machines/legalDocument.machine';
import { useFlows, usePrerendered } from '../../hooks/appContext';
import { useHydrated } from '../../hooks/useHydrated';
import { useFlowActor } from '../../hooks/useFlowActor';
import { LEGAL_LAST_UPDATED, legalDocuments, type LegalDocumentKind } from '../../../machines/rules/legalDocuments';
import { pageTitle } from '../../config/site';
import { SafeMarkdown } from './Markdown';
import { usePageHead } from '../../hooks/usePageHead';
import '../../styles/legal.css';

export function LegalPage({ document: kind }: { document: LegalDocumentKind }) {
  const machine = useFlows().legalDocument ?? legalDocumentMachine;
  // The text in the page's HTML serves its first render only (on the server and while hydrating);
  // reached later inside the app, the page asks the server again.
  const prerendered = usePrerendered()?.legal;
  const hydrating = !useHydrated();
  const flow = useFlowActor(machine, {
    input: { document: kind, prerendered: hydrating && prerendered?.kind === kind ? prerendered.document : undefined },
  });
  const status = useSelector(flow, (snapshot) => (snapshot.matches('loaded') ? 'loaded' : snapshot.matches('error') ? 'error' : 'loading'));
  const { title, content, error } = useSelector(flow, (snapshot) => snapshot.context);
  const retryButton = useRef<HTMLButtonElement>(null);
  const { pageName, description } = legalDocuments[kind];
  usePageHead({ title: pageTitle(pageName), description });

  useEffect(() => {
    if (status === 'error') retryButton.current?.focus({ preventScroll: true });
  }, [status]);

  return (
    <article className="page page--narrow legal" aria-busy={status === 'loading'}>
      <p className="legal__back">
        <Link to="/">← Back to Home</Link>
      </p>
      <h1>{status === 'loaded' ? title : pageName}</h1>
      {status === 'loading' && (
        <p className="spinner" role="status">
          <span className="spinner__wheel" aria-hidden="true" />
          Loading...
        </p>
      )}
      {status === 'error' && (
        <div className="legal__error">
          <p role="alert" className="alert alert--error">
            {error}
          </p>
          <button ref={retryButton} type="button" className="button button--primary" onClick={() => flow.send({ type: 'retry' })}>
            Retry
          </button>
        </div>
      )}
      {status === 'loaded' && (
        <>
          <p className="legal__updated">{LEGAL_LAST_UPDATED}</p>
          <div className="legal__body">
            <SafeMarkdown>{content}</SafeMarkdown>
          </div>
        </>
      )}
    </article>
  );
}

export const PrivacyPolicyPage = () => <LegalPage document="privacyPolicy" />;
export const TermsPage = () => <LegalPage document="terms" />;
export const RefundPolicyPage = () => <LegalPage document="refundPolicy" />;
