import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { logMissingPath } from './missing-path';
import styles from './page.module.css';

/** docs/product.md §2: any path but / lands here, and the missing path is written to the console. */
export function NotFoundPage() {
  const { pathname } = useLocation();

  // In production the page is static and src/not-found-script.ts logs; this is the dev server's.
  useEffect(() => logMissingPath(pathname), [pathname]);

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.headline}>404</h1>
        <p className={styles.subline}>Oops! Page not found</p>
      </header>
      {/* A plain link: it works before any script has run, or without JavaScript at all. */}
      <a className={styles.link} href="/">
        Return to Home
      </a>
    </main>
  );
}
