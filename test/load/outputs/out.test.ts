import { describe, expect, it } from 'vitest';
import { parseOuts } from '../../../src/load/outputs/out.js';

describe('--out, in k6 spelling', () => {
  it('takes a plain path or json=FILE as the result file, prometheus=URL (or k6 name) as the remote write', () => {
    expect(parseOuts([])).toEqual({ file: undefined, prometheus: undefined });
    expect(parseOuts(['reports/a.json'])).toEqual({ file: 'reports/a.json', prometheus: undefined });
    expect(parseOuts(['json=a=b.json', 'prometheus=http://127.0.0.1:9090/api/v1/write'])).toEqual({
      file: 'a=b.json',
      prometheus: 'http://127.0.0.1:9090/api/v1/write',
    });
    expect(parseOuts(['experimental-prometheus-rw=https://u:p@prom.example/api/v1/write']).prometheus).toBe('https://u:p@prom.example/api/v1/write');
  });

  it.each([
    [['influxdb=http://x'], /not an output tack knows/],
    [['a.json', 'b.json'], /one result file/],
    [['prometheus=http://a/', 'prometheus=http://b/'], /once/],
    [['prometheus=ftp://127.0.0.1:9090/'], /http or https/],
    [['prometheus=127.0.0.1:9090'], /remote-write URL/],
    [['prometheus=not a url'], /remote-write URL/],
    [['json='], /needs a file name/],
  ])('refuses %j', (values, message) => {
    expect(() => parseOuts(values)).toThrow(message);
  });
});
