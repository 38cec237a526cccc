import { checkEmail } from './email';
import { emailExamples } from './email-examples';

describe('checkEmail (SPEC §5)', () => {
  it.each(['', ' ', '   \t '])('asks for an address when the field holds %j', (input) => {
    expect(checkEmail(input)).toEqual({ ok: false, problem: 'required' });
  });

  it.each(emailExamples.filter((e) => e.valid))('accepts $why: $input', ({ input }) => {
    expect(checkEmail(input)).toEqual({ ok: true, email: input.trim() });
  });

  it.each(emailExamples.filter((e) => !e.valid))('refuses $why: $input', ({ input }) => {
    expect(checkEmail(input)).toEqual({ ok: false, problem: 'invalid' });
  });

  it('covers enough of both kinds', () => {
    expect(emailExamples.length).toBeGreaterThanOrEqual(25);
    expect(emailExamples.filter((e) => e.valid).length).toBeGreaterThanOrEqual(10);
    expect(emailExamples.filter((e) => !e.valid).length).toBeGreaterThanOrEqual(10);
  });
});
