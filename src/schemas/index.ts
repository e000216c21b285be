export * from './common.ts';
export * from './episode.ts';
export * from './podcast.ts';
export * from './error.ts';
export * from './search.ts';
export * from './status.ts';
export * from './mcp.ts';
export * from './discovery.ts';
