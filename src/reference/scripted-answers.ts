/**
 * Scripted answers, for the scenarios of `tack client`: the reference server answers some requests
 * the way a real deployment sometimes does (an access token refused with 401, a call refused with
 * 403), so that the harness can see what the client under test does next.
 *
 * A script is a list of steps. Each names a route (its name in the route table, e.g. `business
 * search`), a reply, and how many of the matching requests it answers (the first N, or every one).
 * A step can ask for requests that carry a valid access token only: as a real server would, a call
 * without one gets the server's own 401, and the scripted answer waits for an authenticated call.
 * The router asks the script once it has chosen the route and before the handler runs; a scripted
 * reply is thrown as an HttpError, so it goes out through the one serializer in the host's error format,
 * exactly as the server's own refusals do.
 */
import { forbidden, type HttpError, unauthorized } from './errors.js';

/** `access-token-refused`: 401 invalid_token with a Bearer challenge; `forbidden`: 403 (no permission). */
type ScriptedReply = 'access-token-refused' | 'forbidden';

export interface ScriptStep {
  /** The route's name in the route table (`business search`, `partner token`, `sign-in token exchange`...). */
  readonly route: string;
  readonly reply: ScriptedReply;
  /** How many matching requests get the reply, from the first; every one when absent. */
  readonly times?: number;
  /** Only requests that carry a valid access token match (`Authorization: Bearer`). */
  readonly withValidAccessToken?: boolean;
}

export class Script {
  #steps: { readonly step: ScriptStep; left: number }[] = [];
  readonly #routes: readonly string[];

  /** `steps` answer from now on; `later` are steps a `replace` may bring (their routes are checked at start too). */
  constructor(steps: readonly ScriptStep[], later: readonly ScriptStep[] = []) {
    this.#routes = [...steps, ...later].map((s) => s.route);
    this.replace(steps);
  }

  /** Route names the script refers to (the router checks that each one exists). */
  get routes(): readonly string[] {
    return this.#routes;
  }

  /** From now on these steps answer, each with its count from the start (between runs of a client). */
  replace(steps: readonly ScriptStep[]): void {
    const unknown = steps.filter((s) => !this.#routes.includes(s.route));
    if (unknown.length > 0) throw new Error(`the script was not started with the routes ${unknown.map((s) => s.route).join(', ')}`);
    this.#steps = steps.map((step) => ({ step, left: step.times ?? Number.POSITIVE_INFINITY }));
  }

  /** Throws the scripted reply when a step still applies to a request of `route`. */
  intercept(route: string, realm: string, hasValidAccessToken: () => boolean): void {
    const entry = this.#steps.find((s) => s.step.route === route && s.left > 0 && (s.step.withValidAccessToken !== true || hasValidAccessToken()));
    if (entry === undefined) return;
    entry.left--;
    throw reply(entry.step.reply, realm);
  }
}

function reply(kind: ScriptedReply, realm: string): HttpError {
  switch (kind) {
    case 'access-token-refused':
      return unauthorized('invalid_token', 'The access token has expired.', `Bearer realm="${realm}", error="invalid_token"`);
    case 'forbidden':
      return forbidden('forbidden', 'The caller lacks the permission for this call; a team member with Manage team can grant it.');
  }
}
