// @ts-nocheck
import { useSelector } from '@xstate/react';
import type { AuthActorRef } from '../../../machines/authSession.machine';
import { FormMessages } from '../../components/form/FormMessages';

export function AuthMessages({ auth }: { auth: AuthActorRef }) {
  const error = useSelector(auth, (snapshot) => (snapshot.matches({ loggedOut: 'failure' }) ? snapshot.context.error : null));
  const notice = useSelector(auth, (snapshot) => snapshot.context.notice);
  return <FormMessages error={error} notice={notice} />;
}
