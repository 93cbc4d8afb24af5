import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the Strapi server that serves the built SPA and the API, e.g. http://127.0.0.1:41234. */
    baseUrl: string;
    /** Directory where the server writes every e-mail it sends, one .eml file each (outbox provider). */
    outboxDir: string;
    /** Origin of the local Facebook double (login dialog and Graph API), e.g. http://127.0.0.1:41235. */
    facebookOrigin: string;
  }
}
