import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { checkEmail } from './email';
import { loadSupabase } from './insert-email';
import { JoinFormView } from './join-form-view';
import { messages } from './messages';
import { notify } from './notify';
import { useJoinWaitingList } from './use-join-waiting-list';

/** SPEC §4: idle ⇄ submitting; the field is cleared only when the address was added. */
export function JoinForm() {
  const [email, setEmail] = useState(readPrerenderedField);
  const [invalid, setInvalid] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const join = useJoinWaitingList();
  const sending = join.isPending;

  // The visitor is here to submit: fetch the backend client now rather than on click.
  useEffect(() => void loadSupabase(), []);

  // The disabled field lost focus while sending; give it back once the answer is in.
  const sent = useRef(false);
  useEffect(() => {
    if (sending) sent.current = true;
    else if (sent.current) input.current?.focus();
  }, [sending]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const check = checkEmail(email);
    setInvalid(!check.ok);
    if (!check.ok) {
      notify(check.problem === 'required' ? messages.emailRequired : messages.invalidEmail);
      input.current?.focus();
      return;
    }
    join.mutate(check.email, { onSuccess: (outcome) => outcome === 'added' && setEmail('') });
  }

  return (
    <JoinFormView
      email={email}
      onEmailChange={(value) => {
        setEmail(value);
        setInvalid(false);
      }}
      onSubmit={submit}
      submitting={sending}
      canSubmit={hydrated}
      invalid={invalid}
      inputRef={input}
    />
  );
}

/** What the visitor typed into the prerendered field before the page ran (none on the server). */
function readPrerenderedField() {
  if (typeof document === 'undefined') return '';
  return document.querySelector<HTMLInputElement>('#waitlist-email')?.value ?? '';
}
