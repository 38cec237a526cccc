/**
 * Serves a small page with the security headers to Chromium and lists what it logs: an
 * unrecognized Permissions-Policy feature, a bad CSP directive, or a blocked style (a style=""
 * attribute, sonner's <style> inserted the way sonner does it). Exits 1 if anything was logged.
 * Usage: npx tsx scripts/check-headers.ts
 */
import { chromium } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { securityHeaders } from './security-headers.ts';
import { sonnerCss } from './sonner-style-hash.ts';

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>headers</title>
<script type="module" src="/sonner.js"></script></head>
<body><p style="animation-delay:180ms">prerendered</p></body></html>`;

// sonner's __insertCSS: an empty <style> is appended first, its text after.
const sonner = `const style = document.createElement('style');
document.head.appendChild(style);
style.appendChild(document.createTextNode(${JSON.stringify(sonnerCss())}));
document.body.dataset.sonner = style.sheet?.cssRules.length ? 'applied' : 'blocked';`;

const server = createServer((request, response) => {
  for (const [name, value] of securityHeaders('https://example.supabase.co')) response.setHeader(name, value);
  const script = request.url === '/sonner.js';
  response.setHeader('Content-Type', script ? 'text/javascript' : 'text/html; charset=utf-8');
  response.end(script ? sonner : page);
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const { port } = server.address() as AddressInfo;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-gpu', '--disable-quic'],
});
const logged: string[] = [];
const version = browser.version();
try {
  const tab = await browser.newPage();
  const cdp = await tab.context().newCDPSession(tab);
  cdp.on('Log.entryAdded', ({ entry }) => logged.push(`${entry.level}: ${entry.text}`));
  cdp.on('Audits.issueAdded', ({ issue }) => logged.push(`issue: ${issue.code}`));
  await cdp.send('Log.enable');
  await cdp.send('Audits.enable');
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForFunction(() => document.body.dataset.sonner);
  const sonnerStyle = await tab.evaluate(() => document.body.dataset.sonner);
  const delay = await tab.locator('p').evaluate((p) => getComputedStyle(p).animationDelay);
  console.log(`sonner's <style>: ${sonnerStyle}; style="" attribute: animation-delay ${delay}`);
  if (sonnerStyle !== 'applied' || delay !== '0.18s') logged.push('error: a style was not applied');
} finally {
  await browser.close();
  server.close();
}

console.log(`Chromium ${version}: ${logged.length ? `\n${logged.join('\n')}` : 'nothing logged'}`);
process.exitCode = logged.length ? 1 : 0;
