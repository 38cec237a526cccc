import styles from './mock-notice.module.css';

/**
 * Shown by the dev server only (src/main.tsx; a build never loads it) when the mock backend's
 * service worker could not start: the page works, but every submit answers 'Error'.
 */
export function MockNotice({ reason }: { reason: string }) {
  return (
    <aside className={styles.notice} aria-label="Development notice">
      <strong>The mock backend could not start</strong>, so every submit answers &lsquo;Error&rsquo;: {reason}
      <br />
      This browser blocks its service worker (service workers turned off, or an HTTPS certificate it does not trust).
      Open the dev server over plain <code>http://</code>: <code>http://localhost:5173</code> here, or{' '}
      <code>npm run dev -- --host</code> and <code>http://&lt;LAN address&gt;:5173</code> from a phone. Where a browser
      offers no service workers, the mock runs inside the page.
    </aside>
  );
}
