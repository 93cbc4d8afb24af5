import { fromPromise } from 'xstate';
import { isLiveChatConfigured, loadLiveChat, maximizeLiveChat } from '../features/profile/support/liveChat';
import { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import type { LegalDocumentMachine } from '../../machines/legalDocument.machine';
import { passwordChangeMachine } from '../../machines/passwordChange.machine';
import { passwordResetMachine } from '../../machines/passwordReset.machine';
import { photoUploadMachine } from '../../machines/photoUpload.machine';
import { profileSectionMachine } from '../../machines/profileSection.machine';
import { supportChatMachine } from '../../machines/supportChat.machine';

/** Page-level flow machines, carried in the router context so tests can provide doubles. */
export const defaultFlows = {
  passwordReset: passwordResetMachine,
  deleteAccount: deleteAccountMachine,
  profileSection: profileSectionMachine,
  photoUpload: photoUploadMachine,
  passwordChange: passwordChangeMachine,
  supportChat: supportChatMachine.provide({
    actors: { loadWidget: fromPromise(() => loadLiveChat()) },
    actions: { maximizeWidget: () => maximizeLiveChat() },
    guards: { configured: () => isLiveChatConfigured() },
  }),
};

/**
 * Flows whose default machine comes with its page's lazy chunk (the page falls back to it), so it
 * stays out of the entry bundle; tests still replace it through createApp({ flows }).
 */
type LazyFlows = {
  legalDocument?: LegalDocumentMachine;
};

export type Flows = typeof defaultFlows & LazyFlows;
