/**
 * Why the client gives up, each with its exit code, so a scheduler (cron, CI) can tell a problem a
 * person must fix from one that a later run may not have.
 */

export class GiveUp extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'GiveUp';
  }
}

/** A PAYROLL_* variable is missing or wrong. */
export const configurationError = (message: string) => new GiveUp(message, 2);

/** The API token is expired or revoked (invalid_grant): only a person can generate a new one; never retried. */
export const tokenDead = () => new GiveUp('the API token is expired or revoked: generate a new one under Account > API tokens and put it in the token file', 3);

/** The API refused the call with 403: a team member with Manage team must grant the permission; never retried. */
export const forbidden = (what: string) => new GiveUp(`${what} was refused (403): ask a team member with the Manage team permission to grant access`, 4);

/** Anything else the service answered that the work cannot go on after. */
export const failed = (what: string, status: number) => new GiveUp(`${what} answered ${status}`, 1);
