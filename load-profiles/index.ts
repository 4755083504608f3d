/**
 * The load profiles `tack load PROFILE` knows, in the order `tack load --help` lists them.
 *
 * A new profile goes in its own module here, exporting one `LoadProfile` (src/load/profile.ts):
 * its conversation (the requests and how each answer is judged, wire.ts holding the shared ones),
 * `prepare()` for `tack load`, and `artillery` for the export; then it is listed below. The list is
 * also what the Artillery processor bundles (src/load/artillery/), so these modules import nothing
 * that talks to a target (test/load/artillery/hooks.test.ts checks the bundle's inputs).
 */
import type { LoadProfile } from '../src/load/profile.js';
import { exchangeSearchProfile } from './exchange-search.js';
import { exchangeProfile } from './exchange.js';
import { partnerMintProfile } from './partner-mint.js';
import { partnerRefreshProfile } from './partner-refresh.js';

export const LOAD_PROFILES: readonly LoadProfile[] = [exchangeProfile, exchangeSearchProfile, partnerMintProfile, partnerRefreshProfile];

export function findProfile(name: string): LoadProfile | undefined {
  return LOAD_PROFILES.find((p) => p.name === name);
}
