/**
 * The shared table of addresses that the client check (email.test.ts) and the database's
 * constraint (db tests) are both held to, so the two can never disagree.
 * `checkEmail(input).email` (the input trimmed) is what a valid row sends to the database.
 */
export type EmailExample = { input: string; valid: boolean; why: string };

const long = (total: number) => `${'a'.repeat(total - '@example.com'.length)}@example.com`;

export const emailExamples: EmailExample[] = [
  { input: 'ada@example.com', valid: true, why: 'plain address' },
  { input: 'Ada.Lovelace@Example.COM', valid: true, why: 'mixed case' },
  { input: 'ada+waitlist@example.com', valid: true, why: 'plus addressing' },
  { input: 'ada@mail.eu.example.com', valid: true, why: 'subdomains' },
  { input: 'a@b.co', valid: true, why: 'shortest usual form' },
  { input: "o'brien@example.ie", valid: true, why: 'apostrophe in local part' },
  { input: 'jörg@bücher.de', valid: true, why: 'unicode local part and domain' },
  { input: '用户@例子.广告', valid: true, why: 'CJK address' },
  { input: 'ada@xn--bcher-kva.de', valid: true, why: 'punycode domain' },
  { input: 'first_last-1@sub-domain.example.org', valid: true, why: 'underscore and hyphens' },
  { input: '  ada@example.com  ', valid: true, why: 'surrounding spaces are trimmed' },
  { input: 'ada@example.com.', valid: true, why: 'trailing dot: text still follows a dot' },
  { input: long(254), valid: true, why: '254 characters, the limit' },
  { input: long(255), valid: false, why: '255 characters, over the limit' },
  { input: 'ada@example', valid: false, why: 'no dot after the @' },
  { input: 'ada.example.com', valid: false, why: 'no @' },
  { input: 'ada@@example.com', valid: false, why: 'double @' },
  { input: 'ada@exa@mple.com', valid: false, why: 'two @ signs' },
  { input: '@example.com', valid: false, why: 'nothing before the @' },
  { input: 'ada@.com', valid: false, why: 'nothing between @ and dot' },
  { input: 'ada@example.', valid: false, why: 'nothing after the dot' },
  { input: 'ada lovelace@example.com', valid: false, why: 'space in local part' },
  { input: 'ada@exam ple.com', valid: false, why: 'space in domain' },
  { input: 'ada@example.com\tx', valid: false, why: 'tab inside' },
  { input: 'ada@\u00a0example.com', valid: false, why: 'no-break space inside' },
  { input: 'ada', valid: false, why: 'a bare word' },
  { input: 'ada@example.c om', valid: false, why: 'space in top-level domain' },
  { input: '\ufeffada@example.com', valid: true, why: 'leading byte-order mark is trimmed like a space' },
  { input: '=1+2@example.com', valid: true, why: 'formula-like local part (escaped only in the CSV export)' },
  { input: 'ada@exam\u001bple.com', valid: false, why: 'ESC control character' },
  { input: 'a\u0001da@example.com', valid: false, why: 'U+0001 control character' },
  { input: 'ada@example.com\u007f', valid: false, why: 'DEL at the end' },
  { input: 'ada\u0085@example.com', valid: false, why: 'U+0085 next line (a C1 control)' },
  { input: 'ada\u200b@example.com', valid: false, why: 'zero-width space' },
  { input: 'ada@exa\u200emple.com', valid: false, why: 'left-to-right mark' },
  { input: 'ada@\u202emoc.elpmaxe', valid: false, why: 'right-to-left override' },
  { input: 'ada@\u2066example.com', valid: false, why: 'left-to-right isolate' },
  { input: 'ada@exa\ufeffmple.com', valid: false, why: 'byte-order mark inside' },
  { input: 'ad\u00ada@example.com', valid: false, why: 'soft hyphen' },
  { input: 'ada@example.com\u{e0001}', valid: false, why: 'language tag (a Cf beyond the BMP)' },
];
