/** Telling a PostgreSQL URL from a file path, and showing one without its password (no driver loaded). */

export const isPostgresUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s);

/** Masks the password of a postgres URL. */
export function redact(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}
