/** The list with `value` removed if it was there, added at the end if it was not (a checkbox filter). */
export const toggleValue = <T>(values: readonly T[], value: T): T[] =>
  values.includes(value) ? values.filter((existing) => existing !== value) : [...values, value];
