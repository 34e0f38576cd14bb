import type { Page } from '@playwright/test';

/** What the journeys look for, in each language of the interface. */
export const WORDS = {
  en: {
    lang: 'en',
    main: 'Main',
    trips: 'Trips',
    upcoming: 'Upcoming',
    past: 'Past',
    timeline: 'Trip timeline',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    confirmation: 'Confirmation',
    gate: 'Gate',
    bookings: 'Bookings',
    bookingsCount: /^\d[\d,]* bookings?$/,
    pagesOfBookings: 'Pages of bookings',
    nextPage: 'Next page',
    previousPage: 'Previous page',
    showing: 'Showing',
    of: 'of',
    bookingsUpcoming: 'Upcoming',
    bookingsPast: 'Past',
    bookingsAll: 'All',
    business: 'Business',
    status: 'Status',
    confirmed: 'Confirmed',
    kind: 'Kind',
    flight: 'Flight',
    filters: 'Filters',
    showBookings: 'Show bookings',
  },
  es: {
    lang: 'es',
    main: 'Principal',
    trips: 'Viajes',
    upcoming: 'Próximos',
    past: 'Pasados',
    timeline: 'Itinerario del viaje',
    checkIn: 'Entrada',
    checkOut: 'Salida del alojamiento',
    confirmation: 'Confirmación',
    gate: 'Puerta',
    bookings: 'Reservas',
    bookingsCount: /^\d[\d.]* reservas?$/,
    pagesOfBookings: 'Páginas de reservas',
    nextPage: 'Página siguiente',
    previousPage: 'Página anterior',
    showing: 'Mostrando',
    of: 'de',
    bookingsUpcoming: 'Próximas',
    bookingsPast: 'Pasadas',
    bookingsAll: 'Todas',
    business: 'De trabajo',
    status: 'Estado',
    confirmed: 'Confirmada',
    kind: 'Tipo',
    flight: 'Vuelo',
    filters: 'Filtros',
    showBookings: 'Ver reservas',
  },
};

/** Spanish short month names, as the app's formatters write them. */
const SPANISH_SHORT_MONTHS = '(ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)';

/** A day and a short month as Spain writes them: "12 abr" (never "Apr 12"). */
export const SPANISH_DAY_MONTH = new RegExp(`\\d{1,2} ${SPANISH_SHORT_MONTHS}`);

/** A short date with its weekday as Spain writes it: "jue, 24 dic". */
export const SPANISH_WEEKDAY_DATE = new RegExp(`(lun|mar|mié|jue|vie|sáb|dom), ${SPANISH_DAY_MONTH.source}`);

/** What the journeys look for in one language. */
export type Words = (typeof WORDS)['en'];

/** The words of the language the signed-in traveler's profile locale shows the app in. */
export async function wordsOfProfile(page: Page): Promise<Words> {
  const headers = { 'x-requested-with': 'wayfare' };
  const { locale } = (await (await page.request.get('/api/profile', { headers })).json()) as {
    locale: string;
  };
  return locale.toLowerCase().startsWith('es') ? WORDS.es : WORDS.en;
}
