import type { messages as english } from './notices.en.ts';

/** Spanish (Spain) messages of live notifications, push, the demo controls and the error notices: every id of notices.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {
  'notices.toasts': 'Avisos nuevos',
  'notices.dismiss': 'Cerrar: {title}',
  'notices.arrived': 'Nuevo aviso:',

  'notices.push.title': 'Alertas en este dispositivo',
  'notices.push.explanation':
    'Recibe una notificación del sistema cuando un vuelo se retrase o cambie la puerta, aunque Wayfare esté cerrado. Con Wayfare abierto ves la novedad aquí, así que nunca te avisamos dos veces. Puedes desactivarlas cuando quieras.',
  'notices.push.unsupported': 'Este navegador no puede mostrar alertas de sitios web.',
  'notices.push.denied':
    'Las alertas de Wayfare están bloqueadas en este navegador. Permite las notificaciones en la configuración del sitio para activarlas.',
  'notices.push.turnOn': 'Activar alertas',
  'notices.push.on': 'Alertas activadas',
  'notices.push.turnOff': 'Desactivar alertas',
  'notices.push.notAllowed':
    'Este navegador no ha dejado que Wayfare active las alertas: su configuración (o una ventana privada) bloquea los mensajes push de este sitio. Permite las notificaciones de Wayfare en la configuración del sitio o usa otro navegador. Los avisos dentro de la app siguen funcionando.',
  'notices.push.unreadable.title': 'Wayfare',
  'notices.push.unreadable.body': 'Tienes una novedad sobre tu viaje.',
  'notices.push.unreachable':
    'El navegador no ha podido conectar con su servicio push, así que las alertas aún no están activadas. Comprueba la conexión y vuelve a intentarlo en un momento.',

  'notices.text.delayed.title': '{label} se retrasa {duration}',
  'notices.text.delayed.body': '{route}: nueva salida {departure} (prevista {scheduled}), llegada {arrival}.',
  'notices.text.delayed.more': '{duration} más de lo anunciado antes.',
  'notices.text.cancelled.title': '{label} se ha cancelado',
  'notices.text.cancelled.body': '{route} del {day} se ha cancelado. Abre el viaje para ver tus opciones.',
  'notices.text.gate.title': '{label}: cambio de puerta a {gate}',
  'notices.text.gate.body': '{route} sale ahora por la puerta {gate}.',
  'notices.text.gate.bodyWas': '{route} sale ahora por la puerta {gate} (antes {previous}).',
  'notices.text.gate.terminal': 'Terminal {terminal}.',
  'notices.text.gate.toBeAnnounced': 'por anunciar',
  'notices.text.checkIn.title': 'Facturación abierta para {label}',
  'notices.text.checkIn.body': '{route} sale el {day}, {time}. Factura ya.',
  'notices.text.bookingConfirmed.title': 'Reserva confirmada: {name}',
  'notices.text.bookingConfirmed.body': 'Referencia {reference}, {days}, {price}.',
  'notices.text.bookingConfirmed.bodyPaid':
    'Referencia {reference}, {days}, {price} pagados con {brand} terminada en {last4}.',
  'notices.text.bookingCancelled.title': 'Reserva cancelada: {name}',
  'notices.text.bookingCancelled.refund': 'Referencia {reference}. Reembolso: {refund}.',
  'notices.text.bookingCancelled.noRefund': 'Referencia {reference}. Sin reembolso.',
  'notices.text.bookingChanged.title': 'Reserva cambiada: {name}',
  'notices.text.bookingChanged.refund':
    'Sustituye a la reserva {reference}, ya cancelada. Reembolso: {refund}.',
  'notices.text.bookingChanged.noRefund': 'Sustituye a la reserva {reference}, ya cancelada. Sin reembolso.',
  'notices.text.days': 'del {start} al {end}',

  'notices.error.details': 'Detalles:',
  'notices.error.signInAgain': 'Volver a iniciar sesión',
  'notices.error.tryAgain': 'Reintentar',
  'notices.error.backToChoices': 'Volver a las opciones',
  'notices.error.paymentOnly':
    'Se conserva todo lo demás que elegiste; solo hay que cambiar el método de pago.',
  'notices.error.tryingAgainIn': 'Nuevo intento en {seconds} s',
  'notices.error.tryingAgainNow': 'Reintentando ahora',
  'notices.error.canTryAgain': 'Ya puedes volver a intentarlo',
  'notices.error.supportCanHelp': 'Nuestro equipo de asistencia puede ayudarte: {email}',
  'notices.error.reference': 'Referencia:',
  'notices.error.copyReference': 'Copiar referencia',
  'notices.error.referenceCopied': 'Referencia copiada',
  'notices.error.emailSupport': 'Escribir a asistencia',
  'notices.error.emailSubject': 'Referencia {reference}',

  'notices.code.NETWORK_ERROR': 'No hemos podido conectar con Wayfare',
  'notices.code.UNEXPECTED_RESPONSE': 'Algo ha fallado por nuestra parte',
  'notices.code.RATE_LIMIT_EXCEEDED': 'Demasiadas peticiones en poco tiempo',
  'notices.code.SERVICE_UNAVAILABLE': 'El servicio de viajes no responde ahora mismo',
  'notices.code.BAD_GATEWAY': 'Un proveedor de viajes no responde',
  'notices.code.PROVIDER_ERROR': 'El proveedor no ha podido dar precio a este alojamiento',
  'notices.code.OFFER_EXPIRED': 'Los precios han cambiado, vuelve a elegir',
  'notices.code.MAX_NIGHTS_EXCEEDED': 'Esta estancia es más larga de lo que podemos tarifar',
  'notices.code.VALIDATION_ERROR': 'Hay datos que corregir',
  'notices.code.UNPROCESSABLE_ENTITY': 'No se puede procesar esta petición',
  'notices.code.RESOURCE_NOT_FOUND': 'No lo hemos encontrado',
  'notices.code.BOOKING_CONFLICT': 'Esta reserva ha cambiado mientras tanto',
  'notices.code.CONSUMER_AUTH_REQUIRED': 'Wayfare no ha podido conectar con el servicio de viajes',
  'notices.code.SESSION_ENDED': 'Tu sesión ha terminado',

  'notices.action.RETRY_NOW': 'No ha funcionado',
  'notices.action.RETRY_LATER': 'Espera un momento',
  'notices.action.CHANGE_PAYMENT': 'Se ha rechazado el método de pago',
  'notices.action.CHANGE_SELECTION': 'Esa opción ya no está disponible',
  'notices.action.CONTACT_SUPPORT': 'Esto necesita a nuestro equipo de asistencia',
  'notices.action.BLOCKED': 'Esta acción no está permitida',
  'notices.action.FIX_INPUT': 'Hay datos que corregir',

  'notices.guidance.RETRY_NOW': 'Suele ser algo pasajero. Vuelve a intentarlo.',
  'notices.guidance.RETRY_LATER': 'Lo volveremos a intentar solos cuando acabe la espera.',
  'notices.guidance.CHANGE_PAYMENT': 'Elige otro método de pago para continuar; se conserva todo lo demás.',
  'notices.guidance.CHANGE_SELECTION': 'Vuelve a las opciones y elige otra.',
  'notices.guidance.CONTACT_SUPPORT':
    'No se puede arreglar desde aquí. Contacta con asistencia e indica la referencia de abajo.',
  'notices.guidance.BLOCKED': 'Tu cuenta no puede hacer esto. No se ha cambiado nada.',
  'notices.guidance.FIX_INPUT': 'Corrige los campos marcados y vuelve a enviar.',
  'notices.guidance.SESSION_ENDED': 'Vuelve a iniciar sesión para seguir donde lo dejaste.',

  'notices.rule.required': 'Este campo es obligatorio.',
  'notices.rule.invalid': 'Este valor no es válido.',
  'notices.rule.format': 'Este valor no tiene el formato esperado.',
  'notices.rule.choice': 'Elige uno de los valores ofrecidos.',
  'notices.rule.tooSmall': 'Este valor es demasiado bajo.',
  'notices.rule.tooLarge': 'Este valor es demasiado alto.',
  'notices.rule.past': 'Elige una fecha que no haya pasado.',
  'notices.rule.controlCharacters':
    'Contiene un carácter invisible (un salto de línea, un carácter de control o un cambio de dirección del texto). Escríbelo de nuevo sin él.',

  'notices.demo.controls': 'Controles de demostración',
  'notices.demo.title': 'Mostrar un comportamiento',
  'notices.demo.done': 'Hecho: {action}.',
  'notices.demo.openDelayedTrip': 'Abrir el viaje retrasado',
  'notices.demo.segment-delay': 'Retrasar uno de mis vuelos',
  'notices.demo.segment-delay.explanation':
    'Tu próximo vuelo se retrasa 45 minutos; el aviso llega en directo a tus avisos.',
  'notices.demo.connection-break': 'Romper una conexión',
  'notices.demo.connection-break.explanation':
    'Tu próximo vuelo o tren se retrasa hasta perder lo que viene después; el viaje lo marca en riesgo.',
  'notices.demo.connection-break.none.title': 'No queda ninguna conexión por romper',
  'notices.demo.connection-break.none.guidance':
    'Cada uno de tus próximos vuelos y trenes que lleva a otra reserva ya va con retraso suficiente para perderla. Abre el viaje para ver lo que está en riesgo y elige otro vuelo allí, o usa «Retrasar uno de mis vuelos».',
  'notices.demo.expired-offer': 'Caducar las ofertas de alojamiento',
  'notices.demo.expired-offer.explanation':
    'Durante un minuto, las tarifas de hotel de tus búsquedas responden «los precios han cambiado, vuelve a elegir»; las de nadie más.',
  'notices.demo.price-change': 'Cambiar mi próxima comprobación de precio',
  'notices.demo.price-change.explanation':
    'La próxima oferta o tarifa que reserves muestra un precio nuevo, el antiguo frente al nuevo, y te pide que lo aceptes.',
  'notices.demo.payment-decline': 'Rechazar mi próximo pago',
  'notices.demo.payment-decline.explanation':
    'Se rechaza la tarjeta de tu próxima reserva; el pago te pide otro método.',
  'notices.demo.booking-conflict': 'Hacer que mi próxima reserva choque',
  'notices.demo.booking-conflict.explanation':
    'Tu próxima reserva choca con una reserva existente y dice por qué.',
  'notices.demo.cancel-failure': 'Hacer fallar mi próxima cancelación',
  'notices.demo.cancel-failure.explanation':
    'La próxima cancelación de una de tus reservas falla una vez; un cambio de vuelo mantiene entonces las dos reservas hasta que su reintento cancela la anterior.',
  'notices.demo.provider-failure': 'Hacer fallar a los proveedores',
  'notices.demo.provider-failure.explanation':
    'Durante un minuto, tus búsquedas y tarifas fallan como si el proveedor estuviera caído; las de nadie más.',
  'notices.demo.rate-limit': 'Alcanzar el límite de peticiones',
  'notices.demo.rate-limit.explanation':
    'Durante un minuto solo pasan dos de tus llamadas; las demás esperan con una cuenta atrás.',
  'notices.demo.app-update': 'Anunciar una nueva versión',
  'notices.demo.app-update.explanation':
    'Aparece solo para ti el aviso de «hay una nueva versión» (después de cualquier búsqueda en curso).',
};
