/**
 * `npm run test:a11y`: the built site heard through Orca, a real screen reader, in Debian's Firefox
 * ESR under Xvfb. Keys reach the screen as a visitor's would (XTest, through AT-SPI); what Orca
 * says is read from its own debug file ("SPEECH OUTPUT" lines), never from the page. Speech goes
 * through speech-dispatcher and espeak-ng to a silent sound device. Prints what Orca said per step.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { magicAddresses } from '../mocks/handlers';
import { unsubscribeTexts } from '../src/pages/unsubscribe';
import { buttonLabels } from '../src/features/waitlist/texts/button-labels';
import { messages } from '../src/features/waitlist/texts/messages';
import { E2E_SUPABASE_URL } from './e2e-backend';
import { openTab } from './firefox-esr';
import { firefoxPath } from './browser';

// Debian's packages it runs, named before anything starts.
const PACKAGES = 'xvfb dbus-daemon speech-dispatcher speech-dispatcher-espeak-ng orca libglib2.0-bin python3-pyatspi';
const found = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const atspi = spawnSync('/usr/bin/python3', ['-c', 'import gi; gi.require_version("Atspi", "2.0")']).status === 0;
if (!['Xvfb', 'dbus-daemon', 'speech-dispatcher', 'orca', 'gsettings'].every(found) || !atspi) {
  console.error(
    `npm run test:a11y needs Firefox ESR and Orca's stack: sudo apt-get install -y firefox-esr ${PACKAGES}`,
  );
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'screen-reader-'));
const site = join(dir, 'site');
const env = {
  VITE_SUPABASE_URL: E2E_SUPABASE_URL,
  VITE_SUPABASE_PUBLISHABLE_KEY: 'a11y',
  VITE_SITE_URL: 'http://127.0.0.1',
};
const built = spawnSync('npx', ['vite', 'build', '--outDir', site, '--emptyOutDir', '--logLevel', 'warn'], {
  stdio: 'inherit',
  env: { ...process.env, ...env },
});
if (built.status !== 0) throw new Error('The build failed');

const children: ChildProcess[] = [];
const stopChildren = () =>
  children
    .splice(0)
    .reverse()
    .forEach((child) => child.kill());
process.on('exit', stopChildren); // on a throw before the try below
const start = (command: string, args: string[], stdio: 'ignore' | 'pipe' = 'ignore') => {
  const child = spawn(command, args, { stdio: ['ignore', stdio, 'ignore', 'pipe'] });
  children.push(child);
  return child;
};
const firstLine = (stream: NodeJS.ReadableStream) =>
  new Promise<string>((resolve) => stream.once('data', (data: Buffer) => resolve(data.toString().trim())));
const until = async (what: string, test: () => boolean, timeout = 20_000) => {
  const end = Date.now() + timeout;
  while (!test()) {
    if (Date.now() > end) {
      throw new Error(`Not heard within ${timeout} ms: ${what}; last heard: ${said().slice(-8).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

// A display, a session bus, a silent speech server, then Orca: each ours, each stopped at the end.
const xvfb = start('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp']);
const display = `:${await firstLine(xvfb.stdio[3] as NodeJS.ReadableStream)}`;
const home = join(dir, 'home');
// Before the bus: the services it starts (the AT-SPI registry) read keys from this display.
Object.assign(process.env, { DISPLAY: display, HOME: home, XDG_RUNTIME_DIR: dir, GNOME_ACCESSIBILITY: '1' });
const bus = start('dbus-daemon', ['--session', '--nofork', '--print-address'], 'pipe');
const speechd = join(dir, 'speechd');
mkdirSync(speechd, { recursive: true });
mkdirSync(home);
writeFileSync(join(home, '.libao'), 'default_driver=null\n');
writeFileSync(
  join(speechd, 'speechd.conf'),
  'AudioOutputMethod "libao"\nAddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\nDefaultModule espeak-ng\n',
);
symlinkSync('/etc/speech-dispatcher/modules', join(speechd, 'modules'));
process.env.DBUS_SESSION_BUS_ADDRESS = await firstLine(bus.stdout!);
const socket = join(dir, 'speech-dispatcher', 'speechd.sock');
mkdirSync(join(dir, 'speech-dispatcher'));
start('speech-dispatcher', ['-s', '-t', '0', '-c', 'unix_socket', '-S', socket, '-C', speechd, '-L', speechd]);
spawnSync('gsettings', ['set', 'org.gnome.desktop.interface', 'toolkit-accessibility', 'true']);
const log = join(dir, 'orca.log');
// Orca's defaults, but no Say All on load: its caret, moving as it reads, takes focus from a field reached by Tab.
const profile = { profile: ['Default', 'default'], sayAllOnLoad: false };
mkdirSync(join(dir, 'orca'));
writeFileSync(
  join(dir, 'orca', 'user-settings.conf'),
  JSON.stringify({ general: profile, profiles: { default: profile }, pronunciations: {}, keybindings: {} }),
);
// Orca's debug file is block-buffered: flush it after each utterance, so it is read as it is said.
const flushEachUtterance = `import orca.debug as debug
println = debug.println
def flushing(level, text='', *rest):
    println(level, text, *rest)
    if debug.debugFile and 'SPEECH OUTPUT' in text: debug.debugFile.flush()
debug.println = flushing
`;
writeFileSync(join(dir, 'orca', 'orca-customizations.py'), flushEachUtterance);
start('orca', ['--replace', '-u', join(dir, 'orca'), `--debug-file=${log}`]);
const said = () =>
  [...(existsSync(log) ? readFileSync(log, 'utf8') : '').matchAll(/SPEECH OUTPUT: '(.*)'\{/g)].map(([, text]) => text);
await until('Orca starting', () => said().includes('Screen reader on.'), 60_000);

// The production build, as a host serves it: clean URLs, other paths answered by 404.html.
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((request, response) => {
  const path = new URL(request.url!, 'http://host').pathname;
  const file = join(site, path === '/' ? 'index.html' : path === '/unsubscribe' ? 'unsubscribe.html' : path);
  try {
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/html' }).end(readFileSync(join(site, '404.html')));
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

/** Keys pressed on the X display, as a keyboard would: names, `mod+key`, or `type:text`. */
const keysPy = `import sys, time, gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
S = Atspi.KeySynthType
sym = lambda name: {'Tab': 0xff09, 'Return': 0xff0d, 'Down': 0xff54, 'Home': 0xff50}.get(name) or ord(name)
mask = lambda name: 1 << int(getattr(Atspi.ModifierType, name.upper()))  # e.g. 'ctrl' -> ControlMask
for step in sys.argv[1:]:
    if step.startswith('type:'): Atspi.generate_keyboard_event(0, step[5:], S.STRING)
    else:
        *mods, key = step.split('+')
        for mod in mods: Atspi.generate_keyboard_event(mask(mod), None, S.LOCKMODIFIERS)
        Atspi.generate_keyboard_event(sym(key), None, S.SYM)
        for mod in mods: Atspi.generate_keyboard_event(mask(mod), None, S.UNLOCKMODIFIERS)
    time.sleep(0.3)`;
const press = (...keys: string[]) => spawnSync('/usr/bin/python3', ['-c', keysPy, ...keys], { stdio: 'inherit' });

const transcript: [string, string[]][] = [];
let heard = said().length;
/** Does `act`, then waits until Orca has said every one of `expected`; keeps what it said meanwhile. */
async function step(name: string, act: () => unknown, expected: (string | RegExp)[]) {
  await act();
  await until(`${name}: ${expected.join(' / ')}`, () =>
    expected.every((text) =>
      said()
        .slice(heard)
        .some((line) => (typeof text === 'string' ? line.includes(text) : text.test(line))),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 1500)); // anything said twice comes now
  const lines = said()
    .slice(heard)
    .filter((line) => !/^(.|\w+ |left alt |tab |return )$/.test(line)); // key echo
  heard = said().length;
  transcript.push([name, lines]);
}

/** Each page's first three lines, as Orca should read them from the top. */
const pages = {
  '/missing': ['404', 'Oops! Page not found', 'Return to Home'],
  '/unsubscribe#a-token': ['UNSUBSCRIBE', unsubscribeTexts.ask, 'Unsubscribe push button'],
};
const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: false });
const { page } = await openTab(browser, () => false);
// After an answer the field gets focus back, but Orca 43 at times keeps browse mode (it took the
// field's caret move for the focus): the visitor leaves the field and comes back, and types.
const retype = (address: string) => ['Tab', 'shift+Tab', 'control+a', `type:${address}`];
try {
  await step('the landing page loads', () => page.goto(origin), ['Finished loading']);
  // Into the page from the address bar, where a new tab puts focus: a click on the headline.
  await page.bringToFront();
  await page.click('h1');
  await step('Tab to the field', () => press('Tab'), ['Email address entry']);
  await page.waitForNetworkIdle(); // the form's code, fetched as focus came, has arrived
  const toasts: [string, string[], (typeof messages)[keyof typeof messages]][] = [
    ['Enter on the empty field', ['Return'], messages.emailRequired],
    ['"ada@example", Enter', ['type:ada@example', 'Return'], messages.invalidEmail],
    ['"taken@example.com", Enter', [...retype('taken@example.com'), 'Return'], messages.alreadyRegistered],
    [`"${magicAddresses.error}", Enter`, [...retype(magicAddresses.error), 'Return'], messages.failed],
  ];
  for (const [name, keys, message] of toasts) await step(name, () => press(...keys), [message.title]);
  await step(`"${magicAddresses.slow}", Tab to the button`, () => press(...retype(magicAddresses.slow), 'Tab'), [
    'JOIN WAITING LIST push button',
  ]);
  await step('Enter on the button', () => press('Return'), [buttonLabels.sending]);
  await step('the answer arrives', () => undefined, [messages.added.title]);
  for (const [path, lines] of Object.entries(pages)) {
    // Orca says either that the page has loaded or where its caret starts.
    await step(`${path}: loads`, () => page.goto(origin + path), [new RegExp(`^(Finished loading|${lines[0]})`)]);
    await step(
      `${path}: Ctrl+Home, then Down four times`,
      () => press('control+Home', 'Down', 'Down', 'Down', 'Down'),
      [lines[2]],
    );
  }
} finally {
  await browser.close();
  server.close();
  stopChildren();
  rmSync(dir, { recursive: true, force: true });
}
for (const [name, lines] of transcript) console.log(`${name}\n${lines.map((line) => `  "${line}"`).join('\n')}`);

// Each toast once, title and text in one utterance; the pages in reading order.
const everything = transcript.flatMap(([, lines]) => lines);
const once = (text: string, lines = everything) => {
  const times = lines.filter((line) => line.includes(text)).length;
  return times === 1 ? [] : [`"${text}" said ${times} times`];
};
const problems = Object.values(messages).flatMap(({ title, description }) => once(`${title} ${description}`));
// Every submit that is sent shows the sending state; the slow one lasts long enough to be heard for sure.
problems.push(...once(buttonLabels.sending, transcript.find(([name]) => name === 'Enter on the button')![1]));
const inOrder = (name: string, expected: string[]) => {
  const lines = transcript
    .filter(([step]) => step.startsWith(name))
    .flatMap(([, lines]) => lines)
    .join(' ')
    .replace(/\s+/g, ' '); // a line the page wraps is spoken as two: read as one text
  const at = expected.map((text) => lines.indexOf(text));
  if (at.some((i, n) => i < 0 || (n > 0 && i < at[n - 1]))) problems.push(`${name} not read in order: ${lines}`);
};
for (const [path, lines] of Object.entries(pages)) inOrder(path, lines);
if (problems.length) throw new Error(problems.join('\n'));
console.log('Orca heard every toast once, the field, the button while sending, and both pages in order.');
