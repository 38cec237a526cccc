/** What setup says last: what to keep (once, as docs/operations.md says it), and the daily check's GitHub settings. */
import { out } from '../../terminal/terminal.ts';

const quoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

export function whatToKeep(keyFile: string) {
  out(`What to keep. Only these cannot be made again; lose every holder's key or its passphrase and the list is lost:
  the owner key (${keyFile}): your password manager, as a file attachment, and a copy offline; then delete ${keyFile}
    and prove the stored copy opens the list: npm run waitlist -- keys check
  its passphrase: your password manager, as an entry of its own (never beside the key file)
Everything else is made again: new Supabase and Cloudflare tokens (Account → Access Tokens; My Profile → API
Tokens), the database password (Project Settings → Database → reset it), and .env.local: setup on any clone,
with the two tokens, the database password and any --project you gave, reads the rest back from the projects.`);
}

/** `gh` lines for the daily check's repository settings, each value given on standard input, never as an argument. */
export function githubSettings(env: NodeJS.ProcessEnv) {
  const variables = ['VITE_SITE_URL', 'VITE_SUPABASE_URL', 'VITE_SUPABASE_PUBLISHABLE_KEY'];
  out('\nThe daily check (.github/workflows/health.yml) needs these on GitHub; run them here, gh logged in:');
  for (const name of variables) out(`  printf %s ${quoted(env[name] ?? '')} | gh variable set ${name}`);
  out("  sed -n 's/^HEALTH_DATABASE_URL=//p' .env.local | gh secret set DATABASE_URL");
}
