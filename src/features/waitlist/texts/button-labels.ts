/** docs/product.md §2 and §4: the submit button's label, idle and while sending (the toasts are in messages.ts). */
export const buttonLabels = {
  idle: 'JOIN WAITING LIST',
  sending: 'SECURING ACCESS...',
} as const;
