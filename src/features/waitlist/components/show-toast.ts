import { toast } from 'sonner';
import type { ToastKind, ToastMessage } from '../texts/messages';

const show: Record<ToastKind, typeof toast.error> = {
  destructive: toast.error,
  warning: toast.warning,
  success: toast.success,
};

export function showToast({ kind, title, description }: ToastMessage) {
  show[kind](title, { description });
}
