/**
 * docs/product.md §5: text, then @, then text, then a dot, then text, with no spaces, and nothing
 * that draws nothing: no control (Unicode Cc), invisible formatting (Cf) or default-ignorable
 * character (Default_Ignorable_Code_Point: variation selectors, Hangul fillers, ...), nor a blank
 * symbol that is none of these (U+2800 braille blank, U+16FE4 Khitan filler, U+1D159 null
 * notehead). Such characters make one address look like another, or like nothing. Nor a double
 * quote or a final dot: "ada"@example.com and ada@example.com. are the mailbox ada@example.com, so
 * one person could sign up twice. The database's private.email_format_ok() refuses exactly the same.
 */
const NOT_PART = String.raw`\u{16FE4}\s@"\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}`;
export const EMAIL_SHAPE = new RegExp(`^[^${NOT_PART}]+@[^${NOT_PART}]+\\.[^${NOT_PART}]*[^${NOT_PART}.]$`, 'u');

/** RFC 5321's limit on a forward path; the database enforces the same. */
export const EMAIL_MAX_LENGTH = 254;

/** Length in characters (code points), as PostgreSQL's char_length counts them. */
export const characterCount = (text: string) => [...text].length;

export type EmailCheck = { ok: true; email: string } | { ok: false; problem: 'required' | 'invalid' };

/**
 * The two client checks of docs/product.md §5, in its order. Surrounding whitespace (JavaScript's
 * trim(), which includes U+FEFF) is dropped first, as browsers already do for
 * `<input type="email">`; any other control or invisible character makes the address invalid.
 */
export function checkEmail(input: string): EmailCheck {
  const email = input.trim();
  if (email === '') return { ok: false, problem: 'required' };
  if (characterCount(email) > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) {
    return { ok: false, problem: 'invalid' };
  }
  return { ok: true, email };
}
