import { BlinkingCursor } from '../features/launch/blinking-cursor';
import { ProductDescription } from '../features/launch/product-description';
import { StatusLines } from '../features/launch/status-lines';
import { TerminalIntro } from '../features/launch/terminal-intro';
import { WaitlistIsland } from '../features/waitlist/components/waitlist-island';
import styles from './page.module.css';

/** docs/product.md §2, top to bottom. */
export function LandingPage() {
  return (
    <main className={styles.page}>
      <TerminalIntro />
      <header className={styles.header}>
        <h1 className={styles.headline}>COMING SOON</h1>
        <p className={styles.subline}>
          TO CHANGE THE INDUSTRY
          <BlinkingCursor />
        </p>
      </header>
      <ProductDescription />
      <WaitlistIsland />
      <StatusLines />
    </main>
  );
}
