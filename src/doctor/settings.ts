/** Doctor, section `config`: the configuration is valid; which mode it runs in; what it leaves out. */
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

export function diagnoseSettings(target: TargetConfig, say: Say): void {
  const mode = target.hook
    ? 'hook mode (TACK_HOOK_URL)'
    : target.hookless
      ? 'hookless mode (TACK_USER_EMAIL, TACK_API_TOKEN_FILE)'
      : target.userEmail
        ? 'partner-key mode: TACK_USER_EMAIL proves minted tokens work; no source of API tokens (neither the hook nor a token file)'
        : 'no source of API tokens (neither the hook nor a token file)';
  say(
    'ok',
    `valid: ${target.builtIn ? 'the built-in reference server' : 'a remote target'}, ${mode}; ` +
      `request timeout ${target.requestTimeoutMs} ms, run deadline ${target.runDeadlineS} s`,
  );
  if (!target.partner) say('warning', 'no partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET): partner-key rules will be skipped');
  if (!target.otherBaseUrl) say('warning', 'no tenant B (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_*): cross-tenant rules will be skipped');
  if (!target.hook && !target.userEmail) {
    say(
      'warning',
      'no user who reads a business (TACK_USER_EMAIL, or the hook): that minted and exchanged tokens work cannot be seen, so those rules will be skipped',
    );
  }
}
