/** The Security tab's Password section: where the Information tab's Change Password (SPEC §2) leads. */
export const PASSWORD_SECTION = 'password';
