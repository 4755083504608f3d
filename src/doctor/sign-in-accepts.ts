/** Doctor, section `sign-in`: the token endpoint is under TACK_IDENTITY_URL and knows TACK_CLIENT_ID (src/harness/config-probes.ts). */
import { probeSignIn } from '../harness/config-probes.js';
import type { HttpClient } from '../harness/http.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

export async function diagnoseSignIn(target: TargetConfig, http: HttpClient, isDown: (url: string) => boolean, say: Say): Promise<void> {
  if (isDown(target.identityUrl)) {
    say('skipped', 'token endpoint not tried: the sign-in server is not reachable');
    return;
  }
  const signIn = await probeSignIn(http, target);
  say(signIn.status, signIn.text);
}
