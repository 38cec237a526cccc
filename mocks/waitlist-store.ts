/**
 * The mock backend's copy of the waitlist table (waiting_list): each address's canonical form, NFC
 * then lower case, as the database's private.canonical_address(). In a browser it survives reloads
 * via localStorage.
 */
const STORAGE_KEY = 'mock-waitlist';
const SEED = ['taken@example.com'];

const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

function load(): Set<string> {
  const saved = storage?.getItem(STORAGE_KEY);
  return new Set(saved ? (JSON.parse(saved) as string[]) : SEED);
}

let emails = load();
const key = (email: string) => email.normalize('NFC').toLowerCase();

export const waitlistStore = {
  has: (email: string) => emails.has(key(email)),
  add(email: string) {
    emails.add(key(email));
    storage?.setItem(STORAGE_KEY, JSON.stringify([...emails]));
  },
  /** Back to the seed, for tests. */
  reset() {
    storage?.removeItem(STORAGE_KEY);
    emails = load();
  },
};
