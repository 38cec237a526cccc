import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { PageToaster } from './page-toaster';
import { WaitlistForm } from './waitlist-form';

/** The working form with what it needs (mutation cache, toasts): the island's content (src/islands/waitlist.tsx). */
export function WaitlistRoot() {
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <WaitlistForm />
      <PageToaster />
    </QueryClientProvider>
  );
}
