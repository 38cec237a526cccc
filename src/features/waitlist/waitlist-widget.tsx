import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Toaster } from 'sonner';
import { JoinForm } from './join-form';

/** The working form with what it needs (mutation cache, toasts): the island's content (src/islands/waitlist.tsx). */
export default function WaitlistWidget() {
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <JoinForm />
      <Toaster theme="dark" position="top-center" closeButton richColors />
    </QueryClientProvider>
  );
}
