import { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { passwordResetMachine } from '../../machines/passwordReset.machine';

/** Page-level flow machines, carried in the router context so tests can provide doubles. */
export const defaultFlows = {
  passwordReset: passwordResetMachine,
  deleteAccount: deleteAccountMachine,
};

export type Flows = typeof defaultFlows;
