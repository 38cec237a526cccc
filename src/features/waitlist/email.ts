/** SPEC §5: text, then @, then text, then a dot, then text, with no spaces. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** RFC 5321's limit on a forward path; the database enforces the same. */
export const EMAIL_MAX_LENGTH = 254;

/** Length in characters (code points), as PostgreSQL's char_length counts them. */
export const characterCount = (text: string) => [...text].length;

export type EmailCheck =
  | { ok: true; email: string }
  | { ok: false; problem: 'required' | 'invalid' };

/**
 * The two client checks of SPEC §5, in the spec's order. Surrounding whitespace is
 * dropped first, as browsers already do for `<input type="email">`.
 */
export function checkEmail(input: string): EmailCheck {
  const email = input.trim();
  if (email === '') return { ok: false, problem: 'required' };
  if (characterCount(email) > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) {
    return { ok: false, problem: 'invalid' };
  }
  return { ok: true, email };
}
