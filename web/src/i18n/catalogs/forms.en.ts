/** English messages of the form parts every search shares (fields, the error summary, sorting, dates, combo boxes); ids start with "forms.". Part of messages.en.ts. */
export const messages = {
  'forms.errorSummary.title': '{count, plural, one {One detail needs a fix} other {# details need a fix}}',
  'forms.combo.showOptions': 'Show {label} options',
  'forms.combo.searching': 'Searching…',
  'forms.combo.noMatches': 'No matches yet. Keep typing.',
  'forms.combo.failed': 'The search did not answer. Type again to retry.',
  'forms.searchLoading': 'Loading the search form…',
} as const satisfies Record<string, string>;
