/** The service's settings: one list of names and the help text that describes them (values: test/search/cache.test.ts, test/pipeline). */
import { describe, expect, it } from 'vitest';
import { SERVICE_ENV_HELP, SERVICE_ENV_NAMES } from './env.ts';

describe('SERVICE_ENV_NAMES', () => {
  it('names exactly the variables SERVICE_ENV_HELP describes, so a host passing them on (the Worker preview) misses none', () => {
    const described = new Set(SERVICE_ENV_HELP.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g));
    expect(new Set(SERVICE_ENV_NAMES)).toEqual(described);
  });
});
