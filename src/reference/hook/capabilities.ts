/**
 * The capabilities of the test hook this server implements: all of tack-hook/1's, and `passwords`
 * (user creation takes an optional "password", token-page.md). A server may be started offering
 * fewer, as a target's hook may (`ReferenceOptions.hookCapabilities`).
 */
const CAPABILITIES = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'] as const;

export type HookCapability = (typeof CAPABILITIES)[number];

/** The capabilities a server is started with: known names only, each once, in the contract's order. */
export function parseCapabilities(names: readonly string[] | undefined): readonly HookCapability[] {
  if (names === undefined) return CAPABILITIES;
  const unknown = names.filter((name) => !(CAPABILITIES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`Unknown hook capabilit${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')}. Known: ${CAPABILITIES.join(', ')}`);
  return CAPABILITIES.filter((c) => names.includes(c));
}
