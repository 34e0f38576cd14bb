const BOARD_LABELS: Record<string, string> = {
  ROOM_ONLY: 'Room only',
  BREAKFAST: 'Breakfast included',
  HALF_BOARD: 'Half board',
  FULL_BOARD: 'Full board',
  ALL_INCLUSIVE: 'All inclusive',
};

/** The traveler's words for a board type; a type added to /v1 later reads as its own name. */
export function boardLabel(board: string): string {
  return (
    BOARD_LABELS[board] ??
    board
      .replaceAll('_', ' ')
      .toLowerCase()
      .replace(/^\w/, (first) => first.toUpperCase())
  );
}
