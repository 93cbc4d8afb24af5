import { getSocialConfig, SOCIAL_CALL_TIMEOUT_MS } from '../../../../machines/services/social';
import type { PopupProvider } from '../../../../machines/socialSignIn.machine';
import { loadScript } from './loadScript';

const GOOGLE_CLIENT_SCRIPT = 'https://accounts.google.com/gsi/client';
const APPLE_CLIENT_SCRIPT = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js';

type GoogleCredentialResponse = { credential?: string };
type GooglePromptNotification = { isNotDisplayed: () => boolean; isSkippedMoment: () => boolean; isDismissedMoment?: () => boolean };
type AppleSignInResponse = { authorization?: { id_token?: string } };

declare global {
  interface Window {
    google?: {
      accounts: {
        id: {
          initialize: (options: {
            client_id: string;
            callback: (response: GoogleCredentialResponse) => void;
            cancel_on_tap_outside?: boolean;
          }) => void;
          prompt: (listener?: (notification: GooglePromptNotification) => void) => void;
        };
      };
    };
    AppleID?: {
      auth: {
        init: (options: { clientId: string; scope: string; redirectURI: string; usePopup: boolean }) => void;
        signIn: () => Promise<AppleSignInResponse>;
      };
    };
  }
}

export const providerMessages = {
  googleCancelled: 'Google Sign-In was canceled or failed',
  googleUnavailable: 'Google Sign-In is unavailable right now: the Google sign-in client could not be loaded.',
  googleNotSetUp: 'Google Sign-In is not set up on this site.',
  appleNoToken: 'Apple Sign-In failed: No ID token received',
  appleCancelled: 'Apple Sign-In was canceled or failed',
  appleUnavailable: 'Apple Sign-In is unavailable right now: the Apple sign-in client could not be loaded.',
  appleNotSetUp: 'Apple Sign-In is not set up on this site.',
  facebookNotSetUp: 'Facebook sign-in is not set up on this site.',
} as const;

/** Google Identity Services: the credential (an ID token) of the chosen Google account. */
async function googleIdToken(): Promise<string> {
  const config = await getSocialConfig();
  if (!config.google.enabled || !config.google.clientId) throw new Error(providerMessages.googleNotSetUp);
  await loadScript(GOOGLE_CLIENT_SCRIPT, SOCIAL_CALL_TIMEOUT_MS, providerMessages.googleUnavailable);
  const googleId = window.google?.accounts.id;
  if (!googleId) throw new Error(providerMessages.googleUnavailable);
  return new Promise<string>((resolve, reject) => {
    googleId.initialize({
      client_id: config.google.clientId!,
      cancel_on_tap_outside: true,
      callback: (response) => (response.credential ? resolve(response.credential) : reject(new Error(providerMessages.googleCancelled))),
    });
    googleId.prompt((notification) => {
      if (notification.isNotDisplayed() || notification.isSkippedMoment() || notification.isDismissedMoment?.()) {
        reject(new Error(providerMessages.googleCancelled));
      }
    });
  });
}

/** Sign in with Apple JS in a popup (scope 'email name'): the identity token. */
async function appleIdToken(): Promise<string> {
  const config = await getSocialConfig();
  if (!config.apple.enabled || !config.apple.clientId) throw new Error(providerMessages.appleNotSetUp);
  await loadScript(APPLE_CLIENT_SCRIPT, SOCIAL_CALL_TIMEOUT_MS, providerMessages.appleUnavailable);
  const appleId = window.AppleID;
  if (!appleId) throw new Error(providerMessages.appleUnavailable);
  appleId.auth.init({
    clientId: config.apple.clientId,
    scope: 'email name',
    redirectURI: config.apple.redirectURI ?? `${window.location.origin}/api/connect/apple/callback`,
    usePopup: true,
  });
  let response: AppleSignInResponse;
  try {
    response = await appleId.auth.signIn();
  } catch (error) {
    const providerMessage = (error as { error?: unknown } | null)?.error;
    throw new Error(typeof providerMessage === 'string' && providerMessage ? providerMessage : providerMessages.appleCancelled);
  }
  const token = response.authorization?.id_token;
  if (!token) throw new Error(providerMessages.appleNoToken);
  return token;
}

export function providerIdToken({ provider }: { provider: PopupProvider }): Promise<string> {
  return provider === 'google' ? googleIdToken() : appleIdToken();
}

export async function ensureFacebookSetUp(): Promise<void> {
  const config = await getSocialConfig();
  if (!config.facebook.enabled) throw new Error(providerMessages.facebookNotSetUp);
}
