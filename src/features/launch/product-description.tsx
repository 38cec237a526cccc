import styles from './product-description.module.css';

/** The description block of docs/product.md §2: what the product is and for whom. */
export function ProductDescription() {
  return (
    <div className={styles.description}>
      <p>
        Cyber attacks rarely stop at stolen data. They halt production lines, freeze payments and take whole enterprises
        offline, and every hour of downtime is a loss.
      </p>
      <p>
        We are building a cyber-defense platform that protects enterprises from the operational losses attacks cause,
        with zero tolerance for breaches.
      </p>
    </div>
  );
}
