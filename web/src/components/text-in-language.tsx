/**
 * Words with the language they are written in: the interface's own (no `lang`), or travel data the app
 * could not put in words of its own, kept as the travel API wrote them (`lang="en"`).
 */
export interface LanguageText {
  text: string;
  lang?: string | undefined;
}

/** The text, in a span marked with its language when that is not the interface's. */
export function TextInLanguage({ value }: { value: LanguageText }) {
  return value.lang ? <span lang={value.lang}>{value.text}</span> : value.text;
}
