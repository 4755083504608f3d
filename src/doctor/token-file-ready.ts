/** Doctor, section `token file` (hookless mode): the file can be read and written, and who holds its lock. It is never exchanged here. */
import { lockHolder } from '../harness/lock.js';
import type { TargetConfig } from '../harness/target-config.js';
import { inspectTokenFile } from '../harness/token-file.js';
import type { Say } from './diagnosis.js';

export function diagnoseTokenFile(target: TargetConfig, say: Say): void {
  if (!target.hookless) {
    say('skipped', target.hook ? 'not configured: API tokens come from the test hook' : 'not configured (TACK_USER_EMAIL, TACK_API_TOKEN_FILE)');
    return;
  }
  const { tokenFile, userEmail } = target.hookless;
  const report = inspectTokenFile(tokenFile);
  for (const p of report.problems) say('problem', p);
  for (const w of report.warnings) say('warning', `${tokenFile}: ${w}`);
  if (report.ok) say('ok', `${tokenFile} (user ${userEmail}): ${report.notes.join('; ')}`);
  const holder = lockHolder(tokenFile);
  if (holder && !holder.startsWith('nobody'))
    say('warning', `${tokenFile} is locked by ${holder}: a run now would wait, then stop with TACK_ERR_TOKEN_FILE_LOCKED`);
  else if (holder) say('ok', `lock: ${holder}`);
  say('ok', 'not exchanged by doctor (an exchange rotates the token); a run exchanges it and stores each rotation before using it');
}
