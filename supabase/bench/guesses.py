"""A native thief's guesser, run by supabase/bench/guesses.ts (npm run bench:guesses).

private.address_hash(address) is sha256(secret || canonical address), then 64 rounds of
HMAC-SHA256 keyed with the secret. The key never changes, so HMAC's inner and outer states (the
key xor ipad, xor opad) are hashed once and copied each round: a round is then two SHA-256
compressions, in OpenSSL's C through hashlib, plus the interpreter's overhead per call.

stdin, one per line: the secret (hex), a canonical address, its private.address_hash (hex).
argv[1]: seconds to guess. Refuses (exit 1) unless its hash is the database's; then prints the
guesses per second, each guess a candidate's hash looked up among 100,000 stored hashes.
"""

import hashlib
import hmac
import os
import sys
import time

ROUNDS = 64  # private.stretch_hash, supabase/migrations/20261128100000_waiting_list.sql
STORED = 100_000


def guesser(secret):
    block = secret.ljust(64, b"\0")  # a key of at most 64 bytes is padded, not hashed
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in block)).copy
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in block)).copy
    sha256 = hashlib.sha256

    def address_hash(canonical):
        h = sha256(secret + canonical).digest()
        for _ in range(ROUNDS):
            i = inner()
            i.update(h)
            o = outer()
            o.update(i.digest())
            h = o.digest()
        return h

    return address_hash


def main():
    secret_hex, address, expected_hex = sys.stdin.read().split()
    secret, expected = bytes.fromhex(secret_hex), bytes.fromhex(expected_hex)
    address_hash = guesser(secret)
    # The same hash as the database's, and as HMAC computed whole (hmac.new) each round.
    whole = hashlib.sha256(secret + address.encode()).digest()
    for _ in range(ROUNDS):
        whole = hmac.new(secret, whole, "sha256").digest()
    if address_hash(address.encode()) != expected or whole != expected:
        sys.exit("guesses.py: this hash is not the database's private.address_hash")

    stored = {os.urandom(32) for _ in range(STORED)}
    matched = tried = 0
    started = time.perf_counter()
    until = started + float(sys.argv[1])
    while time.perf_counter() < until:
        for _ in range(100):
            if address_hash(b"guess.%d@example.com" % tried) in stored:
                matched += 1
            tried += 1
    print(round(tried / (time.perf_counter() - started)), matched)


main()
