import { pathToFileURL } from 'node:url';
import { compileMessage, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const CATALOG = /[\\/]web[\\/]src[\\/]i18n[\\/]catalogs[\\/][a-z-]+\.[a-z]+\.ts$/;

/** A catalog's ICU messages, compiled for Lingui's runtime. */
export function compileCatalog(messages: Record<string, string>): Record<string, CompiledMessage> {
  return Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, compileMessage(text)]));
}

/**
 * Serves each message catalog (web/src/i18n/catalogs/<area>.<language>.ts) compiled, so the browser never needs the ICU
 * compiler: a catalog chunk is only data, and the first chunk holds Lingui's small runtime alone.
 */
export function precompiledMessagesPlugin(): Plugin {
  return {
    name: 'wayfare-precompiled-messages',
    enforce: 'pre',
    async load(id) {
      if (!CATALOG.test(id)) return undefined;
      this.addWatchFile(id);
      const catalog = (await import(`${pathToFileURL(id).href}?at=${Date.now()}`)) as {
        messages: Record<string, string>;
      };
      return `export const messages = ${JSON.stringify(compileCatalog(catalog.messages))};\n`;
    },
  };
}
