import styles from './blinking-cursor.module.css';

/**
 * docs/product.md §2 and §9: toggles between visible and hidden every 1000 ms, a pure CSS animation
 * (see --cursor-blink). It stays visible and still when the visitor asks for reduced motion.
 */
export function BlinkingCursor() {
  return <span className={styles.cursor} aria-hidden="true" data-testid="cursor" />;
}
