/** Small parsers shared by the sub-commands. Argument parsing itself is commander's. */
import { InvalidArgumentError } from 'commander';

export function parseList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}

export function parseIntOption(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${flag} takes a whole number, got "${value}"`);
    return n;
  };
}
