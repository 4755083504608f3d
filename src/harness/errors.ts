/**
 * Errors tack raises, and every exit code tack ends with. Each error has a stable `code` (like
 * undici's `UND_ERR_*`) that CI scripts can match on, a default message, and the exit code it leads
 * to when it ends a command. Messages never carry secrets: they are built from redacted text only.
 *
 * docs/errors.md lists every code; test/harness/errors.test.ts keeps the two in step.
 */

/**
 * Every exit code, in one table, named by its cause. A command's code comes from here: a verdict's
 * (src/runner/exit-policy.ts), an error's (its code's `exit` below), a stop's (128 + the signal's
 * number, as shells report it; src/harness/interrupt.ts).
 */
export const EXIT = {
  /** Every MUST rule checked holds; every load threshold held. */
  ok: 0,
  /** A MUST failed (a SHOULD under --strict, a MUST not checked under --require-all); a load correctness failure; a bundle that does not verify. */
  mustFailed: 1,
  /** The configuration is not valid: a variable, a file, the command line, a refused key or password, a baseline that cannot be read. */
  config: 2,
  /** The target could not be reached, did not answer in time, or answered what is not HTTP. */
  unreachable: 2,
  /** A rule could not be checked for an error, or the configured test hook cannot be used (INCOMPLETE). */
  incomplete: 2,
  /** No rule could be checked. */
  nothingChecked: 3,
  /** A load threshold was breached. */
  threshold: 4,
  /** A load capacity search found a knee that did not repeat (unstable), without --allow-unstable. */
  unstable: 5,
  /** Stopped by SIGINT (Ctrl-C). */
  sigint: 130,
  /** Stopped by SIGTERM. */
  sigterm: 143,
} as const;

export const ERROR_CODES = {
  TACK_ERR_CONFIG: { exit: EXIT.config, message: 'The configuration is not valid' },
  TACK_ERR_ENV_FILE: { exit: EXIT.config, message: 'The env file could not be read' },
  TACK_ERR_UNREACHABLE: { exit: EXIT.unreachable, message: 'The target could not be reached' },
  TACK_ERR_TIMEOUT: { exit: EXIT.unreachable, message: 'The target did not answer in time' },
  TACK_ERR_RUN_DEADLINE: { exit: EXIT.unreachable, message: 'The run did not finish before its deadline' },
  TACK_ERR_BAD_RESPONSE: { exit: EXIT.unreachable, message: 'The target answered something that is not HTTP as expected' },
  TACK_ERR_RATE_LIMITED: { exit: EXIT.unreachable, message: 'The target kept answering 429 Too Many Requests' },
  TACK_ERR_HOOK: { exit: EXIT.config, message: 'The test hook refused or failed a call' },
  TACK_ERR_IDENTITY: { exit: EXIT.config, message: 'The sign-in server has no token endpoint under TACK_IDENTITY_URL, or refuses TACK_CLIENT_ID' },
  TACK_ERR_PARTNER_KEY: { exit: EXIT.config, message: 'A partner key was refused' },
  TACK_ERR_TOKEN_FILE: { exit: EXIT.config, message: 'The API token file could not be read or written' },
  TACK_ERR_TOKEN_FILE_LOCKED: { exit: EXIT.config, message: 'Another tack process holds the API token file' },
  TACK_ERR_DOCTOR: { exit: EXIT.config, message: 'tack doctor found a problem' },
  TACK_ERR_NOTHING_CHECKED: { exit: EXIT.nothingChecked, message: 'No rule could be checked' },
  TACK_ERR_USAGE: { exit: EXIT.config, message: 'The command line is not valid' },
  TACK_ERR_THRESHOLD: { exit: EXIT.threshold, message: 'A load threshold was breached' },
  TACK_ERR_UNSTABLE: { exit: EXIT.unstable, message: 'The capacity found did not repeat: the search is unstable' },
  TACK_ERR_BUNDLE: { exit: EXIT.mustFailed, message: 'The evidence bundle does not verify' },
  TACK_ERR_USER_PASSWORD: { exit: EXIT.config, message: 'The sign-in page refused TACK_USER_PASSWORD' },
  TACK_ERR_SIGN_IN_REFUSED: {
    exit: EXIT.config,
    message: 'A sign-in with TACK_USER_PASSWORD did not end signed in, and the page did not ask for the password again (a locked account?)',
  },
  // SIGINT's code here; a stop by SIGTERM raises it with EXIT.sigterm (src/harness/interrupt.ts).
  TACK_ERR_INTERRUPTED: { exit: EXIT.sigint, message: 'The run was stopped by a signal' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class TackError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;

  /** `exitCode`: where the code's exit depends on the case (TACK_ERR_INTERRUPTED: 130 or 143). */
  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message ?? ERROR_CODES[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TackError';
    this.code = code;
    this.exitCode = options?.exitCode ?? ERROR_CODES[code].exit;
  }
}

export function isTackError(error: unknown, code?: ErrorCode): error is TackError {
  return error instanceof TackError && (code === undefined || error.code === code);
}

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error, its message passed through `redact`, for an error that leaves a session (the command
 * line prints it). Messages are built from redacted text, but some carry what a target said (a
 * hook's `error` member): this is the last line of defence before the console.
 */
export function redactError(error: unknown, redact: (text: string) => string): unknown {
  if (error instanceof Error) error.message = redact(error.message);
  return error;
}
