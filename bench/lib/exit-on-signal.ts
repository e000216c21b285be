/**
 * Preloaded (node --import) into a server profiled with --cpu-prof: V8 writes the profile only when the process
 * exits normally, and a SIGTERM would kill it without one. Benchmark-only; the server's own code is unchanged.
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
