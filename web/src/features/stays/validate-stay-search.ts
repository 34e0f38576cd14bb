import { MAX_ADULTS_PER_ROOM, MAX_CHILDREN_PER_ROOM, MAX_ROOMS } from '#shared/api/stays.ts';
import { todayIsoDate } from '../../lib/intl-format.ts';
import type { StaySearch, StaySearchForm } from './stay-search-params.ts';

/** Problems by the field path the server also uses (destination, checkIn, rooms.0.adults, ...). */
export type FieldErrors = Record<string, string>;

export function validateStaySearch(form: StaySearchForm, today: string = todayIsoDate()): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.destination) errors.destination = 'Choose a city or hotel from the list.';
  if (!form.checkIn) errors.checkIn = 'Enter a check-in date.';
  else if (form.checkIn < today) errors.checkIn = 'Check-in cannot be in the past.';
  if (!form.checkOut) errors.checkOut = 'Enter a check-out date.';
  else if (form.checkIn && form.checkOut <= form.checkIn)
    errors.checkOut = 'Check-out must be after check-in.';
  if (form.rooms.length < 1) errors.rooms = 'Add at least one room.';
  if (form.rooms.length > MAX_ROOMS) errors.rooms = `Book at most ${MAX_ROOMS} rooms at once.`;
  form.rooms.forEach((room, index) => {
    if (room.adults < 1) errors[`rooms.${index}.adults`] = 'Each room needs at least one adult.';
    else if (room.adults > MAX_ADULTS_PER_ROOM) {
      errors[`rooms.${index}.adults`] = `At most ${MAX_ADULTS_PER_ROOM} adults per room.`;
    }
    if (room.childrenAges.length > MAX_CHILDREN_PER_ROOM) {
      errors[`rooms.${index}.childrenAges`] = `At most ${MAX_CHILDREN_PER_ROOM} children per room.`;
    }
  });
  return errors;
}

export function isCompleteStaySearch(form: StaySearchForm, today?: string): form is StaySearch {
  return Object.keys(validateStaySearch(form, today)).length === 0;
}
