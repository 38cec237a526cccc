import { useMutation } from '@tanstack/react-query';
import { insertEmail } from './insert-email';
import { messages } from './messages';
import { notify } from './notify';

/** The one mutation of the site: insert, then tell the visitor how it went (docs/product.md §8). */
export function useJoinWaitingList() {
  return useMutation({
    mutationKey: ['waiting-list', 'join'],
    mutationFn: insertEmail,
    onSuccess: (outcome) => notify(outcome === 'added' ? messages.added : messages.alreadyRegistered),
    onError: (error) => {
      console.error('Could not join the waiting list:', error);
      notify(messages.failed);
    },
  });
}
