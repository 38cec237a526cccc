/** The one way every command reaches the database: DATABASE_URL, as the owner (postgres). */
import pg from 'pg';
import { UsageError } from './terminal.ts';

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new UsageError(
      'DATABASE_URL is not set. Use the session pooler connection string of your Supabase project ' +
        '(Dashboard → Connect → Session pooler); see docs/operations.md.',
    );
  }
  return url;
}

export function newClient(): pg.Client {
  return new pg.Client({ connectionString: databaseUrl(), application_name: 'waitlist-cli' });
}

/** Connects, runs `work`, and always disconnects. */
export async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = newClient();
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** For commands that work on several connections at once (notify's senders). */
export function newPool(size: number): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl(), application_name: 'waitlist-cli', max: size });
}
