/**
 * A sub-command's command line parsed in-process, as `tack` would parse it, its action replaced: what
 * the action would be given, the lines printed on stderr while parsing (notices), and what was thrown.
 */
import { Command } from 'commander';
import { vi } from 'vitest';

export interface Parsed {
  /** The action's arguments: the command's arguments, then its options. */
  readonly given: readonly unknown[];
  /** What was written on stderr while the line was parsed. */
  readonly stderr: readonly string[];
  readonly error?: unknown;
}

export async function parseCommandLine(register: (program: Command) => void, args: readonly string[]): Promise<Parsed> {
  const program = new Command('tack').exitOverride();
  register(program);
  const command = program.commands[0]!;
  command.exitOverride();
  let given: unknown[] = [];
  command.action((...a: unknown[]) => {
    given = a.slice(0, -1);
  });
  const stderr: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync([...args], { from: 'user' });
    return { given, stderr };
  } catch (error) {
    return { given, stderr, error };
  } finally {
    spy.mockRestore();
  }
}

/** The lines of `stderr` that are deprecation notices, by the option they name. */
export function deprecated(stderr: readonly string[]): string[] {
  return stderr.flatMap((line) => {
    const m = /^tack: TACK_DEPRECATED: (--[a-z-]+) /.exec(line);
    return m ? [m[1]!] : [];
  });
}

/** The error's code, option and kind, as an option's refusal carries them. */
export function refusalOf(error: unknown): { code?: string; option?: string; kind?: string } {
  const { code, option, kind } = (error ?? {}) as { code?: string; option?: string; kind?: string };
  return { code, option, kind };
}
