/**
 * The chain of 16 migrations that the baseline replaced, as a project that pushed it before
 * 2026-11-28 has it (kept here unchanged: CI clones shallow, so no old commit is at hand).
 */
import { fileURLToPath } from 'node:url';
import { migrationFiles } from '../harness/migrations';

export const CHAIN_2026_11_26 = migrationFiles(fileURLToPath(new URL('fixtures/chain-2026-11-26/', import.meta.url)));
