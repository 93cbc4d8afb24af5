/** The site's public origin without a trailing slash: PUBLIC_URL, or the local server. */
/** A tab of the member's profile, by its public address (the e-mails' links). */
export const profileTabUrl = (tab: string): string => `${publicUrl()}/profile?tab=${tab}`;

export const publicUrl = (env: NodeJS.ProcessEnv = process.env): string => (env.PUBLIC_URL || 'http://localhost:1337').replace(/\/+$/, '');
