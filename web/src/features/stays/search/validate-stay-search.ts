import { MAX_ADULTS_PER_ROOM, MAX_CHILDREN_PER_ROOM, MAX_ROOMS } from '#shared/api/stay-values.ts';
import type { MessageId } from '../../../i18n/i18n.ts';
import type { Translate } from '../../../i18n/use-t.ts';
import { todayIsoDate } from '../../../lib/intl-format.ts';
import type { StaySearch, StaySearchForm } from './stay-search-params.ts';

/** A problem with a field, as a message of the catalogs and its values. */
export interface FieldProblem {
  message: MessageId;
  values?: Record<string, unknown>;
}

/** Problems by the field path the server also uses (destination, checkIn, rooms.0.adults, ...). */
export type FieldProblems = Record<string, FieldProblem>;

export function validateStaySearch(form: StaySearchForm, today: string = todayIsoDate()): FieldProblems {
  const errors: FieldProblems = {};
  if (!form.destination) errors.destination = { message: 'stays.problem.destination' };
  if (!form.checkIn) errors.checkIn = { message: 'stays.problem.checkInMissing' };
  else if (form.checkIn < today) errors.checkIn = { message: 'stays.problem.checkInPast' };
  if (!form.checkOut) errors.checkOut = { message: 'stays.problem.checkOutMissing' };
  else if (form.checkIn && form.checkOut <= form.checkIn)
    errors.checkOut = { message: 'stays.problem.checkOutNotAfter' };
  if (form.rooms.length < 1) errors.rooms = { message: 'stays.problem.noRooms' };
  if (form.rooms.length > MAX_ROOMS)
    errors.rooms = { message: 'stays.problem.tooManyRooms', values: { max: MAX_ROOMS } };
  form.rooms.forEach((room, index) => {
    if (room.adults < 1) errors[`rooms.${index}.adults`] = { message: 'stays.problem.noAdult' };
    else if (room.adults > MAX_ADULTS_PER_ROOM) {
      errors[`rooms.${index}.adults`] = {
        message: 'stays.problem.tooManyAdults',
        values: { max: MAX_ADULTS_PER_ROOM },
      };
    }
    if (room.childrenAges.length > MAX_CHILDREN_PER_ROOM) {
      errors[`rooms.${index}.childrenAges`] = {
        message: 'stays.problem.tooManyChildren',
        values: { max: MAX_CHILDREN_PER_ROOM },
      };
    }
  });
  return errors;
}

/** The problems in the traveler's words, by field path. */
export function describeProblems(problems: FieldProblems, t: Translate): Record<string, string> {
  return Object.fromEntries(
    Object.entries(problems).map(([path, problem]) => [path, t(problem.message, problem.values)]),
  );
}

export function isCompleteStaySearch(form: StaySearchForm, today?: string): form is StaySearch {
  return Object.keys(validateStaySearch(form, today)).length === 0;
}
