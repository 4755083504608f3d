/**
 * The "real" side of the model-based property: what the commands may do to the system under test
 * and what they see, reduced to the facts the model judges. The HTTP implementation
 * (`./http-system.ts`) drives a target; the unit tests drive a simulated one, so the commands and
 * the model are tested without a server.
 */
import type fc from 'fast-check';
import type { RuleId } from '../../../src/rules/catalog.js';
import type { LifecycleModel } from './model.js';

export interface ExchangeSeen {
  readonly status: number;
  /** The OAuth `error` member, if any. */
  readonly error: string | undefined;
  /** 200 carrying an access_token and a refresh_token. */
  readonly success: boolean;
  /** The refresh_token returned differs from the one sent. */
  readonly rotated: boolean;
  /** Status, error code and content type: safe to print. */
  readonly summary: string;
}

export interface RevokeSeen {
  readonly status: number;
  /** The body is empty or only whitespace. */
  readonly emptyBody: boolean;
  readonly summary: string;
}

export interface ApiSeen {
  readonly status: number;
  /** The search listed the business the token's user reads: the token works. */
  readonly listsData: boolean;
  readonly summary: string;
}

export interface LifecycleSystem {
  /** Replaces the chain by a new API token of a new user (the old chain is left alone). */
  newToken(): Promise<void>;
  /** Exchanges the chain's current token; a returned refresh_token becomes current. */
  exchange(): Promise<ExchangeSeen>;
  /** Exchanges the most recently rotated-out token again (the chain's current token stays). */
  reuseRotatedOut(): Promise<ExchangeSeen>;
  /** Revokes the chain's current token. */
  revoke(): Promise<RevokeSeen>;
  disableUser(): Promise<void>;
  /** Moves the target's clock forward. */
  advance(seconds: number): Promise<void>;
  /** Calls the API with the access token of the last successful exchange. */
  useAccessToken(): Promise<ApiSeen>;
}

/** Records a verdict on a rule and throws when it fails (`TestContext.check`). */
type CheckFn = (rule: RuleId, title: string, ok: boolean, expected: string, actual: string) => void;

export interface LifecycleReal {
  readonly system: LifecycleSystem;
  readonly check: CheckFn;
}

/** One command of the model-based property: `check(model)`, `run(model, real)`, `toString()`. */
export type LifecycleCommand = fc.AsyncCommand<LifecycleModel, LifecycleReal>;
