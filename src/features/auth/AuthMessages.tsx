import { useSelector } from '@xstate/react';
import type { AuthActorRef } from '../../../machines/authSession.machine';
import { FormMessages } from '../../components/form/FormMessages';

/** A sign-in form's error, under the auth actor's green notice (why the person was sent to /login). */
export function AuthMessages({ auth, error }: { auth: AuthActorRef; error: string | null }) {
  const notice = useSelector(auth, (snapshot) => snapshot.context.notice);
  return <FormMessages error={error} notice={notice} />;
}
