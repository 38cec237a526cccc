/** health's view of the unsubscribe function's role: expected, with one EXECUTE grant and nothing more. */
import { describe, expect, it } from 'vitest';
import { checkUnsubscribeRole } from '../commands/health/unsubscribe-role';
import { useOwnDatabase } from './own-database';

const db = useOwnDatabase('cli_health_unsubscribe_role');

/** The check's finding while `grant` holds; `revoke` puts it back. */
async function granting(grant: string, revoke: string) {
  await db.owner.query(grant);
  try {
    return await checkUnsubscribeRole(db.owner);
  } finally {
    await db.owner.query(revoke);
  }
}

describe('the unsubscribe role check', () => {
  // As the migrations leave it, ok: health.test.ts, a healthy project.
  it('names a table it may read, a column it may write and another function it may execute', async () => {
    expect(
      await granting(
        'grant select on private.do_not_email to waitlist_unsubscribe',
        'revoke select on private.do_not_email from waitlist_unsubscribe',
      ),
    ).toMatchObject({ outcome: 'problem', says: 'waitlist_unsubscribe holds privileges on private.do_not_email.' });
    expect(
      await granting(
        'grant update (detail) on private.notify_journal to waitlist_unsubscribe',
        'revoke update (detail) on private.notify_journal from waitlist_unsubscribe',
      ),
    ).toMatchObject({ says: 'waitlist_unsubscribe holds privileges on private.notify_journal.' });
    expect(
      await granting(
        'grant execute on function private.address_hash(text) to waitlist_unsubscribe',
        'revoke execute on function private.address_hash(text) from waitlist_unsubscribe',
      ),
    ).toMatchObject({ says: 'waitlist_unsubscribe may execute private.address_hash(text).' });
  });

  it('says when the role lost its one grant, or is a member of a role that holds more', async () => {
    expect(
      await granting(
        'revoke execute on function private.unsubscribe(bytea) from waitlist_unsubscribe',
        'grant execute on function private.unsubscribe(bytea) to waitlist_unsubscribe',
      ),
    ).toMatchObject({ outcome: 'problem', says: 'waitlist_unsubscribe may not execute private.unsubscribe(bytea).' });
    const member = await granting(
      'grant postgres to waitlist_unsubscribe',
      'revoke postgres from waitlist_unsubscribe',
    );
    expect(member.says).toContain('is a member of postgres');
  });
});
