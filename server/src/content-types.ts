import { USER_CONTENT_TYPE } from './contract/users';

/** The content-type UIDs the server's code reads and writes, each spelled once. */
export const UID = {
  user: USER_CONTENT_TYPE,
  role: 'plugin::users-permissions.role',
  permission: 'plugin::users-permissions.permission',
  file: 'plugin::upload.file',
  ingredient: 'api::ingredient.ingredient',
  subscription: 'api::subscription.subscription',
  subscriptionPlan: 'api::subscription-plan.subscription-plan',
  paymentEvent: 'api::payment.payment-event',
  privacyPolicy: 'api::privacy-policy.privacy-policy',
  termsAndCondition: 'api::terms-and-condition.terms-and-condition',
  refundPolicy: 'api::refund-policy.refund-policy',
  weightEntry: 'api::weight-entry.weight-entry',
  reminderSend: 'api::reminder.reminder-send',
  emailMessage: 'api::email-message.email-message',
  passkey: 'api::passkey.passkey',
  passkeyChallenge: 'api::passkey.passkey-challenge',
  memberSession: 'api::member-session.member-session',
  twoFactor: 'api::two-factor.two-factor',
  twoFactorRecoveryCode: 'api::two-factor.two-factor-recovery-code',
  twoFactorTicket: 'api::two-factor.two-factor-ticket',
} as const;
