/** Where a machine sends the person next; `message` becomes the green notice on /login. */
export type NavigationRequest = { href: string; message?: string; replace?: boolean };
