import { writeSync } from 'node:fs';
import type { Logger } from '../../functions/types.ts';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

export interface ServerLogger extends Logger {
  /** Writes out whatever is buffered, synchronously (before exit). */
  flush(): void;
}

/**
 * One JSON object per line: info on stdout, warn and error on stderr; easy to grep, easy for any log shipper.
 * Lines are gathered and written once per event-loop turn rather than one write per line: under load the
 * access log alone is one line per request, and a write per line costs more than the request itself.
 */
export function createLogger(level: keyof typeof LEVELS): ServerLogger {
  const min = LEVELS[level];
  let out = '';
  let err = '';
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    if (out) {
      process.stdout.write(out);
      out = '';
    }
    if (err) {
      process.stderr.write(err);
      err = '';
    }
  };
  const write = (lvl: keyof typeof LEVELS, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const line = `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`;
    if (lvl === 'error' || lvl === 'warn') err += line;
    else out += line;
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    flush() {
      try {
        if (out) writeSync(1, out);
        if (err) writeSync(2, err);
      } catch {
        // stdout closed (EPIPE): nothing left to tell.
      }
      out = '';
      err = '';
    },
  };
}
