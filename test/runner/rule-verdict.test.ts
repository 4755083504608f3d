/** How the evidence of one rule becomes its verdict (src/runner/rule-verdict.ts). */
import { describe, expect, it } from 'vitest';
import { RuleEvidence } from '../../src/runner/rule-verdict.js';

describe('RuleEvidence', () => {
  it('precedence: failed over error over unverified over passed; SHOULD fails as warning', () => {
    const e = new RuleEvidence('SIGNIN-NO-STORE');
    e.checks.push({ rule: 'SIGNIN-NO-STORE', test: 't', title: 'no-store', ok: false, expected: 'a', actual: 'b', exchanges: [] });
    e.errors.push('t: boom');
    expect(e.finalise().status).toBe('warning');
    const f = new RuleEvidence('SIGNIN-EXCHANGE');
    f.errors.push('t: boom');
    f.unverified.push({ rule: 'SIGNIN-EXCHANGE', title: 'x', reason: 'y' });
    expect(f.finalise().status).toBe('error');
  });
});
