/** The map of the waitlist command: each command's name and its file under commands/. */
import type { Command } from 'commander';

/** Every command, each module loaded only when its command runs (or for --help): export loads no mailer. */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  count: async () => (await import('./commands/count.ts')).countCommand(),
  export: async () => (await import('./commands/export.ts')).exportCommand(),
  erase: async () => (await import('./commands/erase.ts')).eraseCommand(),
  suppress: async () => (await import('./commands/suppress.ts')).suppressCommand(),
  limits: async () => (await import('./commands/limits.ts')).limitsCommand(),
  origins: async () => (await import('./commands/origins.ts')).originsCommand(),
  notify: async () => (await import('./commands/notify.ts')).notifyCommand(),
  domain: async () => (await import('./commands/domain.ts')).domainCommand(),
  health: async () => (await import('./commands/health.ts')).healthCommand(),
  keys: async () => (await import('./commands/keys.ts')).keysCommand(),
  baseline: async () => (await import('./commands/baseline.ts')).baselineCommand(),
  deploy: async () => (await import('./commands/deploy.ts')).deployCommand(),
  setup: async () => (await import('./commands/setup.ts')).setupCommand(),
};
