import type { messages as english } from './forms.en.ts';

/** Spanish (Spain) messages of the form parts every search shares (fields, the error summary, sorting, dates, combo boxes): every id of forms.en.ts. Part of messages.es.ts. */
export const messages: Record<keyof typeof english, string> = {
  'forms.errorSummary.title':
    '{count, plural, one {Hay un dato que corregir} other {Hay # datos que corregir}}',
  'forms.combo.showOptions': 'Ver opciones de {label}',
  'forms.combo.searching': 'Buscando…',
  'forms.combo.noMatches': 'Aún no hay coincidencias. Sigue escribiendo.',
  'forms.combo.failed': 'La búsqueda no respondió. Vuelve a escribir para reintentarlo.',
  'forms.searchLoading': 'Cargando el formulario de búsqueda…',
};
