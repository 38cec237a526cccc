import { describe, expect, it } from 'vitest';
import { checkEmail } from './email.ts';
import { emailExamples } from '../src/test/email-examples';

describe('checkEmail (docs/product.md §5)', () => {
  it.each(['', ' ', '   \t '])('asks for an address when the field holds %j', (input) => {
    expect(checkEmail(input)).toEqual({ ok: false, problem: 'required' });
  });

  it.each(emailExamples.filter((e) => e.valid))('accepts $why: $input', ({ input }) => {
    expect(checkEmail(input)).toEqual({ ok: true, email: input.trim() });
  });

  it.each(emailExamples.filter((e) => !e.valid))('refuses $why: $input', ({ input }) => {
    expect(checkEmail(input)).toEqual({ ok: false, problem: 'invalid' });
  });

  it('refuses every control, invisible formatting, default-ignorable or blank character inside an address', () => {
    const invisible = /[\u{16FE4}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]/u;
    const codePoints = Array.from({ length: 0x110000 }, (_, i) => i)
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .filter((c) => invisible.test(String.fromCodePoint(c)));
    expect(codePoints).toEqual(
      expect.arrayContaining([0x00, 0x1b, 0x7f, 0x85, 0xad, 0x200b, 0x200e, 0x202e, 0x2066, 0xfeff, 0x34f, 0x115f]),
    );
    const accepted = codePoints.filter((c) => checkEmail(`ad${String.fromCodePoint(c)}a@example.com`).ok);
    expect(accepted).toEqual([]);
  });

  it('trims surrounding whitespace (a leading U+FEFF too) before checking, not other invisible characters', () => {
    expect(checkEmail('\ufeff ada@example.com \n')).toEqual({ ok: true, email: 'ada@example.com' });
    expect(checkEmail('\u200bada@example.com')).toEqual({ ok: false, problem: 'invalid' });
    expect(checkEmail('\u200b')).toEqual({ ok: false, problem: 'invalid' });
  });

  it('covers enough of both kinds', () => {
    expect(emailExamples.length).toBeGreaterThanOrEqual(25);
    expect(emailExamples.filter((e) => e.valid).length).toBeGreaterThanOrEqual(10);
    expect(emailExamples.filter((e) => !e.valid).length).toBeGreaterThanOrEqual(10);
  });
});
