import { describe, expect, it } from 'vitest';
import { readArgs, readConfig } from './config.ts';

describe('readConfig', () => {
  it('keeps 32 MB of the build\'s files in memory unless STATIC_CACHE_MB says otherwise, and validates it', () => {
    expect(readConfig({}).staticCacheMb).toBe(32);
    expect(readConfig({ STATIC_CACHE_MB: '128' }).staticCacheMb).toBe(128);
    expect(() => readConfig({ STATIC_CACHE_MB: '0' })).toThrow(/STATIC_CACHE_MB/);
    expect(() => readConfig({ STATIC_CACHE_MB: 'all' })).toThrow(/STATIC_CACHE_MB/);
  });

  it('PORT: empty is unset (4321), 0 any free port, and only decimal digits ("0x50" and " 80" had meant 80)', () => {
    expect(readConfig({}).port).toBe(4321);
    expect(readConfig({ PORT: '' }).port).toBe(4321);
    expect(readConfig({ PORT: '0' }).port).toBe(0);
    expect(readConfig({ PORT: '8080' }).port).toBe(8080);
    for (const raw of ['0x50', ' 80', '80.0', '1e3', '-1', '65536', 'http']) {
      expect(() => readConfig({ PORT: raw }), raw).toThrow(`PORT must be a whole number from 0 to 65535 (0: any free port), got "${raw}"`);
    }
  });
});

describe('readArgs', () => {
  it('takes --help or -h, and nothing', () => {
    expect(readArgs([])).toEqual({ help: false });
    expect(readArgs(['--help'])).toEqual({ help: true });
    expect(readArgs(['-h'])).toEqual({ help: true });
  });

  it('refuses any other argument, naming the environment variable an option matches', () => {
    expect(() => readArgs(['--port', '5000'])).toThrow(
      'npm start takes no argument "--port": its settings come from the environment (PORT=5000 npm start); npm start -- --help lists them',
    );
    expect(() => readArgs(['--dist-dir=/srv/podcast'], 'npm run preview:bun')).toThrow('(DIST_DIR=/srv/podcast npm run preview:bun)');
    expect(() => readArgs(['--site-url'])).toThrow('(SITE_URL=... npm start)');
    expect(() => readArgs(['--help', '--verbose'])).toThrow('npm start takes no argument "--verbose": its settings come from the environment; npm start');
    expect(() => readArgs(['build'])).toThrow('npm start takes no argument "build"');
    // Only names the help lists, as whole words: no setting is made up from what a user typed.
    expect(() => readArgs(['--por'])).toThrow(/environment; npm start/);
    expect(() => readArgs(['--(.*)'])).toThrow(/environment; npm start/);
  });
});
