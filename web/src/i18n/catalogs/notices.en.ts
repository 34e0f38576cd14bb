/** English messages of live notifications, push, the demo controls and the error notices; ids start with "notices.". Part of messages.en.ts. */
export const messages = {
  'notices.toasts': 'Notifications',
  'notices.dismiss': 'Dismiss: {title}',
  'notices.arrived': 'New notification:',

  'notices.push.title': 'Alerts on this device',
  'notices.push.explanation':
    'Get a system notification when a flight is delayed or a gate changes, even when Wayfare is closed. When Wayfare is open you see the news here instead, so you are never alerted twice. You can turn this off at any time.',
  'notices.push.unsupported': 'This browser cannot show alerts from websites.',
  'notices.push.denied':
    'Alerts are blocked for Wayfare in this browser. Allow notifications in the site settings to turn them on.',
  'notices.push.turnOn': 'Turn on alerts',
  'notices.push.on': 'Alerts are on',
  'notices.push.turnOff': 'Turn off alerts',
  'notices.push.notAllowed':
    'This browser did not let Wayfare turn on alerts: its settings (or a private window) block push messages for this site. Allow notifications for Wayfare in the browser’s site settings, or use another browser. Alerts inside the app keep working.',
  'notices.push.unreadable.title': 'Wayfare',
  'notices.push.unreadable.body': 'You have a new travel update.',
  'notices.push.unreachable':
    'The browser could not reach its push service, so alerts are not on yet. Check the connection and try again in a moment.',

  'notices.text.delayed.title': '{label} is delayed by {duration}',
  'notices.text.delayed.body':
    '{route}: new departure {departure} (scheduled {scheduled}), arriving {arrival}.',
  'notices.text.delayed.more': '{duration} more than announced before.',
  'notices.text.cancelled.title': '{label} is cancelled',
  'notices.text.cancelled.body': '{route} on {day} is cancelled. Open the trip to see your options.',
  'notices.text.gate.title': '{label}: gate changed to {gate}',
  'notices.text.gate.body': '{route} now departs from gate {gate}.',
  'notices.text.gate.bodyWas': '{route} now departs from gate {gate} (was {previous}).',
  'notices.text.gate.terminal': 'Terminal {terminal}.',
  'notices.text.gate.toBeAnnounced': 'to be announced',
  'notices.text.checkIn.title': 'Check-in is open for {label}',
  'notices.text.checkIn.body': '{route} departs {day} at {time}. Check in now.',
  'notices.text.bookingConfirmed.title': 'Booking confirmed: {name}',
  'notices.text.bookingConfirmed.body': 'Reference {reference}, {days}, {price}.',
  'notices.text.bookingConfirmed.bodyPaid':
    'Reference {reference}, {days}, {price} paid with {brand} ending {last4}.',
  'notices.text.bookingCancelled.title': 'Booking cancelled: {name}',
  'notices.text.bookingCancelled.refund': 'Reference {reference}. Refund: {refund}.',
  'notices.text.bookingCancelled.noRefund': 'Reference {reference}. No refund.',
  'notices.text.bookingChanged.title': 'Booking changed: {name}',
  'notices.text.bookingChanged.refund': 'It replaces booking {reference}, now cancelled. Refund: {refund}.',
  'notices.text.bookingChanged.noRefund': 'It replaces booking {reference}, now cancelled. No refund.',
  'notices.text.days': '{start} to {end}',

  'notices.error.details': 'Details:',
  'notices.error.signInAgain': 'Sign in again',
  'notices.error.tryAgain': 'Try again',
  'notices.error.backToChoices': 'Back to the choices',
  'notices.error.paymentOnly': 'Your other choices are kept; only the payment method needs to change.',
  'notices.error.tryingAgainIn': 'Trying again in {seconds} s',
  'notices.error.tryingAgainNow': 'Trying again now',
  'notices.error.canTryAgain': 'You can try again now',
  'notices.error.supportCanHelp': 'Our support team can help: {email}',
  'notices.error.reference': 'Reference:',
  'notices.error.copyReference': 'Copy reference',
  'notices.error.referenceCopied': 'Reference copied',
  'notices.error.emailSupport': 'Email support',
  'notices.error.emailSubject': 'Reference {reference}',

  'notices.code.NETWORK_ERROR': 'We could not reach Wayfare',
  'notices.code.UNEXPECTED_RESPONSE': 'Something went wrong on our side',
  'notices.code.RATE_LIMIT_EXCEEDED': 'Too many requests in a short time',
  'notices.code.SERVICE_UNAVAILABLE': 'The travel service is not answering right now',
  'notices.code.BAD_GATEWAY': 'A travel provider is not answering',
  'notices.code.PROVIDER_ERROR': 'The provider could not price this stay',
  'notices.code.OFFER_EXPIRED': 'Prices changed, choose again',
  'notices.code.MAX_NIGHTS_EXCEEDED': 'This stay is longer than we can price',
  'notices.code.VALIDATION_ERROR': 'Some details need a fix',
  'notices.code.UNPROCESSABLE_ENTITY': 'This request cannot be processed',
  'notices.code.RESOURCE_NOT_FOUND': 'We could not find that',
  'notices.code.BOOKING_CONFLICT': 'This booking changed in the meantime',
  'notices.code.CONSUMER_AUTH_REQUIRED': 'Wayfare could not connect to the travel service',
  'notices.code.SESSION_ENDED': 'Your session has ended',

  'notices.action.RETRY_NOW': 'That did not work',
  'notices.action.RETRY_LATER': 'Please wait a moment',
  'notices.action.CHANGE_PAYMENT': 'The payment method was declined',
  'notices.action.CHANGE_SELECTION': 'That option is no longer available',
  'notices.action.CONTACT_SUPPORT': 'Something needs our support team',
  'notices.action.BLOCKED': 'This action is not allowed',
  'notices.action.FIX_INPUT': 'Some details need a fix',

  'notices.guidance.RETRY_NOW': 'This is usually temporary. Try again.',
  'notices.guidance.RETRY_LATER': 'We will try again automatically when the wait is over.',
  'notices.guidance.CHANGE_PAYMENT':
    'Choose a different payment method to continue; everything else is kept.',
  'notices.guidance.CHANGE_SELECTION': 'Go back to the choices and pick another option.',
  'notices.guidance.CONTACT_SUPPORT':
    'This cannot be fixed from here. Contact support and quote the reference below.',
  'notices.guidance.BLOCKED': 'Your account cannot do this. Nothing was changed.',
  'notices.guidance.FIX_INPUT': 'Correct the highlighted fields and submit again.',
  'notices.guidance.SESSION_ENDED': 'Sign in again to continue where you left off.',

  'notices.rule.required': 'This field is required.',
  'notices.rule.invalid': 'This value is not valid.',
  'notices.rule.format': 'This value is not in the expected format.',
  'notices.rule.choice': 'Choose one of the offered values.',
  'notices.rule.tooSmall': 'This value is too small.',
  'notices.rule.tooLarge': 'This value is too large.',
  'notices.rule.past': 'Choose a date that is not in the past.',
  'notices.rule.controlCharacters':
    'This holds an invisible character (a line break, a control character or a text direction override). Type it again without it.',

  'notices.demo.controls': 'Demo controls',
  'notices.demo.title': 'Show a behaviour',
  'notices.demo.done': 'Done: {action}.',
  'notices.demo.openDelayedTrip': 'Open the delayed trip',
  'notices.demo.segment-delay': 'Delay one of my flights',
  'notices.demo.segment-delay.explanation':
    'Your next flight is delayed 45 minutes; the alert arrives live in the inbox.',
  'notices.demo.connection-break': 'Break a connection',
  'notices.demo.connection-break.explanation':
    'Your next flight or train is delayed until it misses what follows it; the trip marks that at risk.',
  'notices.demo.connection-break.none.title': 'No connection left to break',
  'notices.demo.connection-break.none.guidance':
    'Each of your upcoming flights and trains that leads into another booking is already late enough to miss it. Open the trip to see what is at risk and choose another flight there, or use “Delay one of my flights”.',
  'notices.demo.expired-offer': 'Expire stay offers',
  'notices.demo.expired-offer.explanation':
    'For a minute, hotel rates from your searches answer “prices changed, choose again”; nobody else’s.',
  'notices.demo.price-change': 'Change my next price check',
  'notices.demo.price-change.explanation':
    'The next offer or rate you book shows a new price, old against new, and asks you to accept it.',
  'notices.demo.payment-decline': 'Decline my next payment',
  'notices.demo.payment-decline.explanation':
    'Your next booking’s card is declined; checkout asks for another payment method.',
  'notices.demo.booking-conflict': 'Make my next booking conflict',
  'notices.demo.booking-conflict.explanation':
    'Your next booking clashes with an existing reservation and says why.',
  'notices.demo.cancel-failure': 'Make my next cancel fail once',
  'notices.demo.cancel-failure.explanation':
    'The next cancellation of one of your bookings fails once; a rebooking then keeps both bookings until its retry cancels the old one.',
  'notices.demo.provider-failure': 'Make the providers fail',
  'notices.demo.provider-failure.explanation':
    'For a minute, your searches and rates fail as if the provider were down; nobody else’s do.',
  'notices.demo.rate-limit': 'Hit the rate limit',
  'notices.demo.rate-limit.explanation':
    'For a minute, only two of your calls go through; the rest wait with a countdown.',
  'notices.demo.app-update': 'Announce a new version',
  'notices.demo.app-update.explanation':
    'The “new version available” banner appears for you alone (after any search in progress).',
} as const satisfies Record<string, string>;
