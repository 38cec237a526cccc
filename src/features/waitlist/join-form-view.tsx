import type { FormEvent, Ref } from 'react';
import styles from './join-form.module.css';

type Props = {
  email: string;
  onEmailChange?: (email: string) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Sending: input and button disabled, the spinner shown (SPEC §4). */
  submitting?: boolean;
  /** Until the page runs, the button stays off: a native submission would put the address in the URL. */
  canSubmit?: boolean;
  invalid?: boolean;
  /** The form's code is still on its way (rendered in the browser, not hydrated): all off. */
  loading?: boolean;
  inputRef?: Ref<HTMLInputElement>;
};

/** The waiting-list form as the visitor sees it (SPEC §2); the behaviour is join-form.tsx's. */
export function JoinFormView({ email, onEmailChange, onSubmit, submitting = false, canSubmit = false, invalid = false, loading = false, inputRef }: Props) {
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-busy={submitting}>
      <fieldset className={styles.row} disabled={submitting || loading}>
        <label htmlFor="waitlist-email" className="visually-hidden">
          Email address
        </label>
        <input
          ref={inputRef}
          id="waitlist-email"
          className={styles.input}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          placeholder="Enter your email address"
          aria-invalid={invalid || undefined}
          aria-describedby="waitlist-note"
          value={email}
          onChange={(event) => onEmailChange?.(event.target.value)}
        />
        <button className={styles.button} type="submit" disabled={!canSubmit}>
          {submitting ? (
            <>
              <span className={styles.spinner} aria-hidden="true" />
              SECURING ACCESS...
            </>
          ) : (
            'JOIN WAITING LIST'
          )}
        </button>
      </fieldset>
      <p id="waitlist-note" className={styles.note}>
        Early access • Priority notifications • Exclusive updates
      </p>
      <noscript>
        <p className={styles.note}>JavaScript is needed to join the waiting list.</p>
      </noscript>
    </form>
  );
}
