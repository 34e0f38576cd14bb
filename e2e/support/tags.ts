/** Journeys that must also work on a phone (390x844) carry this tag; the phone project runs only them. */
export const PHONE = '@phone';

/**
 * Journeys that pull a stack-wide lever (an injected fault, the announced app version) carry this tag:
 * they run one at a time after every other journey, so no other test sees their fault.
 */
export const STACK_WIDE = '@stack-wide';

/**
 * Journeys that drive many pages at once (ten tabs of one browser) carry this tag: they run one at a time
 * after every other journey, with the stack-wide ones, so they do not take the CPU of a journey running
 * beside them on a two-core machine (whose waits would then run out for want of CPU, not of an event).
 */
export const ALONE = '@alone';
