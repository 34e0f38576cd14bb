import type { ReactElement } from 'react';
import { TransNoContext } from '@lingui/react/server';
import { i18n, type MessageId } from './i18n.ts';
import { useT } from './use-t.ts';

export interface RichMessageProps {
  id: MessageId;
  values?: Record<string, unknown>;
  /** The elements of the message's numbered tags: `<0>{price}</0>` is wrapped in `components[0]`. */
  components: Record<string, ReactElement>;
}

/**
 * A message with markup inside it ("Was <0>{was}</0>, now <1>{now}</1>."), so that each language places
 * the struck or bold words where its own word order needs them, instead of a sentence glued from fragments.
 */
export function RichMessage({ id, values, components }: RichMessageProps) {
  useT();
  return <TransNoContext id={id} values={values} components={components} lingui={{ i18n }} />;
}
