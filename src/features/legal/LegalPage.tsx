import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { legalDocumentMachine } from '../../../machines/legalDocument.machine';
import { useFlows, usePrerendered } from '../../hooks/appContext';
import { useHydrated } from '../../hooks/useHydrated';
import { useFlowActor } from '../../hooks/useFlowActor';
import { LEGAL_LAST_UPDATED, legalDocuments, type LegalDocumentKind } from '../../../machines/rules/legalDocuments';
import { pageTitle } from '../../config/site';
import { LegalText, loadLegalText } from './legalText';
import { openSiteLink } from './siteLinks';
import { usePageHead } from '../../hooks/usePageHead';
import '../../styles/legal.css';

/** React leaves an element's inner HTML alone while hydrating it, and after, as long as this stays the same. */
const SERVER_HTML = { __html: '' };

const Loading = () => (
  <p className="spinner" role="status">
    <span className="spinner__wheel" aria-hidden="true" />
    Loading...
  </p>
);

export function LegalPage({ document: kind }: { document: LegalDocumentKind }) {
  const machine = useFlows().legalDocument ?? legalDocumentMachine;
  // The text in the page's HTML serves its first render only (on the server and while hydrating);
  // reached later inside the app, the page asks the server again.
  const prerendered = usePrerendered()?.legal;
  const hydrating = !useHydrated();
  const fromHtml = hydrating && prerendered?.kind === kind;
  const flow = useFlowActor(machine, { input: { document: kind, prerendered: fromHtml ? prerendered.document : undefined } });
  const router = useRouter();
  // Kept for the page's life: hydrated from its HTML, the page keeps the text the server rendered there.
  const [keepsHtml] = useState(fromHtml && !router.isServer);
  const status = useSelector(flow, (snapshot) => (snapshot.matches('loaded') ? 'loaded' : snapshot.matches('error') ? 'error' : 'loading'));
  const { title, content, error } = useSelector(flow, (snapshot) => snapshot.context);
  const retryButton = useRef<HTMLButtonElement>(null);
  const { pageName, description } = legalDocuments[kind];
  usePageHead({ title: pageTitle(pageName), description });

  useEffect(() => {
    if (status === 'error') retryButton.current?.focus({ preventScroll: true });
  }, [status]);
  // Reached inside the app, the page needs the markdown renderer: its chunk loads while the text does.
  useEffect(() => {
    if (!keepsHtml) loadLegalText().catch(() => {});
  }, [keepsHtml]);

  return (
    <article className="page page--narrow legal" aria-busy={status === 'loading'}>
      <p className="legal__back">
        <Link to="/">← Back to Home</Link>
      </p>
      <h1>{status === 'loaded' ? title : pageName}</h1>
      {status === 'loading' && <Loading />}
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
          {keepsHtml ? (
            // The text the server rendered stays as it is: parsing the markdown again to hydrate it was the
            // page's longest task (docs/public-pages.md#critical-path).
            <div
              className="legal__body"
              onClick={(event) => openSiteLink(event, router)}
              dangerouslySetInnerHTML={SERVER_HTML}
              suppressHydrationWarning
            />
          ) : (
            <div className="legal__body" onClick={(event) => openSiteLink(event, router)}>
              <Suspense fallback={<Loading />}>
                <LegalText>{content}</LegalText>
              </Suspense>
            </div>
          )}
        </>
      )}
    </article>
  );
}

export const PrivacyPolicyPage = () => <LegalPage document="privacyPolicy" />;
export const TermsPage = () => <LegalPage document="terms" />;
export const RefundPolicyPage = () => <LegalPage document="refundPolicy" />;
