/**
 * The mock backend's copy of the waitlist table (waiting_list): lower-cased addresses (the database refuses
 * duplicates regardless of letter case). In a browser it survives reloads via localStorage.
 */
const STORAGE_KEY = 'mock-waitlist';
const SEED = ['taken@example.com'];

const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

function load(): Set<string> {
  const saved = storage?.getItem(STORAGE_KEY);
  return new Set(saved ? (JSON.parse(saved) as string[]) : SEED);
}

let emails = load();

export const waitlistStore = {
  has: (email: string) => emails.has(email.toLowerCase()),
  add(email: string) {
    emails.add(email.toLowerCase());
    storage?.setItem(STORAGE_KEY, JSON.stringify([...emails]));
  },
  /** Back to the seed, for tests. */
  reset() {
    storage?.removeItem(STORAGE_KEY);
    emails = load();
  },
};
