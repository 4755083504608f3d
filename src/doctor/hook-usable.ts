/** Doctor, section `hook`: the test hook answers with its contract and capabilities, and which it lacks. */
import { ALL_CAPABILITIES, HookClient } from '../harness/clients/hook.js';
import { errorText, isTackError } from '../harness/errors.js';
import type { HttpClient } from '../harness/http.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

/** The hook when it can be used, or why not: what a run would have (the plan is made from it). */
export async function diagnoseHook(
  target: TargetConfig,
  http: HttpClient,
  isDown: (url: string) => boolean,
  say: Say,
): Promise<{ hook: HookClient | undefined; hookProblem: string | undefined }> {
  if (!target.hook) {
    say('skipped', 'not configured (TACK_HOOK_URL, TACK_HOOK_TOKEN): rules that need time travel, fresh users or disabling will be skipped');
    return { hook: undefined, hookProblem: undefined };
  }
  if (isDown(target.hook.url)) {
    const hookProblem = 'the test hook is not reachable';
    say('skipped', `not tried: ${hookProblem}`);
    return { hook: undefined, hookProblem };
  }
  const client = new HookClient(http, target.hook.url, target.hook.token);
  try {
    const capabilities = await client.discover();
    const missing = ALL_CAPABILITIES.filter((c) => !capabilities.has(c));
    say('ok', `contract ${client.contract || '(none named)'}, capabilities: ${[...capabilities].join(', ') || 'none'}`);
    if (client.contract !== 'tack-hook/1')
      say('warning', `the hook names contract "${client.contract}", not tack-hook/1: calls may not behave as tack expects`);
    if (missing.length > 0)
      say('warning', `the hook does not offer ${missing.join(', ')}: rules that need ${missing.length === 1 ? 'it' : 'them'} will be skipped`);
    return { hook: client, hookProblem: undefined };
  } catch (error) {
    const hookProblem = errorText(error);
    say('problem', isTackError(error) ? error.message : hookProblem);
    return { hook: undefined, hookProblem };
  }
}
