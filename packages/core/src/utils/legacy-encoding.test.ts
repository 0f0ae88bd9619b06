import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText } from './file-content.js';
import { detectLegacyEncoding, legacyEncodingPreference } from './legacy-encoding.js';

const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/encodings',
);
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

/** Fixture files are named `<encoding>-short.c` / `<encoding>-long.md`; GBK decodes as GB18030. */
const samples = readdirSync(fixtures)
  .filter((name) => /-(short|long)\./.test(name))
  .map((name) => {
    const written = name.replace(/-(short|long)\..*$/, '');
    return [name, written === 'gbk' ? 'gb18030' : written] as const;
  });

describe('legacy encoding detection', () => {
  it('has short and long samples of every encoding', () => {
    const encodings = new Set(samples.map(([, encoding]) => encoding));
    expect([...encodings].sort()).toEqual(
      ['big5', 'euc-jp', 'euc-kr', 'gb18030', 'shift_jis', 'windows-1252'].sort(),
    );
    for (const encoding of encodings) {
      const names = samples.filter(([, e]) => e === encoding).map(([name]) => name);
      if (encoding !== 'gb18030') expect(names.some((n) => n.includes('-short.'))).toBe(true);
    }
  });

  // Any locale preference must not overturn a clear verdict.
  for (const preferred of [[], ['shift_jis'], ['windows-1252'], ['euc-kr'], ['big5']]) {
    it.each(samples)(
      `%s is read as %s (preferring ${preferred.join() || 'nothing'})`,
      (name, encoding) => {
        expect(detectLegacyEncoding(fixture(name), preferred)).toBe(encoding);
      },
    );
  }

  it('reads the GBK comment of the issue as Chinese, not as half-width katakana', () => {
    const bytes = fixture('gbk-short.c');
    expect(bytes.includes(Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xd7, 0xa2, 0xca, 0xcd]))).toBe(
      true,
    );
    const decoded = decodeText(bytes, ['shift_jis']);
    expect(decoded.encoding).toBe('gb18030');
    expect(decoded.text).toContain('// 中文注释');
  });

  it('lets the preference decide when two decodings read equally well', () => {
    // In Big5 these bytes are 麼都; in GBK they are 或常: frequent characters either way.
    const bytes = fixture('big5-or-gbk-tie.txt');
    expect(iconv.decode(bytes, 'gb18030')).toContain('或常');
    expect(detectLegacyEncoding(bytes, ['big5'])).toBe('big5');
    expect(detectLegacyEncoding(bytes, ['gb18030'])).toBe('gb18030');
  });

  it('judges a 64 KB sample of a large file, ignoring a character cut at its end', () => {
    const line = iconv.encode('这是一行用来测试的中文文本。\n', 'gbk');
    const big = Buffer.concat(Array.from({ length: 6000 }, () => line));
    expect(big.length).toBeGreaterThan(64 * 1024);
    expect(detectLegacyEncoding(big.subarray(1), [])).toBe('gb18030');
  });
});

describe('legacy encoding preference', () => {
  it('puts the setting first, then the locale', () => {
    expect(legacyEncodingPreference('gbk', { LANG: 'ja_JP.UTF-8' })).toEqual([
      'gb18030',
      'shift_jis',
      'euc-jp',
    ]);
  });

  it.each([
    [{ LANG: 'zh_CN.UTF-8' }, ['gb18030']],
    [{ LANG: 'zh_TW.UTF-8' }, ['big5']],
    [{ LC_ALL: 'zh_HK.Big5', LANG: 'en_US.UTF-8' }, ['big5']],
    [{ LC_CTYPE: 'ja_JP.eucJP' }, ['euc-jp', 'shift_jis']],
    [{ LANG: 'ko_KR.EUC-KR' }, ['euc-kr']],
    [{ LANG: 'de_DE.UTF-8' }, ['windows-1252']],
  ])('reads the locale %o', (env, expected) => {
    expect(legacyEncodingPreference(undefined, env)).toEqual(expected);
  });
});
