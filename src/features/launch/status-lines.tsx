import styles from './status-lines.module.css';

const statuses = ['DEFENSE SYSTEMS ONLINE', 'THREAT MONITORING ACTIVE', 'LAUNCH IMMINENT'];

/** The three status lines at the bottom of the landing page (docs/product.md §2). */
export function StatusLines() {
  return (
    <ul className={styles.list} aria-label="System status">
      {statuses.map((status) => (
        <li key={status} className={styles.status}>
          <span className={styles.light} aria-hidden="true" />
          {status}
        </li>
      ))}
    </ul>
  );
}
