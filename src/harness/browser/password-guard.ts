/**
 * One refused sign-in stops all sign-ins with TACK_USER_PASSWORD. It is a real person's password on
 * a real account, and a Keycloak-style server locks an account after a few failures: the first time
 * a sign-in with it does not end signed in (the run's sign-in, a sign-in again, the password typed
 * again at Generate token), whatever the page shows instead (the form again, a "temporarily locked"
 * page without a form, a form tack could not send), tack never types it again in that run. Every
 * later step that would need it fails at once with one line naming the variable (the runner reports
 * those tests as `error` without starting them), and the run exits 2. So a run makes at most one
 * failed sign-in as that user beyond the deliberate wrong password below.
 *
 * The password is blamed ("check TACK_USER_PASSWORD", TACK_ERR_USER_PASSWORD) only when the page
 * refused it: it asked for it again after the form was sent. Otherwise the page is (`page`): the run
 * ends with TACK_ERR_SIGN_IN_REFUSED (a locked account, say), saying where the browser stayed and
 * what it showed. Both exit 2.
 *
 * Only TACK_USER_PASSWORD is guarded: the password of a user tack created through the hook is its
 * own. One deliberate wrong password is typed per run at re-authentication (TOKEN-PAGE-REAUTH, for
 * TACK_USER_EMAIL too unless TACK_NO_WRONG_PASSWORD is set): it is not TACK_USER_PASSWORD, so this
 * guard neither stops it nor counts its refusal, which is expected. A healthy run so makes exactly
 * one failed sign-in as that user (`ReferenceServer.failedSignIns`), two at most.
 */
import { type ErrorCode, TackError } from '../errors.js';

export class PasswordGuard {
  private refusal: TackError | undefined;
  /** The first refusal in full: whose sign-in, where, what the page showed, what to do (the run's last line says it). */
  refusedAt: string | undefined;
  /** The code of that first refusal: TACK_ERR_USER_PASSWORD when the page asked for the password again, else TACK_ERR_SIGN_IN_REFUSED. */
  refusedCode: ErrorCode | undefined;

  constructor(
    /** TACK_USER_PASSWORD, when set. */
    private readonly password: string | undefined,
    private readonly email: string | undefined,
  ) {}

  /** The one line every later step that would type TACK_USER_PASSWORD fails with, once it was refused. */
  get refused(): TackError | undefined {
    return this.refusal;
  }

  /** Call before typing `password`: throws when it is TACK_USER_PASSWORD and it was refused before. */
  before(password: string): void {
    if (this.guards(password) && this.refusal) throw this.refusal;
  }

  /**
   * A sign-in with `password` did not end signed in (`what`: where and what it showed); `blame`:
   * whether the page refused the password itself (it asked for it again), or ended elsewhere. For
   * TACK_USER_PASSWORD, returns the error that says so in full (later uses throw the one line of
   * `refused`); undefined for another user's password.
   */
  notTaken(password: string, what: string, blame: 'password' | 'page' = 'password'): TackError | undefined {
    if (!this.guards(password)) return undefined;
    const user = this.email ?? 'TACK_USER_EMAIL';
    const code: ErrorCode = blame === 'password' ? 'TACK_ERR_USER_PASSWORD' : 'TACK_ERR_SIGN_IN_REFUSED';
    this.refusal ??= new TackError(
      code,
      blame === 'password'
        ? 'the sign-in page did not accept TACK_USER_PASSWORD at the first attempt of this run: not typed again (an account may lock after failures)'
        : 'a sign-in with TACK_USER_PASSWORD did not end signed in at the first attempt of this run: not typed again (an account may lock after failures)',
    );
    const error =
      blame === 'page'
        ? new TackError(
            'TACK_ERR_SIGN_IN_REFUSED',
            `signing in as ${user} with TACK_USER_PASSWORD did not end signed in (${what}); the page did not ask for the password again ` +
              '(a locked account? a field tack did not fill: TACK_UI_SELECTORS): tack types it no more in this run, so the account cannot lock',
          )
        : new TackError(
            'TACK_ERR_USER_PASSWORD',
            `the sign-in page did not accept TACK_USER_PASSWORD for ${user} (${what}): check TACK_USER_PASSWORD ` +
              '(and TACK_UI_SELECTORS if the sign-in form has other labels); tack types it no more in this run, so the account cannot lock',
          );
    this.refusedCode ??= code;
    this.refusedAt ??= error.message;
    return error;
  }

  private guards(password: string): boolean {
    return this.password !== undefined && password === this.password;
  }
}
