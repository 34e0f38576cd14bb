import type { messages as english } from './start.en.ts';

/** Spanish (Spain) messages of the start page and signing in and out: every id of start.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {
  'start.homeTitle': 'Inicio',
  'start.welcomeTitle': 'Te damos la bienvenida',
  'start.welcomeBack': 'Hola de nuevo, {name}',
  'start.shortcuts': 'Accesos directos',
  'start.journey.trips': 'Cada viaje en un solo itinerario, con lo que un retraso pone en riesgo.',
  'start.journey.flights': 'Solo ida, ida y vuelta o varios destinos, ordenados como tú decidas.',
  'start.journey.stays':
    'Hoteles con precios en directo, habitación por habitación, y condiciones de cancelación claras.',
  'start.journey.bookings': 'Todo lo que has reservado, de trabajo y personal, en una sola lista.',
  'start.journey.inbox': 'Retrasos y cambios de puerta en cuanto se producen.',
  'start.eyebrow': 'Viajes de trabajo y personales, juntos',
  'start.title': 'Viajes que van a tu ritmo',
  'start.lead':
    'Busca vuelos y alojamientos, ten todas tus reservas en un solo sitio y entérate de un retraso antes que el panel de salidas.',
  'start.singleSignOn': 'Inicio de sesión único con tu cuenta de Wayfare.',
  'start.whatYouCanDo': 'Lo que puedes hacer',
  'start.signIn': 'Iniciar sesión',
  'start.signInProblem.expired': 'Este inicio de sesión caducó o ya se usó. Vuelve a iniciar sesión.',
  'start.signInProblem.failed': 'El inicio de sesión no se completó. Vuelve a iniciar sesión.',
  'start.signInProblem.unavailable':
    'Ahora no se puede iniciar sesión. Vuelve a intentarlo dentro de un momento.',
  'start.signOut': 'Cerrar sesión',
  'start.signingOut': 'Cerrando sesión…',
};
