import { toast } from 'sonner';
import type { ToastKind, ToastMessage } from './texts/messages';

/** Each kind as a sonner type: the Toaster (page-toaster.tsx) gives each type its look and marker. */
const show: Record<ToastKind, typeof toast.error> = {
  destructive: toast.error,
  notice: toast.info,
  success: toast.success,
};

/**
 * How long each kind stays unless hovered or focused (docs/product.md, "Toasts: kinds and look"):
 * a message that asks for something stays until the visitor closes it or submits again (WCAG
 * 2.2.1); the success toast asks for nothing and leaves after 12 s.
 */
export const toastDurations: Record<ToastKind, number> = {
  destructive: Infinity,
  notice: Infinity,
  success: 12_000,
};

export function showToast({ kind, title, description }: ToastMessage) {
  show[kind](title, { description, duration: toastDurations[kind] });
}

/** A new submit replaces what the last one said: its toasts leave as the new submit starts. */
export const clearToasts = () => void toast.dismiss();
