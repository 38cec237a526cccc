import styles from './terminal-intro.module.css';

const lines = [
  '$ defense --status',
  '> perimeter scan .......... clean',
  '> breach tolerance ........ zero',
  '> launch sequence ......... armed',
];

/** The terminal-style intro of docs/product.md §2; its lines fade in unless motion is reduced. */
export function TerminalIntro() {
  return (
    <div className={styles.terminal} aria-label="System console" role="group">
      {lines.map((line) => (
        <p key={line} className={styles.line}>
          {line}
        </p>
      ))}
    </div>
  );
}
