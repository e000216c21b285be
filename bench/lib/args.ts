/**
 * The bench scripts' command lines: `--help` (`-h`) prints the script's usage, and an option parseArgs refuses
 * prints one line and the usage (exit 2) instead of parseArgs' stack trace.
 */
export function withUsage<T>(usage: string, parse: () => T, args: readonly string[] = process.argv.slice(2)): T {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parse();
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}
