/**
 * Access to what the build made. The host supplies an AssetFetcher (Node: the in-memory copy of the build
 * output; another adapter: its static-asset binding; dev: a fetch to the same origin). Each document is fetched
 * and parsed once per process, on first use, and shared by every request after that.
 */
import { trustedServiceData, type ServiceData } from '../contract/schemas/service-data.ts';

export type AssetFetcher = (path: string) => Promise<Response>;

export class DataStore {
  readonly #fetchAsset: AssetFetcher;
  readonly #cache = new Map<string, Promise<unknown>>();

  constructor(fetchAsset: AssetFetcher) {
    this.#fetchAsset = fetchAsset;
  }

  /** Loads, transforms and memoizes a build document. A failed load is not cached, so the next request retries. */
  load<T>(path: string, transform: (body: Response) => Promise<T> | T): Promise<T> {
    let pending = this.#cache.get(path) as Promise<T> | undefined;
    if (!pending) {
      pending = (async () => {
        const res = await this.#fetchAsset(path);
        if (!res.ok) throw new Error(`build document ${path} is missing (HTTP ${res.status}); run npm run build`);
        return transform(res);
      })();
      pending.catch(() => this.#cache.delete(path));
      this.#cache.set(path, pending);
    }
    return pending;
  }

  /**
   * Loads and transforms a build document without keeping it: for documents loaded on demand whose number grows
   * with the show (search index shards, passages), which the caller caches with a bound of its own.
   */
  async read<T>(path: string, transform: (body: Response) => Promise<T> | T): Promise<T> {
    const res = await this.#fetchAsset(path);
    if (!res.ok) throw new Error(`build document ${path} is missing (HTTP ${res.status}); run npm run build`);
    return transform(res);
  }

  json<T = unknown>(path: string): Promise<T> {
    return this.load(path, (res) => res.json() as Promise<T>);
  }

  service(): Promise<ServiceData> {
    return this.load('/service.json', async (res) => trustedServiceData(await res.json()));
  }
}
