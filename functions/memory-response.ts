/**
 * A Response over bytes already in memory (a prebuilt file), for the static path, where building a standard
 * Response costs more than everything else the pipeline does: undici validates and sorts every header and wraps
 * the body in a stream at construction. A MemoryResponse is a real Response subclass with the same behaviour for
 * anyone who uses it (headers, body, text(), arrayBuffer(), clone(), ...), but builds its Headers object and body
 * stream only when someone asks for them. A host that knows the class (hosts/node/node-http.ts) writes the
 * header list and the bytes straight out, and neither is ever built.
 *
 * Runtimes that read a Response's internal slots instead of its public API (some edge platforms) would see an
 * empty body; their adapters serve static files from their own asset store, not through this class.
 */

export type HeaderPairs = [string, string][];

export class MemoryResponse extends Response {
  readonly #bytes: Uint8Array | null;
  /** The body's Blob, or how to get it: made only if someone asks for the body stream. */
  #blob: Blob | (() => Blob) | null;
  #pairs: HeaderPairs;
  #names: Set<string>;
  #headers: Headers | undefined;
  #body: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined;
  #used = false;

  /**
   * bytes and blob hold the same content (blob, or a function giving it, for a body stream if one is asked for;
   * without one a Blob of the bytes is made then); null for no body.
   */
  constructor(bytes: Uint8Array | null, blob: Blob | (() => Blob) | null, init: { status: number; headers: HeaderPairs }) {
    super(null, { status: init.status });
    this.#bytes = bytes;
    this.#blob = bytes ? (blob ?? (() => new Blob([bytes as Uint8Array<ArrayBuffer>]))) : null;
    this.#pairs = init.headers;
    this.#names = new Set(init.headers.map(([name]) => name.toLowerCase()));
  }

  override get headers(): Headers {
    if (!this.#headers) this.#headers = new Headers(this.#pairs);
    return this.#headers;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#body === undefined) this.#body = this.#used || !this.#blob ? null : this.#blobOf().stream();
    return this.#body;
  }

  #blobOf(): Blob {
    if (typeof this.#blob === 'function') this.#blob = this.#blob();
    return this.#blob!;
  }

  override get bodyUsed(): boolean {
    return this.#used || Boolean(this.#body?.locked);
  }

  /** One header's value, without building the Headers object. */
  header(name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    const lower = name.toLowerCase();
    if (!this.#names.has(lower)) return null;
    const values = this.#pairs.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
    return values.join(', ');
  }

  /** Adds headers the response does not have yet (the pipeline's rate-limit, CORS and security headers). */
  addMissing(extra: Headers): void {
    if (this.#headers) {
      extra.forEach((value, name) => {
        if (!this.#headers!.has(name)) this.#headers!.set(name, value);
      });
      return;
    }
    extra.forEach((value, name) => {
      if (this.#names.has(name)) return;
      this.#names.add(name);
      this.#pairs.push([name, value]);
    });
  }

  /**
   * For hosts: the header list and bytes to write, as long as nobody has taken the Headers object or the body
   * (then the public API is the truth, and the host must use it).
   */
  direct(): { headers: HeaderPairs; bytes: Uint8Array | null } | undefined {
    if (this.#headers || this.#body !== undefined || this.#used) return undefined;
    return { headers: this.#pairs, bytes: this.#bytes };
  }

  #consume(): Uint8Array {
    if (this.bodyUsed) throw new TypeError('Response body object should not be disturbed or locked');
    this.#used = true;
    return this.#bytes ?? new Uint8Array(0);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#consume().slice().buffer as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#consume().slice() as Uint8Array<ArrayBuffer>;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(this.#consume());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    const bytes = this.#consume();
    return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: this.header('content-type') ?? '' });
  }

  override async formData(): Promise<FormData> {
    this.#consume();
    throw new TypeError('a prebuilt file is not form data');
  }

  override clone(): MemoryResponse {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    const pairs: HeaderPairs = [];
    if (this.#headers) this.#headers.forEach((value, name) => pairs.push([name, value]));
    else pairs.push(...this.#pairs.map(([n, v]) => [n, v] as [string, string]));
    return new MemoryResponse(this.#bytes, this.#blob, { status: this.status, headers: pairs });
  }
}

/** A response header's value, cheaply for a MemoryResponse. */
export function responseHeader(response: Response, name: string): string | null {
  return response instanceof MemoryResponse ? response.header(name) : response.headers.get(name);
}

/**
 * A Response any runtime can send. Runtimes that read a returned Response natively (workerd, Bun, Deno, the
 * platforms' function runners) do not see MemoryResponse's overridden getters, so hosts other than Node pass
 * what the pipeline answers through this.
 */
export function standardResponse(response: Response): Response {
  if (!(response instanceof MemoryResponse)) return response;
  return new Response(response.body, { status: response.status, headers: response.headers });
}
