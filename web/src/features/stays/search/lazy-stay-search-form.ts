import { preloadable } from '../../../lib/preloadable.tsx';
import type { StaySearchFormProps } from './stay-search-form.tsx';

/**
 * The stay search form, fetched apart from the stays page: a results link opens the page with its search
 * folded, and the form's fields (react-aria's combo box and date field, about 80 KB gzip) are not needed
 * until the traveler opens it. The route asks for it alongside the page's code when the page opens on the
 * form itself (router.tsx), and the Edit button asks for it before it opens the form.
 */
export const staySearchForm = preloadable<StaySearchFormProps>(
  async () => (await import('./stay-search-form.tsx')).StaySearchForm,
);
