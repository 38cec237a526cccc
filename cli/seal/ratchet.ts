/**
 * The hash ratchet (supabase/security.md, "Sealed at rest"). The recovery key is k₀; each step's
 * chain key is kᵢ₊₁ = HMAC-SHA256(kᵢ, NEXT). A step seals with two keys of its own, derived from
 * kᵢ under other labels, so knowing a step's sealing keys tells nothing of its chain key. The
 * database holds only the current step's keys (private.seal_key) and derives them the same way.
 */
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

export const LABELS = {
  next: 'waitlist ratchet: next chain key',
  encryption: 'waitlist ratchet: encryption key',
  authentication: 'waitlist ratchet: authentication key',
} as const;

/** Each key raw (for HMAC written out by hand) and as a KeyObject (per-row ciphers and HMACs: several times faster). */
export type StepKeys = {
  step: number;
  encryptionKey: Buffer;
  authenticationKey: Buffer;
  encryption: KeyObject;
  authentication: KeyObject;
};

const derive = (chainKey: Buffer, label: string) => createHmac('sha256', chainKey).update(label).digest();

/** The chain of steps 0, 1, 2, … from one recovery key, each derived once and kept. */
export class Ratchet {
  private readonly chain: Buffer[];
  private readonly keys = new Map<number, StepKeys>();

  constructor(recoveryKey: Buffer) {
    this.chain = [recoveryKey];
  }

  chainKey(step: number): Buffer {
    if (!Number.isInteger(step) || step < 0) throw new RangeError(`not a ratchet step: ${step}`);
    while (this.chain.length <= step) this.chain.push(derive(this.chain[this.chain.length - 1], LABELS.next));
    return this.chain[step];
  }

  at(step: number): StepKeys {
    let keys = this.keys.get(step);
    if (!keys) {
      const chainKey = this.chainKey(step);
      const encryptionKey = derive(chainKey, LABELS.encryption);
      const authenticationKey = derive(chainKey, LABELS.authentication);
      keys = {
        step,
        encryptionKey,
        authenticationKey,
        encryption: createSecretKey(encryptionKey),
        authentication: createSecretKey(authenticationKey),
      };
      this.keys.set(step, keys);
    }
    return keys;
  }

  /** What the database shows of its chain key (private.seal_status): sha256(kᵢ). */
  fingerprint(step: number): Buffer {
    return createHash('sha256').update(this.chainKey(step)).digest();
  }
}
