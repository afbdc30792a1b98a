/** Telling a PostgreSQL URL from a file path, and showing one without its password (no driver loaded). */

export const isPostgresUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s);

/** The password, in the user part (to the last `@`: an unencoded `@` in it is masked too) or as a `password=` parameter. */
const USER_PASSWORD = /^(postgres(?:ql)?:\/\/[^:/@]*):.*@/i;
const PARAM_PASSWORD = /([?&]password=)[^&#]*/gi;

/** Masks the password of a postgres URL, wherever it is shown. */
export function redact(url: string): string {
  return url.replace(USER_PASSWORD, '$1:***@').replace(PARAM_PASSWORD, '$1***');
}

/** Whether a postgres URL carries a password. */
export const hasPassword = (url: string): boolean => isPostgresUrl(url) && (USER_PASSWORD.test(url) || new RegExp(PARAM_PASSWORD.source, 'i').test(url));

/**
 * The URL without its password, for configuration other people read (`.mcp.json`): the driver then
 * takes the password from PGPASSWORD or the password file (~/.pgpass, or PGPASSFILE), as libpq does.
 */
export function withoutPassword(url: string): string {
  return url
    .replace(USER_PASSWORD, '$1@')
    .replace(/([?&])password=[^&#]*&?/gi, '$1')
    .replace(/[?&]$/, '');
}
