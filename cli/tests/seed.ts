/** The seeded list: the shared address table's valid addresses, and a few an export must not touch. */
import { domainToUnicode } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { Client } from 'pg';
import { checkEmail } from '../../contracts/email.ts';
import { emailExamples } from '../../src/test/email-examples';

export const TRICKY = ['-dash@example.com', '+plus@example.com', 'a,comma@example.com'];

export function seededAddresses() {
  const examples = emailExamples.filter((e) => e.valid).map((e) => checkEmail(e.input));
  return [...examples.flatMap((c) => (c.ok ? [c.email] : [])), ...TRICKY];
}

/** `count` addresses named after a test: `name-0@example.com`, `name-1@example.com`… */
export const numbered = (name: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${name}-${i}@example.com`);

/** The addresses of an export's CSV (its first column, the header aside), in its order. */
export const exportedAddresses = (csv: string) =>
  (parse(csv, { record_delimiter: '\r\n', from_line: 2 }) as string[][]).map((record) => record[0]);

/** Adds each address unless the same address is listed already (by another test file). */
export async function seed(owner: Client, addresses = seededAddresses()) {
  for (const email of addresses) {
    await owner.query(
      `insert into public.waiting_list (email) select $1
       where not exists (select from private.signup_addresses where address_hash = private.address_hash($1))`,
      [email],
    );
  }
}

/**
 * How the test SMTP server reports a stored address it received: smtp-server shows the domain
 * lowercased and in Unicode, and a local part that is not a dot-atom arrives quoted.
 */
export function onTheWire(email: string) {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${/[,]/.test(local) ? `"${local}"` : local}@${domainToUnicode(email.slice(at + 1).toLowerCase())}`;
}
