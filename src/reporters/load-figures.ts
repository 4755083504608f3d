/**
 * The load part of a certification: the exchange profile run once against the target, its
 * figures (tack-load/1 JSON and its HTML) kept for the bundle.
 *
 * `tack load` lives in src/load/; until it offers a programmatic entry, certification says so
 * plainly and bundles the conformance evidence alone.
 */

export interface CertifyLoadOptions {
  readonly envFile: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Where the load figures are written. */
  readonly reportsDir: string;
  /** Faults of the built-in reference server. */
  readonly faults: readonly string[];
  readonly write: (s: string) => void;
}

export interface CertifyLoad {
  readonly status: 'ran' | 'unavailable' | 'left-out';
  readonly reason: string;
  /** Files to bundle under load/. */
  readonly files: readonly string[];
  /** 4 when a threshold was breached; undefined when the load did not run. */
  readonly exitCode: number | undefined;
}

export async function runCertifyLoad(_options: CertifyLoadOptions): Promise<CertifyLoad> {
  return { status: 'unavailable', reason: 'this version of tack has no programmatic load entry yet (src/load)', files: [], exitCode: undefined };
}
