import { WAITLIST_ISLAND_ID } from '../dom-ids';
import styles from './waitlist-island.module.css';
import { WaitlistRoot } from './waitlist-root';

/**
 * The form is the page's one island: prerendered with the page, and in production hydrated
 * alone, on the visitor's first interaction or first submit; everything around it stays static
 * HTML. The wrapper takes no box of its own (display: contents), so the page lays out as before.
 */
export function WaitlistIsland() {
  return (
    <div id={WAITLIST_ISLAND_ID} className={styles.island}>
      <WaitlistRoot />
    </div>
  );
}
