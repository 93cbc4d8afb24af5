import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { supportChatMachine } from '../../../../machines/supportChat.machine';
import { useFlows } from '../../../hooks/appContext';
import { useFlowActor } from '../../../hooks/useFlowActor';
import { isLiveChatConfigured, loadLiveChat, maximizeLiveChat } from './liveChat';
import { site } from '../../../config/site';

/** The chat machine wired to the configured provider's widget. */
const liveChatFlow = supportChatMachine.provide({
  actors: { loadWidget: fromPromise(() => loadLiveChat()) },
  actions: { maximizeWidget: () => maximizeLiveChat() },
  guards: { configured: () => isLiveChatConfigured() },
});

export function SupportTab() {
  const chat = useFlowActor(useFlows().supportChat ?? liveChatFlow);
  const state = useSelector(chat, (snapshot) => snapshot.value);
  const emailLink = <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>;

  return (
    <section className="profile-card" aria-label="Support">
      <h2>Support</h2>
      <p>
        Our team is here {site.supportHours}. Chat with us, or write to {emailLink}.
      </p>
      {state === 'notConfigured' ? (
        <p role="status" className="alert alert--error">
          Live chat is not available on this site. Please email us at {emailLink}.
        </p>
      ) : state === 'unavailable' ? (
        <p role="alert" className="alert alert--error">
          The live chat could not be loaded. Please try again, or email us at {emailLink}.
        </p>
      ) : state === 'open' ? (
        <p role="status" className="alert alert--success">
          The chat window is open.
        </p>
      ) : null}
      {state !== 'notConfigured' && (
        <button
          type="button"
          className="button button--primary"
          disabled={state === 'loading'}
          onClick={() => chat.send({ type: 'chat.requested' })}
        >
          {state === 'loading' ? 'Opening chat...' : 'Chat with Support'}
        </button>
      )}
    </section>
  );
}
