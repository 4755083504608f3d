/**
 * `--out`, in k6's spelling: a plain path (or `json=FILE`) is the result JSON; `prometheus=URL`
 * (or k6's name, `experimental-prometheus-rw=URL`) pushes the live figures to Prometheus through
 * remote write. Repeatable: one file, one Prometheus at most.
 */
import { TackError } from '../../harness/errors.js';
import { parsePrometheusUrl } from './prometheus.js';

interface Outs {
  /** The result JSON's path. */
  readonly file?: string | undefined;
  /** The remote-write URL. */
  readonly prometheus?: string | undefined;
}

const NAMED = /^([a-z][a-z0-9-]*)=(.*)$/s;
const PROMETHEUS = new Set(['prometheus', 'experimental-prometheus-rw']);

export function parseOuts(values: readonly string[]): Outs {
  let file: string | undefined;
  let prometheus: string | undefined;
  for (const value of values) {
    const named = NAMED.exec(value);
    if (named && PROMETHEUS.has(named[1]!)) {
      if (prometheus !== undefined) throw new TackError('TACK_ERR_USAGE', '--out prometheus=URL may be given once');
      parsePrometheusUrl(named[2]!);
      prometheus = named[2]!;
      continue;
    }
    if (named && named[1] !== 'json') {
      throw new TackError(
        'TACK_ERR_USAGE',
        `--out ${named[1]}=… is not an output tack knows: give a file (or json=FILE) and prometheus=URL (a file whose name has "=" in it: json=FILE)`,
      );
    }
    const path = named ? named[2]! : value;
    if (file !== undefined) throw new TackError('TACK_ERR_USAGE', '--out takes one result file');
    if (path === '') throw new TackError('TACK_ERR_USAGE', '--out json=FILE needs a file name');
    file = path;
  }
  return { file, prometheus };
}
