import type { billingHistoryMachine } from '../../machines/billingHistory.machine';
import type { cardOnFileMachine } from '../../machines/cardOnFile.machine';
import type { dataExportMachine } from '../../machines/dataExport.machine';
import type { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import type { emailChangeConfirmationMachine } from '../../machines/emailChangeConfirmation.machine';
import type { firstRunBmiMachine } from '../../machines/firstRunBmi.machine';
import type { LegalDocumentMachine } from '../../machines/legalDocument.machine';
import type { logoutAllDevicesMachine } from '../../machines/logoutAllDevices.machine';
import type { manageBillingMachine } from '../../machines/manageBilling.machine';
import type { passkeySignInMachine } from '../../machines/passkeySignIn.machine';
import type { passkeysMachine } from '../../machines/passkeys.machine';
import type { passwordChangeMachine } from '../../machines/passwordChange.machine';
import type { passwordLogInMachine } from '../../machines/passwordLogIn.machine';
import type { passwordResetMachine } from '../../machines/passwordReset.machine';
import type { photoUploadMachine } from '../../machines/photoUpload.machine';
import type { profileSectionMachine } from '../../machines/profileSection.machine';
import type { profileSettingMachine } from '../../machines/profileSetting.machine';
import type { weightHistoryMachine } from '../../machines/weightHistory.machine';
import type { subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import type { subscriptionRefundMachine } from '../../machines/subscriptionRefund.machine';
import type { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import type { subscriptionPurchaseMachine } from '../../machines/subscriptionPurchase.machine';
import type { socialCallbackMachine } from '../../machines/socialCallback.machine';
import type { socialSignInMachine } from '../../machines/socialSignIn.machine';
import type { supportChatMachine } from '../../machines/supportChat.machine';
import type { signUpMachine } from '../../machines/signUp.machine';
import type { signedInDevicesMachine } from '../../machines/signedInDevices.machine';
import type { twoFactorSetupMachine } from '../../machines/twoFactorSetup.machine';
import type { stepUpMachine } from '../../machines/stepUp.machine';

/**
 * Page-level flow machines that replace the defaults, carried in the router context so
 * tests can provide doubles. Each page falls back to its own machine, which comes with the
 * page's lazy chunk and so stays out of the entry bundle.
 */
export type Flows = Partial<{
  signUp: typeof signUpMachine;
  passwordLogIn: typeof passwordLogInMachine;
  passwordReset: typeof passwordResetMachine;
  deleteAccount: typeof deleteAccountMachine;
  legalDocument: LegalDocumentMachine;
  profileSection: typeof profileSectionMachine;
  photoUpload: typeof photoUploadMachine;
  passwordChange: typeof passwordChangeMachine;
  logoutAllDevices: typeof logoutAllDevicesMachine;
  supportChat: typeof supportChatMachine;
  subscriptionOverview: typeof subscriptionOverviewMachine;
  subscriptionPurchase: typeof subscriptionPurchaseMachine;
  subscriptionCancel: typeof subscriptionCancelMachine;
  subscriptionRefund: typeof subscriptionRefundMachine;
  billingHistory: typeof billingHistoryMachine;
  manageBilling: typeof manageBillingMachine;
  cardOnFile: typeof cardOnFileMachine;
  dataExport: typeof dataExportMachine;
  socialSignIn: typeof socialSignInMachine;
  socialCallback: typeof socialCallbackMachine;
  firstRunBmi: typeof firstRunBmiMachine;
  profileSetting: typeof profileSettingMachine;
  weightHistory: typeof weightHistoryMachine;
  emailChangeConfirmation: typeof emailChangeConfirmationMachine;
  passkeys: typeof passkeysMachine;
  passkeySignIn: typeof passkeySignInMachine;
  signedInDevices: typeof signedInDevicesMachine;
  twoFactorSetup: typeof twoFactorSetupMachine;
  stepUp: typeof stepUpMachine;
}>;
