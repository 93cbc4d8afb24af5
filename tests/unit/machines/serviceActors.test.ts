import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic, type AnyStateMachine } from 'xstate';
import * as billing from '../../../machines/services/billing';
import * as account from '../../../machines/services/account';
import * as emailChange from '../../../machines/services/emailChange';
import * as users from '../../../machines/services/users';
import * as legal from '../../../machines/services/legal';
import * as passkeys from '../../../machines/services/passkeys';
import * as passwordReset from '../../../machines/services/passwordReset';
import * as progress from '../../../machines/services/progress';
import * as sessions from '../../../machines/services/sessions';
import * as social from '../../../machines/services/social';
import * as stepUp from '../../../machines/services/stepUp';
import * as subscriptions from '../../../machines/services/subscriptions';
import * as confirmPayment from '../../../machines/services/confirmPayment';
import * as twoFactor from '../../../machines/services/twoFactor';
import { legalDocuments } from '../../../machines/rules/legalDocuments';
import { emailChangeMessages } from '../../../server/src/contract/emailChange';
import { billingHistoryMachine } from '../../../machines/billingHistory.machine';
import { cardOnFileMachine } from '../../../machines/cardOnFile.machine';
import { dataExportMachine } from '../../../machines/dataExport.machine';
import { deleteAccountMachine } from '../../../machines/deleteAccount.machine';
import { emailChangeConfirmationMachine } from '../../../machines/emailChangeConfirmation.machine';
import { firstRunBmiMachine } from '../../../machines/firstRunBmi.machine';
import { legalDocumentMachine } from '../../../machines/legalDocument.machine';
import { logoutAllDevicesMachine } from '../../../machines/logoutAllDevices.machine';
import { manageBillingMachine } from '../../../machines/manageBilling.machine';
import { passkeySignInMachine } from '../../../machines/passkeySignIn.machine';
import { passkeysMachine } from '../../../machines/passkeys.machine';
import { passwordChangeMachine } from '../../../machines/passwordChange.machine';
import { passwordResetMachine } from '../../../machines/passwordReset.machine';
import { photoUploadMachine } from '../../../machines/photoUpload.machine';
import { profileSectionMachine } from '../../../machines/profileSection.machine';
import { profileSettingMachine } from '../../../machines/profileSetting.machine';
import { signedInDevicesMachine } from '../../../machines/signedInDevices.machine';
import { socialCallbackMachine } from '../../../machines/socialCallback.machine';
import { socialSignInMachine } from '../../../machines/socialSignIn.machine';
import { stepUpMachine } from '../../../machines/stepUp.machine';
import { subscriptionCancelMachine } from '../../../machines/subscriptionCancel.machine';
import { subscriptionRefundMachine } from '../../../machines/subscriptionRefund.machine';
import { subscriptionOverviewMachine } from '../../../machines/subscriptionOverview.machine';
import { subscriptionPurchaseMachine } from '../../../machines/subscriptionPurchase.machine';
import { twoFactorSetupMachine } from '../../../machines/twoFactorSetup.machine';
import { weightHistoryMachine } from '../../../machines/weightHistory.machine';

/*
 * The machines' own tests replace each API actor with `machine.provide({ actors })`, so they never run
 * the default actors: one-line adapters from the machine's input to a service of machines/services/.
 * This file runs each of those adapters once, with the service modules replaced by `vi.mock` (the only
 * way to see what an adapter hands a module it imports), and checks that it passes its input and its
 * abort signal on and answers what the service answered. The services have their own tests.
 */
vi.mock('../../../machines/services/billing', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/billing')>()),
  getInvoices: vi.fn(),
  getCardOnFile: vi.fn(),
  exportAccount: vi.fn(),
  openBillingPortal: vi.fn(),
  updateSandboxCard: vi.fn(),
  resumeSubscription: vi.fn(),
}));
vi.mock('../../../machines/services/account', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/account')>()),
  deleteAccount: vi.fn(),
  logoutAllDevices: vi.fn(),
}));
vi.mock('../../../machines/services/emailChange', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/emailChange')>()),
  confirmEmailChange: vi.fn(),
  cancelEmailChange: vi.fn(),
}));
vi.mock('../../../machines/services/users', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/users')>()),
  updateProfile: vi.fn(),
  changePassword: vi.fn(),
  uploadProfilePicture: vi.fn(),
}));
vi.mock('../../../machines/services/legal', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/legal')>()),
  fetchLegalDocument: vi.fn(),
}));
vi.mock('../../../machines/services/passkeys', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/passkeys')>()),
  signInWithPasskey: vi.fn(),
  listPasskeys: vi.fn(),
  addPasskey: vi.fn(),
  removePasskey: vi.fn(),
}));
vi.mock('../../../machines/services/passwordReset', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/passwordReset')>()),
  forgotPassword: vi.fn(),
  resetPassword: vi.fn(),
}));
vi.mock('../../../machines/services/progress', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/progress')>()),
  updateSetting: vi.fn(),
  getWeightEntries: vi.fn(),
  addWeightEntry: vi.fn(),
  deleteWeightEntry: vi.fn(),
}));
vi.mock('../../../machines/services/sessions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/sessions')>()),
  loadSessions: vi.fn(),
  signOutSession: vi.fn(),
}));
vi.mock('../../../machines/services/social', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/social')>()),
  connectCallback: vi.fn(),
  exchangeIdToken: vi.fn(),
}));
vi.mock('../../../machines/services/stepUp', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/stepUp')>()),
  confirmStepUp: vi.fn(),
}));
vi.mock('../../../machines/services/subscriptions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/subscriptions')>()),
  cancelSubscription: vi.fn(),
  requestRefund: vi.fn(),
  getSubscriptionPlans: vi.fn(),
  getCurrentSubscription: vi.fn(),
  getPaymentsConfig: vi.fn(),
  createSubscription: vi.fn(),
  verifySubscription: vi.fn(),
}));
vi.mock('../../../machines/services/confirmPayment', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/confirmPayment')>()),
  confirmCardPayment: vi.fn(),
}));
vi.mock('../../../machines/services/twoFactor', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/twoFactor')>()),
  getTwoFactorStatus: vi.fn(),
  startTwoFactorSetup: vi.fn(),
  enableTwoFactor: vi.fn(),
  regenerateRecoveryCodes: vi.fn(),
  disableTwoFactor: vi.fn(),
}));

/** The machine's own implementation of an actor, as `setup({ actors })` declared it. */
function defaultActor(machine: AnyStateMachine, name: string): AnyActorLogic {
  const logic = machine.implementations.actors[name];
  if (!logic || 'src' in logic) throw new Error(`${machine.id} declares no actor ${name}`);
  return logic;
}

const signal = { signal: expect.any(AbortSignal) };

type Adapter = {
  machine: AnyStateMachine;
  actor: string;
  input?: unknown;
  /** The service the adapter calls, and what it is expected to pass. */
  service: (...args: never[]) => unknown;
  args: unknown[];
  /** The service's answer, and the actor's (the same unless given). */
  answer?: unknown;
  output?: unknown;
};

const file = new File(['picture'], 'me.png', { type: 'image/png' });
const update = { section: 'information', values: { username: 'ribeye' } };

const adapters: Adapter[] = [
  {
    machine: billingHistoryMachine,
    actor: 'loadInvoices',
    input: { page: 2 },
    service: billing.getInvoices,
    args: [2, signal],
    answer: { invoices: [], hasMore: true },
  },
  {
    machine: cardOnFileMachine,
    actor: 'loadCard',
    service: billing.getCardOnFile,
    args: [signal],
    answer: { brand: 'visa', last4: '4242' },
  },
  { machine: dataExportMachine, actor: 'exportAccount', service: billing.exportAccount, args: [signal], answer: { filename: 'a.json' } },
  { machine: deleteAccountMachine, actor: 'deleteAccount', service: account.deleteAccount, args: [signal] },
  {
    machine: deleteAccountMachine,
    actor: 'currentSubscription',
    service: subscriptions.getCurrentSubscription,
    args: [signal],
    answer: { id: 'sub_1', refundableUntil: null },
  },
  {
    machine: emailChangeConfirmationMachine,
    actor: 'submitLink',
    input: { token: 't0k', link: 'confirm' },
    service: emailChange.confirmEmailChange,
    args: ['t0k', signal],
    answer: 'new@example.com',
    output: emailChangeMessages.confirmed('new@example.com'),
  },
  {
    machine: emailChangeConfirmationMachine,
    actor: 'submitLink',
    input: { token: 't0k', link: 'cancel' },
    service: emailChange.cancelEmailChange,
    args: ['t0k', signal],
    output: emailChangeMessages.cancelled,
  },
  {
    machine: firstRunBmiMachine,
    actor: 'updateProfile',
    input: { userId: '7', update },
    service: users.updateProfile,
    args: ['7', update, signal],
    answer: 'ignored',
    output: undefined,
  },
  {
    machine: legalDocumentMachine,
    actor: 'fetchDocument',
    input: { document: 'terms' },
    service: legal.fetchLegalDocument,
    args: [legalDocuments.terms, signal],
    answer: { title: 'Terms' },
  },
  { machine: logoutAllDevicesMachine, actor: 'logoutAllDevices', service: account.logoutAllDevices, args: [signal] },
  { machine: manageBillingMachine, actor: 'openPortal', service: billing.openBillingPortal, args: [signal], answer: 'https://portal' },
  {
    machine: manageBillingMachine,
    actor: 'updateCard',
    input: { number: '4242' },
    service: billing.updateSandboxCard,
    args: [{ number: '4242' }, signal],
    answer: 'ok',
  },
  { machine: passkeySignInMachine, actor: 'signIn', service: passkeys.signInWithPasskey, args: [signal], answer: { jwt: 'j' } },
  {
    machine: passkeySignInMachine,
    actor: 'autofill',
    service: passkeys.signInWithPasskey,
    args: [{ signal: expect.any(AbortSignal), autofill: true }],
    answer: { jwt: 'j' },
  },
  { machine: passkeysMachine, actor: 'listPasskeys', service: passkeys.listPasskeys, args: [signal], answer: [{ id: 1 }] },
  {
    machine: passkeysMachine,
    actor: 'addPasskey',
    input: { name: 'Laptop' },
    service: passkeys.addPasskey,
    args: ['Laptop', signal],
    answer: { id: 2 },
  },
  { machine: passkeysMachine, actor: 'removePasskey', input: { id: 3 }, service: passkeys.removePasskey, args: [3, signal] },
  {
    machine: passwordChangeMachine,
    actor: 'changePassword',
    input: { password: 'p' },
    service: users.changePassword,
    args: [{ password: 'p' }, signal],
    answer: 'jwt',
  },
  {
    machine: passwordResetMachine,
    actor: 'requestCode',
    input: { email: 'a@b.c' },
    service: passwordReset.forgotPassword,
    args: [{ email: 'a@b.c' }, signal],
  },
  {
    machine: passwordResetMachine,
    actor: 'resetPassword',
    input: { code: 'c' },
    service: passwordReset.resetPassword,
    args: [{ code: 'c' }, signal],
  },
  {
    machine: photoUploadMachine,
    actor: 'uploadPicture',
    input: { userId: '7', file },
    service: users.uploadProfilePicture,
    args: ['7', file, signal],
  },
  {
    machine: profileSectionMachine,
    actor: 'updateProfile',
    input: { userId: '7', update },
    service: users.updateProfile,
    args: ['7', update, signal],
    answer: 'new@example.com',
  },
  {
    machine: profileSettingMachine,
    actor: 'updateSetting',
    input: { userId: '7', update: { unit_system: 'imperial' } },
    service: progress.updateSetting,
    args: ['7', { unit_system: 'imperial' }, signal],
  },
  { machine: signedInDevicesMachine, actor: 'loadSessions', service: sessions.loadSessions, args: [signal], answer: [{ id: 's' }] },
  { machine: signedInDevicesMachine, actor: 'signOutSession', input: { id: 's' }, service: sessions.signOutSession, args: ['s', signal] },
  {
    machine: socialCallbackMachine,
    actor: 'connect',
    input: { provider: 'github', code: 'c0de', state: 'st' },
    service: social.connectCallback,
    args: ['github', 'c0de', 'st', signal],
    answer: { jwt: 'j' },
  },
  {
    machine: socialSignInMachine,
    actor: 'exchangeToken',
    input: { provider: 'google', token: 'id-token' },
    service: social.exchangeIdToken,
    args: ['google', 'id-token', signal],
    answer: { jwt: 'j' },
  },
  { machine: stepUpMachine, actor: 'confirm', input: { password: 'p' }, service: stepUp.confirmStepUp, args: [{ password: 'p' }, signal] },
  {
    machine: subscriptionRefundMachine,
    actor: 'requestRefund',
    service: subscriptions.requestRefund,
    args: [signal],
    answer: { invoiceId: 'in_1', amount: 999, currency: 'usd' },
  },
  {
    machine: subscriptionCancelMachine,
    actor: 'cancelSubscription',
    service: subscriptions.cancelSubscription,
    args: [signal],
    answer: { endsAt: 'x' },
  },
  {
    machine: subscriptionCancelMachine,
    actor: 'resumeSubscription',
    service: billing.resumeSubscription,
    args: [signal],
    answer: { status: 'active' },
  },
  {
    machine: subscriptionOverviewMachine,
    actor: 'loadPlans',
    service: subscriptions.getSubscriptionPlans,
    args: [signal],
    answer: [{ id: 'p' }],
  },
  {
    machine: subscriptionOverviewMachine,
    actor: 'loadCurrent',
    service: subscriptions.getCurrentSubscription,
    args: [signal],
    answer: null,
  },
  {
    machine: subscriptionOverviewMachine,
    actor: 'loadPayments',
    service: subscriptions.getPaymentsConfig,
    args: [signal],
    answer: { mode: 'sandbox' },
  },
  {
    machine: subscriptionPurchaseMachine,
    actor: 'createSubscription',
    input: { priceId: 'price_1' },
    service: subscriptions.createSubscription,
    args: ['price_1', signal],
    answer: { clientSecret: 's' },
  },
  {
    machine: subscriptionPurchaseMachine,
    actor: 'confirmPayment',
    input: { clientSecret: 's', method: { card: 'c' } },
    service: confirmPayment.confirmCardPayment,
    args: ['s', { card: 'c' }],
    answer: { status: 'succeeded' },
  },
  {
    machine: subscriptionPurchaseMachine,
    actor: 'verifySubscription',
    input: { subscriptionId: 'sub_1' },
    service: subscriptions.verifySubscription,
    args: ['sub_1', signal],
  },
  {
    machine: twoFactorSetupMachine,
    actor: 'loadStatus',
    service: twoFactor.getTwoFactorStatus,
    args: [signal],
    answer: { enabled: false },
  },
  { machine: twoFactorSetupMachine, actor: 'startSetup', service: twoFactor.startTwoFactorSetup, args: [signal], answer: { secret: 's' } },
  {
    machine: twoFactorSetupMachine,
    actor: 'enable',
    input: { code: '123456' },
    service: twoFactor.enableTwoFactor,
    args: ['123456', signal],
    answer: ['r1'],
  },
  {
    machine: twoFactorSetupMachine,
    actor: 'regenerate',
    input: { code: '123456' },
    service: twoFactor.regenerateRecoveryCodes,
    args: ['123456', signal],
    answer: ['r2'],
  },
  {
    machine: twoFactorSetupMachine,
    actor: 'disable',
    input: { password: 'p', code: '123456' },
    service: twoFactor.disableTwoFactor,
    args: [{ password: 'p', code: '123456' }, signal],
  },
  { machine: weightHistoryMachine, actor: 'loadEntries', service: progress.getWeightEntries, args: [signal], answer: [{ id: 1 }] },
  {
    machine: weightHistoryMachine,
    actor: 'addEntry',
    input: { weight: 80 },
    service: progress.addWeightEntry,
    args: [{ weight: 80 }, signal],
    answer: { id: 2 },
  },
  // The list drops exactly the entry deleted, so the actor answers its id.
  {
    machine: weightHistoryMachine,
    actor: 'deleteEntry',
    input: { id: 9 },
    service: progress.deleteWeightEntry,
    args: [9, signal],
    output: 9,
  },
];

describe('the machines’ default API actors hand their input to the service and answer its answer', () => {
  it.each(adapters.map((adapter) => [`${adapter.machine.id}.${adapter.actor}`, adapter] as const))('%s', async (_, adapter) => {
    const { machine, actor, input, service, args, answer } = adapter;
    const output = 'output' in adapter ? adapter.output : answer;
    vi.mocked(service).mockReset().mockResolvedValue(answer);
    const running = createActor(defaultActor(machine, actor), { input }).start();
    await expect(toPromise(running)).resolves.toEqual(output);
    expect(service).toHaveBeenCalledExactlyOnceWith(...args);
  });
});
