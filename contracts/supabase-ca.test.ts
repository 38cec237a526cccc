/**
 * The one copy of Supabase's root CA is the genuine one: a changed character would go unnoticed
 * by the tests (they verify against CAs of their own) and fail every connection to Supabase.
 */
import { expect, it } from 'vitest';
import { SUPABASE_CA } from './supabase-ca.ts';

it('holds one certificate, Supabase Root 2021 CA, by its SHA-256 fingerprint (docs/operations.md)', async () => {
  expect(SUPABASE_CA.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(1);
  const base64 = SUPABASE_CA.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  const der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  const fingerprint = [...digest].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
  expect(fingerprint).toBe(
    '80:70:25:AD:50:D4:ED:21:9D:2C:9C:7D:29:9C:00:4F:82:4E:B0:0C:F7:F6:5A:FE:F6:07:D0:7B:72:E6:CA:FA',
  );
});
