/** The ids the first script, the form's markup and the build agree on. */
export const WAITLIST_FORM_ID = 'waitlist-form';

/** The 'Error' message shown outside the form when the form's code could not be fetched. */
export const LOAD_FAILURE_ID = 'waitlist-load-failure';

/** The element the waitlist island hydrates (src/islands/waitlist.tsx). */
export const WAITLIST_ISLAND_ID = 'waitlist-island';
