import '@tanstack/history';

declare module '@tanstack/history' {
  interface HistoryState {
    /** A one-time notice for the login page (SPEC §2 navigation state 'message'). */
    message?: string;
  }
}
