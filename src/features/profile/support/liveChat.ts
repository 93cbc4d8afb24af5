import { withTimeout } from '../../../../machines/rules/withTimeout';

/** The Support tab's chat provider (tawk.to), configured at build time. */
export const liveChatConfig = {
  propertyId: import.meta.env.VITE_TAWK_PROPERTY_ID as string | undefined,
  widgetId: import.meta.env.VITE_TAWK_WIDGET_ID as string | undefined,
};

export const LIVE_CHAT_TIMEOUT_MS = 15_000;

type TawkApi = { onLoad?: () => void; maximize?: () => void };
declare global {
  interface Window {
    Tawk_API?: TawkApi;
    Tawk_LoadStart?: Date;
  }
}

export function isLiveChatConfigured(config = liveChatConfig): boolean {
  return Boolean(config.propertyId && config.widgetId);
}

/** Loads the provider's embed script once; resolves when its widget reports it is ready. */
export function loadLiveChat(config = liveChatConfig): Promise<void> {
  if (!isLiveChatConfigured(config)) return Promise.reject(new Error('Live chat is not configured.'));
  const api: TawkApi = (window.Tawk_API ??= {});
  window.Tawk_LoadStart = new Date();
  const ready = new Promise<void>((resolve, reject) => {
    api.onLoad = () => resolve();
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://embed.tawk.to/${encodeURIComponent(config.propertyId!)}/${encodeURIComponent(config.widgetId!)}`;
    script.charset = 'UTF-8';
    script.crossOrigin = 'anonymous';
    script.onerror = () => {
      script.remove();
      reject(new Error('The live chat could not be loaded.'));
    };
    document.head.append(script);
  });
  return withTimeout(ready, LIVE_CHAT_TIMEOUT_MS, 'The live chat could not be loaded.');
}

export function maximizeLiveChat(): void {
  window.Tawk_API?.maximize?.();
}
