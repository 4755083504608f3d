/** Doctor, section `hosts`: each host answers HTTP (the preflight's own probes, src/harness/preflight.ts). */
import type { HttpClient } from '../harness/http.js';
import { probeHost, probesOf } from '../harness/preflight.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

/** Returns the hosts that are down (their name does not resolve, or they do not answer). */
export async function diagnoseHosts(target: TargetConfig, http: HttpClient, unresolved: ReadonlySet<string>, say: Say): Promise<Set<string>> {
  const down = new Set<string>(unresolved);
  for (const probe of probesOf(target)) {
    const host = new URL(probe.url).host;
    if (down.has(host)) {
      say('skipped', `${probe.role} ${new URL(probe.url).origin}: not tried (its name does not resolve)`);
      continue;
    }
    const started = performance.now();
    const problem = await probeHost(http, probe);
    if (problem) {
      down.add(host);
      say('problem', problem.message);
    } else say('ok', `${probe.role} ${new URL(probe.url).origin} answers (${Math.round(performance.now() - started)} ms)`);
  }
  return down;
}
