import { toast } from 'sonner';
import type { ToastKind, ToastMessage } from './texts/messages';

/** Each kind as a sonner type: the Toaster (page-toaster.tsx) gives each type its look and marker. */
const show: Record<ToastKind, typeof toast.error> = {
  destructive: toast.error,
  notice: toast.info,
  success: toast.success,
};

export function showToast({ kind, title, description }: ToastMessage) {
  show[kind](title, { description });
}
