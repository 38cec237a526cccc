/** One of several (projects, accounts): the only one, else picked by number on a terminal, else named by a variable. */
import { ask, interactive, say, UsageError } from './terminal.ts';

export async function choose<T>(what: string, items: T[], label: (item: T) => string, variable: string): Promise<T> {
  if (items.length === 1) return items[0];
  const listed = items.map((item, index) => `  ${index + 1}. ${label(item)}`).join('\n');
  if (!items.length) throw new UsageError(`The token reaches no ${what}: make one first, or check the token.`);
  if (!interactive()) throw new UsageError(`Name the ${what} with ${variable}; the token reaches:\n${listed}`);
  say(`The token reaches these, which ${what}?\n${listed}`);
  const picked = items[Number(await ask(`Number (1-${items.length}): `)) - 1];
  if (!picked) throw new UsageError(`Not one of 1-${items.length}: nothing changed.`);
  return picked;
}
