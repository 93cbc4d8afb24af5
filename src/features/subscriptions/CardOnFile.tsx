import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import { describeCard } from './format';
import { RetryAlert } from './RetryAlert';

/** Issue 21: which card the member's payments are taken from, as the gateway keeps it; nothing before one is saved. */
export function CardOnFile({ flow }: { flow: ActorRefFrom<typeof cardOnFileMachine> }) {
  const card = useSelector(flow, (snapshot) => snapshot.context.card);
  const error = useSelector(flow, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));

  if (error) return <RetryAlert message={error} onRetry={() => flow.send({ type: 'card.retried' })} />;
  return card && <p className="card-on-file">Card on file: {describeCard(card)}</p>;
}
