/**
 * Which legacy encoding a file that is not UTF-8 is in. Every candidate decodes the bytes,
 * and the decoding that reads most like real text of its language wins: frequent
 * characters score high, characters of the wrong script or rare blocks low, invalid
 * sequences and private-use characters count against. A statistical detector alone guesses
 * worst on the short texts (one comment in a source file) that matter most here. When two
 * decodings read about as well, the person's setting, then the system locale, decide.
 */
import { COMMON_HANGUL, COMMON_HANS, COMMON_HANT, COMMON_KANJI } from './common-characters.js';
import { chardet, iconv } from './encoding-libraries.js';

type Language = 'zh-Hans' | 'zh-Hant' | 'ja' | 'ko' | 'latin' | 'other';

/** The legacy encodings considered, each with the language it is written in. */
const CANDIDATES: readonly { encoding: string; language: Language }[] = [
  { encoding: 'gb18030', language: 'zh-Hans' },
  { encoding: 'big5', language: 'zh-Hant' },
  { encoding: 'shift_jis', language: 'ja' },
  { encoding: 'euc-jp', language: 'ja' },
  { encoding: 'euc-kr', language: 'ko' },
  { encoding: 'windows-1252', language: 'latin' },
];

/** Names people use for the candidates, mapped to the name toolhost decodes with. */
const ENCODING_ALIASES: Readonly<Record<string, string>> = {
  gbk: 'gb18030',
  gb2312: 'gb18030',
  gb18030: 'gb18030',
  cp936: 'gb18030',
  big5: 'big5',
  cp950: 'big5',
  'big5-hkscs': 'big5',
  shift_jis: 'shift_jis',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  cp932: 'shift_jis',
  'windows-31j': 'shift_jis',
  'euc-jp': 'euc-jp',
  eucjp: 'euc-jp',
  'euc-kr': 'euc-kr',
  euckr: 'euc-kr',
  cp949: 'euc-kr',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  latin1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
};

/** The setting values accepted for `files.legacyEncoding`. */
export const LEGACY_ENCODING_NAMES: readonly string[] = Object.keys(ENCODING_ALIASES);

/** Decodings closer than this (points per character, out of 3) are a tie. */
const TIE_MARGIN = 0.35;
/** Bytes judged: enough for any verdict, and the cost stays flat for big files. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * The encodings to prefer on a tie, most preferred first: the setting, then the system
 * locale (LC_ALL, LC_CTYPE, LANG, else the runtime's locale).
 */
export function legacyEncodingPreference(
  setting: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const preferred: string[] = [];
  const fromSetting = setting ? ENCODING_ALIASES[setting.toLowerCase()] : undefined;
  if (fromSetting) preferred.push(fromSetting);
  for (const encoding of localeEncodings(systemLocale(env))) {
    if (!preferred.includes(encoding)) preferred.push(encoding);
  }
  return preferred;
}

function systemLocale(env: NodeJS.ProcessEnv): string {
  const fromEnv = [env.LC_ALL, env.LC_CTYPE, env.LANG].find(
    (value) => value && value !== 'C' && value !== 'POSIX' && !value.startsWith('C.'),
  );
  return fromEnv ?? Intl.DateTimeFormat().resolvedOptions().locale;
}

/** `zh_CN.GBK`, `ja_JP.eucJP`, `zh-TW`... to the legacy encodings of that locale. */
function localeEncodings(locale: string): string[] {
  const [tag = '', codeset = ''] = locale.toLowerCase().split('.');
  const fromCodeset = ENCODING_ALIASES[codeset.replace(/@.*$/, '')];
  const [language = '', region = ''] = tag.split(/[-_]/);
  const byLanguage: string[] =
    language === 'zh'
      ? ['tw', 'hk', 'mo', 'hant'].includes(region)
        ? ['big5']
        : ['gb18030']
      : language === 'ja'
        ? ['shift_jis', 'euc-jp']
        : language === 'ko'
          ? ['euc-kr']
          : language
            ? ['windows-1252']
            : [];
  return fromCodeset ? [fromCodeset, ...byLanguage.filter((e) => e !== fromCodeset)] : byLanguage;
}

/** The encoding of bytes that are not UTF-8 and carry no BOM. */
export function detectLegacyEncoding(bytes: Buffer, preferred: readonly string[] = []): string {
  const truncated = bytes.length > SAMPLE_BYTES;
  const sample = truncated ? bytes.subarray(0, SAMPLE_BYTES) : bytes;
  const candidates: { encoding: string; language: Language }[] = [...CANDIDATES];
  // A detector's guess outside the usual candidates (Cyrillic, Greek...) is judged too.
  const guess = chardetGuess(sample);
  if (guess && !candidates.some((c) => c.encoding === guess)) {
    candidates.push({ encoding: guess, language: 'other' });
  }
  const scored = candidates.map((candidate) => ({
    ...candidate,
    score: plausibility(iconv().decode(sample, candidate.encoding), candidate.language, truncated),
  }));
  const best = Math.max(...scored.map((c) => c.score));
  const close = scored.filter((c) => c.score >= best - TIE_MARGIN);
  const rank = (encoding: string) => {
    const index = preferred.indexOf(encoding);
    return index === -1 ? preferred.length : index;
  };
  // On a tie: the preferred encodings in order, then the usual candidates over a
  // detector's other guess, then the best score, then the list's order.
  const other = (c: { language: Language }) => (c.language === 'other' ? 1 : 0);
  close.sort(
    (a, b) => rank(a.encoding) - rank(b.encoding) || other(a) - other(b) || b.score - a.score,
  );
  return close[0]?.encoding ?? 'windows-1252';
}

function chardetGuess(sample: Buffer): string | undefined {
  const detected = chardet().detect(sample);
  if (typeof detected !== 'string') return undefined;
  const name = detected.toLowerCase();
  const known = ENCODING_ALIASES[name];
  if (known) return known;
  return iconv().encodingExists(name) && !name.startsWith('utf') ? name : undefined;
}

/** Average points per non-ASCII character of a decoding: -3 (garbage) to 3 (fluent). */
function plausibility(text: string, language: Language, truncated: boolean): number {
  const chars = Array.from(text);
  // A sample cut inside a character ends in one invalid sequence that is not the file's.
  if (truncated && chars[chars.length - 1] === '\ufffd') chars.pop();
  let total = 0;
  let counted = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch.charCodeAt(0) < 0x80) continue;
    total += characterPoints(ch, language, chars[i - 1], chars[i + 1]);
    counted++;
  }
  return counted === 0 ? 0 : total / counted;
}

const ASCII_LETTER = /^[A-Za-z]$/;
const LETTER = /^\p{L}$/u;
const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const PUNCTUATION = /^\p{P}$/u;
const LATIN_LETTER = /^\p{Script=Latin}$/u;
const COMMON_LATIN_SYMBOLS = new Set('“”‘’–—…•€£¥§©®°±·«»¿¡½¼¾²³µ™\u00a0');
/** Letters of windows-1252 that real text seldom has, and wrong decodings often produce. */
const RARE_LATIN = new Set('ÐðÞþƒªº');

function characterPoints(
  ch: string,
  language: Language,
  previous: string | undefined,
  next: string | undefined,
): number {
  const cp = ch.codePointAt(0)!;
  if (cp === 0xfffd || (cp >= 0x80 && cp <= 0x9f)) return -3; // invalid, or C1 control
  if (cp >= 0xe000 && cp <= 0xf8ff) return -3; // private use: user-defined, never text
  const cjkPunctuation = (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff01 && cp <= 0xff5e);
  const ideograph = cp >= 0x4e00 && cp <= 0x9fff;
  switch (language) {
    case 'zh-Hans':
      if (COMMON_HANS.has(ch)) return 3;
      if (cjkPunctuation) return 2;
      return ideograph ? 1 : 0;
    case 'zh-Hant':
      if (COMMON_HANT.has(ch)) return 3;
      if (cjkPunctuation) return 2;
      return ideograph || (cp >= 0x3100 && cp <= 0x312f) ? 1 : 0;
    case 'ja':
      if (cp >= 0x3041 && cp <= 0x309f) return 3; // hiragana
      if (cp >= 0x30a0 && cp <= 0x30ff) return 2.5; // katakana
      if (COMMON_KANJI.has(ch)) return 3;
      if (cjkPunctuation) return 2;
      return ideograph ? 1 : 0;
    case 'ko':
      if (COMMON_HANGUL.has(ch)) return 3;
      if (cp >= 0xac00 && cp <= 0xd7a3) return 1.5;
      if (cjkPunctuation) return 2;
      return ideograph ? 0.5 : 0;
    case 'latin': {
      if (COMMON_LATIN_SYMBOLS.has(ch)) return 2;
      if (!LATIN_LETTER.test(ch) || RARE_LATIN.has(ch)) return 0;
      // Accented letters sit inside words: next to plain letters, not in runs of their own.
      const inWord = ASCII_LETTER.test(previous ?? '') || ASCII_LETTER.test(next ?? '');
      return inWord ? 3 : 1;
    }
    case 'other': {
      if (!LETTER.test(ch)) return PUNCTUATION.test(ch) ? 1 : 0;
      // Capitals inside a word (ДњИе) are what wrong decodings look like.
      if (UPPER.test(ch) && LOWER.test(previous ?? '')) return 0;
      return LETTER.test(previous ?? '') || LETTER.test(next ?? '') ? 2 : 1;
    }
  }
}
