/**
 * The owner's export, run exactly as supabase/README.md documents it: psql's \copy of
 * private.waiting_list_export. Cells a spreadsheet would run as formulas come out escaped; the
 * stored addresses stay as typed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { insertEmail, refusal } from './api-request';
import { useDatabase } from './use-database';

const run = promisify(execFile);
const db = useDatabase();

/** The documented one-liner, with the test server's socket instead of $DATABASE_URL. */
const EXPORT = "\\copy (select * from private.waiting_list_export) to 'waiting-list.csv' csv header";

async function exportCsv(): Promise<string> {
  const info = inject('database');
  const dir = mkdtempSync(join(tmpdir(), 'waitlist-export-'));
  try {
    await run(
      join(info.binDir, 'psql'),
      [
        '-X',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        info.host,
        '-p',
        String(info.port),
        '-U',
        'postgres',
        '-d',
        info.database,
        '-c',
        EXPORT,
      ],
      { cwd: dir },
    );
    return readFileSync(join(dir, 'waiting-list.csv'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FORMULAS = ['=1+2@example.com', '+cmd@example.com', '-2+3@example.com', '=HYPERLINK("http://x")@example.com'];

describe('the CSV export', () => {
  it('prefixes cells starting with = + - @ with a quote, keeps other addresses and the stored rows as typed', async () => {
    for (const email of [...FORMULAS, 'plain-export@example.com']) await insertEmail(db.api, email);
    const csv = await exportCsv();
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('email,signed_up_utc');
    expect(lines.some((l) => l.startsWith("'=1+2@example.com,"))).toBe(true);
    for (const email of FORMULAS) {
      const line = lines.find((l) => l.includes(email.replace(/"/g, '""')));
      expect(line, email).toBeDefined();
      expect(line!.replace(/^"/, '')).toMatch(/^'[=+\-@]/);
    }
    expect(lines.some((l) => l.startsWith('plain-export@example.com,'))).toBe(true);
    for (const line of lines.slice(1)) expect(line).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // No cell of the export starts with a formula character.
    for (const line of lines.slice(1)) expect(line.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);

    const { rows } = await db.owner.query(
      'select email from public.waiting_list where email = any($1) order by email',
      [FORMULAS],
    );
    expect(rows.map((row) => row.email)).toEqual([...FORMULAS].sort());
  });

  it('is a security_invoker view: it never reads the list for a role that may not read the table', async () => {
    const { rows } = await db.owner.query(
      `select reloptions from pg_class where oid = 'private.waiting_list_export'::regclass`,
    );
    expect(rows).toEqual([{ reloptions: ['security_invoker=true'] }]);
    // Even a role given the schema, the view and the function (a mistaken grant) gets nothing:
    // the view checks the querying role's SELECT on public.waiting_list, which anon lacks.
    await db.owner.query('begin');
    try {
      await db.owner.query(`grant usage on schema private to anon;
                            grant select on private.waiting_list_export to anon;
                            grant execute on function private.csv_cell(text) to anon`);
      await db.owner.query(`set local role anon`);
      const error = await refusal(db.owner.query('select * from private.waiting_list_export'));
      expect(error).toMatchObject({ code: '42501', message: 'permission denied for table waiting_list' });
    } finally {
      await db.owner.query('rollback');
    }
  });

  it('escapes every cell a spreadsheet would evaluate: = + - @ tab and carriage return at the start', async () => {
    const cells = ['=1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'x=1', ' =1', 'ada@example.com', ''];
    const { rows } = await db.owner.query(
      'select private.csv_cell(c) as cell from unnest($1::text[]) with ordinality u(c, n) order by n',
      [cells],
    );
    expect(rows.map((row) => row.cell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'x=1',
      ' =1',
      'ada@example.com',
      '',
    ]);
  });
});
