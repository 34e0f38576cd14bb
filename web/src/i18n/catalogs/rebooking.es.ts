import type { messages as english } from './rebooking.en.ts';

/** Spanish (Spain) messages of replacing a flight a delay broke: every id of rebooking.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {
  'rebooking.seeOtherFlights': 'Ver otros vuelos',
  'rebooking.hideOtherFlights': 'Ocultar otros vuelos',
  'rebooking.heading': 'Otros vuelos de {from} a {to}',
  'rebooking.searching': 'Buscando otros vuelos…',
  'rebooking.none': 'No hay otro vuelo en esta ruta el {first} ni el {second}.',
  'rebooking.flightTimes': '{departure} {from} → {arrival} {to}',
  'rebooking.stops': '{count, plural, =0 {directo} one {# escala} other {# escalas}}',
  'rebooking.keepsTrip': 'Mantiene tu viaje',
  'rebooking.missesTrip': 'Demasiado tarde para el resto del viaje',
  'rebooking.samePrice': 'mismo precio que tu reserva',
  'rebooking.moreThanBooked': '{amount} más que tu reserva',
  'rebooking.lessThanBooked': '{amount} menos que tu reserva',
  'rebooking.choose': 'Elegir',
  'rebooking.chooseFlight': 'Elegir {flight}',
  'rebooking.review.heading': '¿Cambiar a {flight}?',
  'rebooking.review.newFlight': 'Vuelo nuevo',
  'rebooking.review.newPrice': 'Su precio',
  'rebooking.review.checkingPrice': 'Comprobando el precio…',
  'rebooking.review.priceChanged': 'El precio ha cambiado: era {was}.',
  'rebooking.review.oldBooking': 'Reserva {reference}',
  'rebooking.review.refund': 'Se cancela con un reembolso de {amount}',
  'rebooking.review.fee': 'Se cancela sin reembolso: su tarifa retiene {amount}',
  'rebooking.review.notReplaceable':
    'Esta reserva no se puede cambiar en línea; contacta con asistencia para cambiarla.',
  'rebooking.review.difference': 'En total',
  'rebooking.review.youPay': 'Pagas {amount} más',
  'rebooking.review.youGetBack': 'Te devolvemos {amount}',
  'rebooking.review.even': 'No pagas nada más',
  'rebooking.review.payWith': 'Se paga con',
  'rebooking.review.card': '{label} acabada en {last4}',
  'rebooking.review.cards': 'Tarjeta con la que pagar',
  'rebooking.review.loadingCards': 'Cargando tus tarjetas…',
  'rebooking.review.noCard':
    'No tienes otra tarjeta guardada para este tipo de viaje: contacta con asistencia para cambiar este vuelo.',
  'rebooking.review.cancelAfter':
    'La reserva anterior solo se cancela cuando el vuelo nuevo está confirmado.',
  'rebooking.review.declined.title': 'Pago rechazado: elige otra tarjeta',
  'rebooking.review.declined.reason':
    'El emisor de la tarjeta ha rechazado {card}. No se ha reservado nada y la reserva {reference} sigue como estaba.',
  'rebooking.review.priceMoved.title': 'El precio ha cambiado mientras confirmabas',
  'rebooking.review.priceMoved.reason':
    'Este vuelo cuesta ahora {now} (antes {was}). No se ha reservado nada y la reserva {reference} sigue como estaba. Vuelve a confirmar para cambiar al nuevo precio.',
  'rebooking.review.confirm': 'Confirmar el cambio',
  'rebooking.review.confirming': 'Cambiando tu vuelo…',
  'rebooking.review.back': 'Volver a los vuelos',
  'rebooking.status.working': 'Cambiando tu vuelo a {flight}…',
  'rebooking.status.completed':
    'Tu vuelo ha cambiado a {flight} (reserva {newReference}). La reserva {oldReference} está cancelada, con un reembolso de {refund}.',
  'rebooking.status.completedNoRefund':
    'Tu vuelo ha cambiado a {flight} (reserva {newReference}). La reserva {oldReference} está cancelada, sin reembolso.',
  'rebooking.status.cancelPending':
    'Tu vuelo nuevo {flight} está reservado (reserva {newReference}), pero la reserva {oldReference} aún no está cancelada, así que por ahora tienes las dos. Seguimos intentando cancelarla y te avisamos cuando esté hecho.',
  'rebooking.status.needsSupport':
    'Tu vuelo nuevo {flight} está reservado (reserva {newReference}), pero la reserva {oldReference} no se pudo cancelar en línea, así que tienes las dos. Contacta con asistencia para cancelarla.',
  'rebooking.status.failed': 'Tu vuelo no ha cambiado; tu reserva sigue como estaba',
};
