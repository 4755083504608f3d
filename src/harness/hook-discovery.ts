/**
 * Finding out what a target's test hook offers (`GET /` of `tack-hook/1`), once per session. A
 * configured hook that cannot be used is a problem to report (a wrong TACK_HOOK_TOKEN is a
 * configuration error, not a smaller run that passes), never a reason to throw.
 */
import type { TokenLedger } from './cleanup/ledger.js';
import { HookClient } from './clients/hook.js';
import type { HttpClient } from './http.js';
import type { Redactor } from './redactor.js';
import type { Transcript } from './transcript.js';
import type { TargetConfig } from './target-config.js';
import { errorText } from './errors.js';

interface HookDiscovery {
  /** The hook, when configured and usable. */
  readonly hook: HookClient | undefined;
  /** Why a configured hook cannot be used (redacted). */
  readonly problem: string | undefined;
}

export async function discoverHook(parts: {
  target: TargetConfig;
  http: HttpClient;
  redactor: Redactor;
  transcript?: Transcript;
  /** Where the API tokens the hook generates are listed (revoked when the run ends). */
  ledger?: TokenLedger;
}): Promise<HookDiscovery> {
  const { target, http, redactor, transcript } = parts;
  if (!target.hook) return { hook: undefined, problem: undefined };
  const client = new HookClient(http, target.hook.url, target.hook.token, parts.ledger);
  transcript?.setTest('hook-discovery');
  try {
    await client.discover();
    return { hook: client, problem: undefined };
  } catch (error) {
    return { hook: undefined, problem: redactor.redact(errorText(error)) };
  } finally {
    transcript?.setTest(undefined);
  }
}
