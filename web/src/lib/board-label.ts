import type { MessageId } from '../i18n/i18n.ts';
import type { Translate } from '../i18n/use-t.ts';

const BOARD_LABELS: Record<string, MessageId> = {
  ROOM_ONLY: 'stays.board.ROOM_ONLY',
  BREAKFAST: 'stays.board.BREAKFAST',
  HALF_BOARD: 'stays.board.HALF_BOARD',
  FULL_BOARD: 'stays.board.FULL_BOARD',
  ALL_INCLUSIVE: 'stays.board.ALL_INCLUSIVE',
};

/** The traveler's words for a board type; a type added to /v1 later reads as its own name. */
export function boardLabel(board: string, t: Translate): string {
  const known = BOARD_LABELS[board];
  if (known) return t(known);
  return board
    .replaceAll('_', ' ')
    .toLowerCase()
    .replace(/^\w/, (first) => first.toUpperCase());
}
