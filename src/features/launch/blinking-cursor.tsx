import styles from './blinking-cursor.module.css';

/**
 * docs/product.md §2 and §9: toggles between visible and hidden every 1000 ms, a pure CSS animation
 * (see --cursor-blink), twice, then stays visible (WCAG 2.2.2, docs/product.md §10). It stays
 * visible and still from the start when the visitor asks for reduced motion.
 */
export function BlinkingCursor() {
  return <span className={styles.cursor} aria-hidden="true" data-testid="cursor" />;
}
