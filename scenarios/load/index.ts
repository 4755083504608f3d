/** The load profiles `tack load PROFILE` knows, in the order `tack load --help` lists them. */
import type { LoadProfile } from '../../src/load/profile.js';
import { exchangeSearchProfile } from './exchange-search.js';
import { exchangeProfile } from './exchange.js';
import { partnerMintProfile } from './partner-mint.js';
import { partnerRefreshProfile } from './partner-refresh.js';

export const LOAD_PROFILES: readonly LoadProfile[] = [exchangeProfile, exchangeSearchProfile, partnerMintProfile, partnerRefreshProfile];

export function findProfile(name: string): LoadProfile | undefined {
  return LOAD_PROFILES.find((p) => p.name === name);
}
