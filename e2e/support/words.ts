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
  },
};

/** The words of the language the signed-in traveler's profile locale shows the app in. */
export async function wordsOfProfile(page: Page): Promise<(typeof WORDS)['en']> {
  const headers = { 'x-requested-with': 'wayfare' };
  const { locale } = (await (await page.request.get('/api/profile', { headers })).json()) as {
    locale: string;
  };
  return locale.toLowerCase().startsWith('es') ? WORDS.es : WORDS.en;
}
