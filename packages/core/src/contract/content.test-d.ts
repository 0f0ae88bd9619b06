/**
 * toolhost's content types must be structurally those of the Gemini API. These are type
 * tests: `npm test` runs them through tsc (`npm run typetest`), so a field whose name or
 * type drifts from @google/genai's fails the suite, not only `npm run lint`.
 */
import type * as genai from '@google/genai';
import { describe, expectTypeOf, it } from 'vitest';
import type * as ours from './content.js';

/** Our fields that Gemini's type does not have (must be none). */
type Unknown<Ours, Theirs> = Exclude<keyof Ours, keyof Theirs>;

describe('content types match the Gemini API', () => {
  it('declare no field the Gemini type lacks', () => {
    expectTypeOf<Unknown<ours.Part, genai.Part>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<ours.Blob, genai.Blob>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<ours.FileData, genai.FileData>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<ours.FunctionCall, genai.FunctionCall>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<ours.FunctionResponse, genai.FunctionResponse>>().toEqualTypeOf<never>();
    expectTypeOf<
      Unknown<ours.FunctionDeclaration, genai.FunctionDeclaration>
    >().toEqualTypeOf<never>();
  });

  it('give each field the type Gemini gives it', () => {
    expectTypeOf<ours.Part['text']>().toEqualTypeOf<genai.Part['text']>();
    expectTypeOf<ours.Part['thought']>().toEqualTypeOf<genai.Part['thought']>();
    expectTypeOf<ours.Blob>().toEqualTypeOf<Pick<genai.Blob, keyof ours.Blob>>();
    expectTypeOf<ours.FileData>().toEqualTypeOf<Pick<genai.FileData, keyof ours.FileData>>();
    expectTypeOf<ours.FunctionCall>().toEqualTypeOf<
      Pick<genai.FunctionCall, keyof ours.FunctionCall>
    >();
    expectTypeOf<ours.FunctionResponse['id']>().toEqualTypeOf<genai.FunctionResponse['id']>();
    expectTypeOf<ours.FunctionResponse['name']>().toEqualTypeOf<genai.FunctionResponse['name']>();
    expectTypeOf<ours.FunctionDeclaration['name']>().toEqualTypeOf<
      genai.FunctionDeclaration['name']
    >();
  });

  it('pass what toolhost produces to the Gemini API', () => {
    expectTypeOf<ours.Part>().toExtend<genai.Part>();
    expectTypeOf<ours.PartListUnion>().toExtend<genai.PartListUnion>();
    expectTypeOf<ours.FunctionCall>().toExtend<genai.FunctionCall>();
    expectTypeOf<ours.FunctionResponse>().toExtend<genai.FunctionResponse>();
    expectTypeOf<
      Omit<ours.FunctionDeclaration, 'parameters'>
    >().toExtend<genai.FunctionDeclaration>();
  });

  it("hand the Gemini API's calls and blobs to the scheduler", () => {
    expectTypeOf<genai.FunctionCall>().toExtend<ours.FunctionCall>();
    expectTypeOf<genai.Blob>().toExtend<ours.Blob>();
    expectTypeOf<genai.FileData>().toExtend<ours.FileData>();
  });
});
