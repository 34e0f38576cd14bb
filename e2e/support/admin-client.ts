import type { APIRequestContext, APIResponse } from '@playwright/test';

/**
 * The travel API stand-in's admin API (fault injection, event simulator, app version): the only levers
 * the suite pulls besides the browser. Unsigned, under /admin, behind a bearer token.
 */
export class AdminClient {
  readonly #request: APIRequestContext;

  constructor(request: APIRequestContext) {
    this.#request = request;
  }

  async get<T = unknown>(path: string): Promise<T> {
    return this.#json<T>(`GET ${path}`, await this.#request.get(this.#url(path)));
  }

  async post<T = unknown>(path: string, data?: unknown): Promise<T> {
    return this.#json<T>(`POST ${path}`, await this.#request.post(this.#url(path), { data: data ?? {} }));
  }

  async put<T = unknown>(path: string, data?: unknown): Promise<T> {
    return this.#json<T>(`PUT ${path}`, await this.#request.put(this.#url(path), { data: data ?? {} }));
  }

  async delete<T = unknown>(path: string): Promise<T> {
    return this.#json<T>(`DELETE ${path}`, await this.#request.delete(this.#url(path)));
  }

  #url(path: string): string {
    return path.replace(/^\/+/, '');
  }

  async #json<T>(what: string, response: APIResponse): Promise<T> {
    const text = await response.text();
    if (!response.ok()) throw new Error(`admin ${what} answered ${response.status()}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
