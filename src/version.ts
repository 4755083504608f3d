/** tack's version, read once from package.json: shown on the console, in reports and bundles. */
import { readFileSync } from 'node:fs';

export const TACK_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
