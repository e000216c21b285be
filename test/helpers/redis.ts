/** A real redis-server (Debian package) for tests: foreground, loopback only, no persistence. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts redis-server on port and resolves once it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((done, fail) => {
    const output: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('Ready to accept connections')) done();
    });
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output.join('\n')}`)));
    child.once('error', fail);
  });
  return child;
}

/** Stops a redis-server started by startRedis and resolves once it has exited. */
export async function stopRedis(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill(signal);
  await exited;
}
