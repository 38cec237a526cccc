import type { FormEvent, Ref } from 'react';
import { WAITLIST_FORM_ID } from '../dom-ids';
import { buttonLabels } from '../texts/button-labels';
import styles from './waitlist-form.module.css';

type Props = {
  email: string;
  onEmailChange?: (email: string) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Sending: input and button disabled, the spinner and the sending label shown (docs/product.md §4). */
  submitting?: boolean;
  invalid?: boolean;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * The waitlist form as the visitor sees it (docs/product.md §2); the behaviour is waitlist-form.tsx's.
 * `method="dialog"` outside a dialog makes a native submission a no-op: without JavaScript
 * the button does nothing, and the address never reaches a URL, a request or a host's log.
 * Every state is drawn from the form's `aria-busy` and the fieldset's `disabled` alone: the
 * markup holds both labels and CSS shows one, so the first script (early-submit.ts) can show
 * the submitting state by setting those two attributes. The sending label is also in a polite
 * status region after the form (outside its `aria-busy`), there from the start and shown to
 * assistive technology only while sending: the disabled button loses focus, so its new name alone
 * is never read.
 */
export function WaitlistFormView({
  email,
  onEmailChange,
  onSubmit,
  submitting = false,
  invalid = false,
  inputRef,
}: Props) {
  return (
    <>
      <form
        id={WAITLIST_FORM_ID}
        className={styles.form}
        method="dialog"
        onSubmit={onSubmit}
        noValidate
        aria-busy={submitting}
      >
        <fieldset className={styles.row} disabled={submitting}>
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
          <button className={styles.button} type="submit">
            <span className={styles.spinner} aria-hidden="true" />
            <span className={styles.idleLabel}>{buttonLabels.idle}</span>
            <span className={styles.sendingLabel}>{buttonLabels.sending}</span>
          </button>
        </fieldset>
        <p id="waitlist-note" className={styles.note}>
          Early access • Priority notifications • Exclusive updates
        </p>
        <noscript>
          <p className={styles.note}>JavaScript is needed to join the waiting list.</p>
        </noscript>
      </form>
      <p role="status" className={`visually-hidden ${styles.sendingNews}`}>
        <span>{buttonLabels.sending}</span>
      </p>
    </>
  );
}
