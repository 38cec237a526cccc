import { useMutation } from '@tanstack/react-query';
import { insertEmail } from '../api/insert-email';
import { resendByReload } from '../early-submit/early-submit';
import { messages } from '../texts/messages';
import { showToast } from '../show-toast';

/**
 * The one mutation of the site: insert, then tell the visitor how it went (docs/product.md §8).
 * `onAdded` (the address is on the list) and `onAnswered` (any answer, or a failure) run with
 * the mutation's own callbacks, which fire even when the form started it before React had
 * subscribed to it (a held early submit, carried out as the form mounts).
 */
export function useJoinWaitlist({ onAdded, onAnswered }: { onAdded: () => void; onAnswered: () => void }) {
  return useMutation({
    mutationKey: ['waitlist', 'join'],
    mutationFn: (email: string) => insertEmail(email, resendByReload),
    onSuccess: (outcome) => {
      showToast(outcome === 'added' ? messages.added : messages.alreadyRegistered);
      if (outcome === 'added') onAdded();
    },
    onError: (error) => {
      console.error('Could not join the waiting list:', error);
      showToast(messages.failed);
    },
    onSettled: onAnswered,
  });
}
