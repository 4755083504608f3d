/** Multi-step lifecycles, each checking several rules in the order a real client meets them. */
import type { TestCase } from '../src/harness/types.js';

export const SCENARIOS: readonly TestCase[] = [];
