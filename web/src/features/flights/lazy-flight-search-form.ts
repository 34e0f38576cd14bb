import { preloadable } from '../../lib/preloadable.tsx';
import type { FlightSearchFormProps } from './flight-search-form.tsx';

/**
 * The flight search form, fetched apart from the flights page: a results link opens the page with its
 * search folded, and the form's fields (react-aria's combo box and date field, about 80 KB gzip) are not
 * needed until the traveler opens it. The route asks for it alongside the page's code when the page opens
 * on the form itself (router.tsx), and the Edit buttons ask for it before they open the form.
 */
export const flightSearchForm = preloadable<FlightSearchFormProps>(
  async () => (await import('./flight-search-form.tsx')).FlightSearchForm,
);
