/**
 * Server-sent events for /ask: content negotiation and a pull-driven event stream. Each event is written when
 * the consumer asks for the next one, so work (ranking, snippets) happens only as fast as it is read, and
 * stops as soon as the request's signal aborts.
 */

/** POST /ask streams when Accept lists text/event-stream (with q > 0) or Prefer has streaming=true. */
export function wantsEventStream(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const acceptsStream = accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'text/event-stream') return false;
    const q = params.find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
  if (acceptsStream) return true;
  const prefer = request.headers.get('prefer') ?? '';
  return prefer.split(',').some((pref) => /^\s*streaming\s*=\s*"?true"?\s*(;|$)/i.test(pref));
}

/** One event: its name and a single JSON data line (JSON.stringify never emits a raw line break). */
export function formatEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface EventSource {
  /** The next event to send, or undefined when the stream is complete. Called only when the client reads. */
  next(): { event: string; data: unknown } | undefined | Promise<{ event: string; data: unknown } | undefined>;
}

export interface StreamHooks {
  /** Called once if the client goes away (signal aborted or stream cancelled) before the source is exhausted. */
  onAbort(): void;
  /** Turns a failure of the source into a last event (the status line is already sent, so no 500 is possible). */
  onError(err: unknown): { event: string; data: unknown };
}

/** A text/event-stream body that pulls one event at a time from `source`. */
export function eventStream(source: EventSource, signal: AbortSignal, hooks: StreamHooks): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finished = false;
  const stop = () => {
    if (finished) return;
    finished = true;
    hooks.onAbort();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        signal.addEventListener(
          'abort',
          () => {
            if (finished) return;
            stop();
            try {
              controller.close();
            } catch {
              // Already closed or errored by the consumer.
            }
          },
          { once: true },
        );
      },
      async pull(controller) {
        if (finished) return;
        if (signal.aborted) {
          stop();
          controller.close();
          return;
        }
        let item: { event: string; data: unknown } | undefined;
        try {
          item = await source.next();
        } catch (err) {
          finished = true;
          const last = hooks.onError(err);
          controller.enqueue(encoder.encode(formatEvent(last.event, last.data)));
          controller.close();
          return;
        }
        // The client may have gone while the event was being made.
        if (finished) return;
        if (!item) {
          finished = true;
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(formatEvent(item.event, item.data)));
      },
      cancel() {
        stop();
      },
    },
    // No read-ahead: an event is produced only when a read is waiting for it.
    { highWaterMark: 0 },
  );
}
