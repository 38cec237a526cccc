import { Toaster, type ToasterProps } from 'sonner';
import styles from './page-toaster.module.css';

/** A marker the eye reads beside the title; screen readers skip it (the title says it all). */
const marker = (text: string) => (
  <span className={styles.marker} aria-hidden="true">
    {text}
  </span>
);

/**
 * The toasts in the page's own voice, through sonner's styling options only: `unstyled` drops
 * sonner's look, `classNames` gives each part and each type ours (page-toaster.module.css), and
 * `icons` a text marker per type, so a destructive toast is told apart without its colour.
 * sonner's 'light' theme is the one that colours no part of an unstyled toast (its 'dark' theme
 * colours the description and the close button); the palette is the page's.
 */
const toastOptions: ToasterProps['toastOptions'] = {
  unstyled: true,
  classNames: {
    toast: styles.toast,
    content: styles.content,
    title: styles.title,
    description: styles.description,
    icon: styles.icon,
    closeButton: styles.close,
    error: styles.destructive,
    info: styles.notice,
    success: styles.success,
  },
};

const icons: ToasterProps['icons'] = {
  error: marker('[!]'),
  info: marker('[i]'),
  success: marker('[+]'),
};

export function PageToaster() {
  return <Toaster theme="light" position="top-center" closeButton toastOptions={toastOptions} icons={icons} />;
}
