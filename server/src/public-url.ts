/** The site's public origin without a trailing slash: PUBLIC_URL, or the local server. */
export const publicUrl = (env: NodeJS.ProcessEnv = process.env): string => (env.PUBLIC_URL || 'http://localhost:1337').replace(/\/+$/, '');
