import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = fileURLToPath(new URL('../../bin/atrium.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `atrium <args>` to its end. */
export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningCli {
  url: string;
  stdout: () => string;
  child: ChildProcess;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `atrium serve` on a free port and resolves once it listens. */
export function startServe(env: Record<string, string | undefined>): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve'], { env: cliEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /serving on (\S+)/.exec(stdout);
      if (match && stdout.includes('/api/customers/docs')) resolve({ url: match[1], stdout: () => stdout, child, exited });
    });
    child.stderr!.on('data', (c) => { stderr += c; });
    void exited.then((code) => reject(new Error(`atrium serve exited with ${code}: ${stderr}`)));
  });
}

function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}
