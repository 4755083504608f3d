/**
 * `tack doctor`: whether a configuration is ready for a run, section by section, in the order it
 * prints them (one file each: settings, names and TLS, hosts, sign-in, partner keys, hook, token
 * file, browser), then what a run would check and skip: the runner's own plan (planRules), so
 * doctor foresees exactly what a run checks. It rotates nothing and generates no token.
 */
import type { HttpClient } from '../harness/http.js';
import type { Redactor } from '../harness/redactor.js';
import type { TargetConfig } from '../harness/target-config.js';
import { planRules, type RulePlan } from '../runner/selection.js';
import type { TestCase } from '../runner/test-case.js';
import { diagnoseWeb } from './browser-ready.js';
import type { Diagnosis, Say, Section } from './diagnosis.js';
import { diagnoseHook } from './hook-usable.js';
import { diagnoseHosts } from './hosts-answer.js';
import { diagnoseNames } from './names-and-tls.js';
import { diagnosePartnerKeys } from './partner-keys.js';
import { diagnoseSettings } from './settings.js';
import { diagnoseSignIn } from './sign-in-accepts.js';
import { diagnoseTokenFile } from './token-file-ready.js';

export interface DoctorReport {
  readonly diagnoses: readonly Diagnosis[];
  readonly plan: readonly RulePlan[];
  readonly problems: number;
}

interface DoctorInput {
  readonly target: TargetConfig;
  readonly http: HttpClient;
  readonly redactor: Redactor;
  readonly tests: readonly TestCase[];
}

export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const { target, http, redactor } = input;
  const diagnoses: Diagnosis[] = [];
  const sayIn =
    (section: Section): Say =>
    (status, text) =>
      diagnoses.push({ section, status, text: redactor.redact(text) });

  diagnoseSettings(target, sayIn('config'));
  const unresolved = await diagnoseNames(target, sayIn('names'), sayIn('tls'));
  const down = await diagnoseHosts(target, http, unresolved, sayIn('hosts'));
  const isDown = (url: string) => down.has(new URL(url).host);
  await diagnoseSignIn(target, http, isDown, sayIn('sign-in'));
  await diagnosePartnerKeys(target, http, redactor, isDown, sayIn('partner'));
  const { hook, hookProblem } = await diagnoseHook(target, http, isDown, sayIn('hook'));
  diagnoseTokenFile(target, sayIn('token file'));
  const hookMakesUsers = hook?.has('users') === true && hook.has('passwords');
  await diagnoseWeb(target, redactor, hookMakesUsers, isDown(target.webUrl), sayIn('browser'));

  const plan = planRules(input.tests, [], target, hook, hookProblem);
  return { diagnoses, plan, problems: diagnoses.filter((d) => d.status === 'problem').length };
}
