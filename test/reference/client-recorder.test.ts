import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decoded } from '../../src/reference/client-recorder.js';

const FORM = 'grant_type=refresh_token&refresh_token=tprt_secret_1';

describe('the recorded body (src/reference/client-recorder.ts)', () => {
  it('a body sent with Content-Encoding gzip is kept decoded, so no check misses a token compressed: no false green', () => {
    expect(decoded(gzipSync(FORM), 'gzip')).toBe(FORM);
    expect(decoded(gzipSync(FORM), 'X-GZIP')).toBe(FORM);
  });

  it('deflate in either framing, br, and a list of codings undone from its last are decoded too', () => {
    expect(decoded(deflateSync(FORM), 'deflate')).toBe(FORM);
    expect(decoded(deflateRawSync(FORM), 'deflate')).toBe(FORM);
    expect(decoded(brotliCompressSync(FORM), 'br')).toBe(FORM);
    expect(decoded(brotliCompressSync(gzipSync(FORM)), 'gzip, br')).toBe(FORM);
  });

  it('a body with no coding, identity, another coding, or one that does not decode is kept as it came', () => {
    expect(decoded(Buffer.from(FORM), undefined)).toBe(FORM);
    expect(decoded(Buffer.from(FORM), 'identity')).toBe(FORM);
    expect(decoded(Buffer.from(FORM), 'gzip')).toBe(FORM);
    expect(decoded(gzipSync(FORM), 'compress')).toBe(gzipSync(FORM).toString('utf8'));
  });
});
