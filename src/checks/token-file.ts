/**
 * Checks on how a client under test left a file it keeps a secret in (the token file of `tack
 * client`): replaced whole, never rewritten in place, readable by its owner only, not emptied.
 */
import { finding, type Finding } from './finding.js';

/** The file was replaced by another (a new inode: written aside and renamed over it), not rewritten in place. */
export function replacedWhole(inodeBefore: number, inodeAfter: number): Finding {
  const replaced = inodeBefore !== inodeAfter;
  return finding(
    replaced,
    'a new file renamed over the old one',
    replaced ? 'a new file' : 'the same file rewritten in place (a crash mid-write loses the token)',
  );
}

/** Permission bits give nobody but the owner any access (0600 or stricter). */
export function ownerOnly(mode: number): Finding {
  const octal = `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
  return finding((mode & 0o077) === 0, 'mode 0600 or stricter (the owner only)', `mode ${octal}`);
}

/** A file that should still hold a token (`content`: what it holds; null when it is gone). */
export function stillHoldsToken(content: string | null): Finding {
  const holds = content !== null && content.trim() !== '';
  return finding(holds, 'the token file still holding the API token', content === null ? 'the token file missing' : holds ? 'a token' : 'the token file empty');
}
