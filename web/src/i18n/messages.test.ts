import { describe, expect, it } from 'vitest';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { messages as en } from './messages.en.ts';
import { messages as es } from './messages.es.ts';

const AREA_CATALOGS = import.meta.glob<{ messages: Record<string, string> }>('./catalogs/*.ts', {
  eager: true,
});

const CATALOGS = { en, es } as const;

/** The placeholders a message takes ({city}, {count, plural, ...}), whatever the words around them. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: CompiledMessage) => {
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      const [name, , format] = token;
      names.add(name);
      if (format && typeof format === 'object' && !Array.isArray(format)) {
        for (const [key, choice] of Object.entries(format))
          if (key !== 'offset') walk(choice as CompiledMessage);
      }
    }
  };
  walk(compileMessageOrThrow(message));
  return [...names].sort();
}

describe('message catalogs', () => {
  it('have every message id in every language, and nothing else', () => {
    for (const catalog of Object.values(CATALOGS)) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
    }
  });

  it('have no empty message and each one is valid ICU MessageFormat', () => {
    for (const [language, catalog] of Object.entries(CATALOGS)) {
      for (const [id, message] of Object.entries(catalog)) {
        expect(message.trim(), `${language} ${id}`).not.toBe('');
        expect(() => compileMessageOrThrow(message), `${language} ${id}`).not.toThrow();
      }
    }
  });

  it('take the same placeholders in every language', () => {
    for (const [id, message] of Object.entries(en)) {
      expect(placeholders(es[id as keyof typeof es]), id).toEqual(placeholders(message));
    }
  });

  it("has no id in two areas' catalogs, where one message would silently replace the other", () => {
    const areaOf = new Map<string, string>();
    for (const [path, { messages }] of Object.entries(AREA_CATALOGS)) {
      for (const id of Object.keys(messages)) {
        const [area = '', language = ''] = path.replace('./catalogs/', '').split('.');
        const key = `${language} ${id}`;
        expect(areaOf.get(key), `${key} is in ${area} and ${areaOf.get(key)}`).toBeUndefined();
        areaOf.set(key, area);
      }
    }
  });
});
