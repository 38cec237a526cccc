import { useEffect } from 'react';
import formStyles from '../features/waitlist/components/waitlist-form.module.css';
import { backendUrl } from '../lib/env';
import styles from './page.module.css';
import { confirmUnsubscribe, UNSUBSCRIBE_IDS, unsubscribeTexts } from './unsubscribe';

/**
 * The page the body's unsubscribe link opens (docs/product.md, decisions). Prerendered with its
 * button disabled: src/unsubscribe-script.ts enables it once wired.
 */
export function UnsubscribePage() {
  // In production the page is static and its script wires the button; this is the dev server's.
  useEffect(() => confirmUnsubscribe(backendUrl!), []);

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.headline}>UNSUBSCRIBE</h1>
        <p id={UNSUBSCRIBE_IDS.status} className={styles.subline} aria-live="polite" tabIndex={-1}>
          {unsubscribeTexts.ask}
        </p>
      </header>
      <div>
        <button id={UNSUBSCRIBE_IDS.button} className={formStyles.button} type="button" disabled>
          {unsubscribeTexts.button}
        </button>
      </div>
    </main>
  );
}
