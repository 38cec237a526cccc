/**
 * docs/product.md §5 and §8: every toast the waiting list shows, letter for letter.
 * `destructive` toasts are the destructive ones of docs/product.md §5 and §8 (sonner error toasts);
 * `notice` and `success` are the others (docs/product.md, "Toasts: kinds and look").
 */
export type ToastKind = 'destructive' | 'notice' | 'success';
export type ToastMessage = { kind: ToastKind; title: string; description: string };

export const messages = {
  emailRequired: {
    kind: 'destructive',
    title: 'Email Required',
    description: 'Please enter your email address to join the waiting list.',
  },
  invalidEmail: {
    kind: 'notice',
    title: 'Invalid Email',
    description: 'Please enter a valid email address.',
  },
  alreadyRegistered: {
    kind: 'destructive',
    title: 'Already Registered',
    description: "This email is already on our waiting list. We'll notify you when we launch!",
  },
  failed: {
    kind: 'notice',
    title: 'Error',
    description: 'Something went wrong. Please try again.',
  },
  added: {
    kind: 'success',
    title: 'Successfully Added!',
    description: "You've been added to our waiting list. We'll notify you when we launch.",
  },
} as const satisfies Record<string, ToastMessage>;
