import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { connectEarlySubmit, holdingSending } from '../early-submit/early-submit';
import { checkEmail } from '../../../../contracts/email.ts';
import { WaitlistFormView } from './waitlist-form-view';
import { messages } from '../texts/messages';
import { clearToasts, showToast } from '../show-toast';
import { useJoinWaitlist } from './use-join-waitlist';

/** docs/product.md §4: idle ⇄ submitting; the field is cleared only when the address was added. */
export function WaitlistForm() {
  const [email, setEmail] = useState(readPrerenderedField);
  const [invalid, setInvalid] = useState(false);
  // A submit held by the first script may already show as sending: start in that state.
  const [resumingHeldSubmit] = useState(holdingSending);
  const input = useRef<HTMLInputElement>(null);
  // From the submit until the answer: React Query tells React of the mutation a task later (by
  // setTimeout), and a busy browser runs the second click of a double click before that task.
  const awaitingAnswer = useRef(false);
  const join = useJoinWaitlist({
    onAdded: () => setEmail(''),
    onAnswered: () => (awaitingAnswer.current = false),
  });
  const sending = join.isPending || (resumingHeldSubmit && join.isIdle);

  // The disabled field lost focus while sending; give it back once the answer is in.
  const sent = useRef(false);
  useEffect(() => {
    if (sending) sent.current = true;
    else if (sent.current) input.current?.focus();
  }, [sending]);

  /** docs/product.md §5's checks, then the one request: every submit, early or late, ends here. */
  function submitAddress(address: string) {
    clearToasts();
    const check = checkEmail(address);
    setInvalid(!check.ok);
    if (!check.ok) {
      showToast(check.problem === 'required' ? messages.emailRequired : messages.invalidEmail);
      input.current?.focus();
      return;
    }
    awaitingAnswer.current = true;
    join.mutate(check.email);
  }

  // Take over from the first script before the browser can dispatch another event, and carry
  // out the submit it held, if any.
  const carryOutHeldSubmit = useEffectEvent(submitAddress);
  useLayoutEffect(() => connectEarlySubmit(carryOutHeldSubmit), []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!sending && !awaitingAnswer.current) submitAddress(email);
  }

  return (
    <WaitlistFormView
      email={email}
      onEmailChange={(value) => {
        setEmail(value);
        setInvalid(false);
      }}
      onSubmit={onSubmit}
      submitting={sending}
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
