import { useRef, useState, type FormEvent } from 'react';
import { checkEmail } from './email';
import { messages } from './messages';
import { notify } from './notify';
import { useJoinWaitingList } from './use-join-waiting-list';
import styles from './join-form.module.css';

/** SPEC §2 and §4: idle ⇄ submitting; the field is cleared only when the address was added. */
export function JoinForm() {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const join = useJoinWaitingList();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (join.isPending) return;
    const check = checkEmail(email);
    setInvalid(!check.ok);
    if (!check.ok) {
      notify(check.problem === 'required' ? messages.emailRequired : messages.invalidEmail);
      input.current?.focus();
      return;
    }
    join.mutate(check.email, {
      onSuccess: (outcome) => outcome === 'added' && setEmail(''),
      // The disabled field lost focus while sending; give it back for the next try.
      onSettled: () => requestAnimationFrame(() => input.current?.focus()),
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-busy={join.isPending}>
      <fieldset className={styles.row} disabled={join.isPending}>
        <label htmlFor="waitlist-email" className="visually-hidden">
          Email address
        </label>
        <input
          ref={input}
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
          onChange={(event) => {
            setEmail(event.target.value);
            setInvalid(false);
          }}
        />
        <button className={styles.button} type="submit">
          {join.isPending ? (
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
    </form>
  );
}
