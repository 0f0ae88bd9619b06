/**
 * The conversation in Gemini shapes: the system prompt as `systemInstruction`, the model's
 * calls as `functionCall` parts (with the thought signature Gemini gave them, which newer
 * models require back), results as `functionResponse` parts answering by name (and by the
 * call's id, when Gemini gave one: it pairs them when one function is called twice), media as
 * `inlineData`, and consecutive turns of one role joined. Declarations go as
 * `parametersJsonSchema`, which takes the JSON Schema the tools declare as it is.
 */
import type { ChatMessage, ChatTool, ModelRequest } from '../model-types.js';
import {
  argumentsObject,
  type ContentPiece,
  callNamesById,
  contentPieces,
  systemText,
} from '../wire/chat-messages.js';

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { fileUri: string; mimeType?: string };
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  tools?: Array<{
    functionDeclarations: Array<{
      name: string;
      description?: string;
      parametersJsonSchema?: unknown;
    }>;
  }>;
  generationConfig: {
    maxOutputTokens?: number;
    temperature?: number;
    thinkingConfig?: { includeThoughts: boolean; thinkingBudget: number };
  };
}

/**
 * Gemini's documented stand-in for a signature that was lost (a resumed session): it lets a
 * call made earlier go back without the check that would refuse it.
 */
const NO_SIGNATURE = 'skip_thought_signature_validator';

export function toGeminiBody(
  request: ModelRequest,
  maxOutputTokens: number,
  signatures: ReadonlyMap<string, string>,
  givenIds: ReadonlySet<string> = new Set(),
  /** The thinking budget asked for (settings model.thinking), with thought summaries. */
  thinkingBudget?: number,
): GeminiRequestBody {
  const names = callNamesById(request.messages);
  const contents: GeminiContent[] = [];
  for (const message of request.messages) {
    const content = toContent(message, names, { signatures, givenIds });
    if (!content || content.parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === content.role) last.parts.push(...content.parts);
    else contents.push(content);
  }
  const system = systemText(request.messages);
  const declarations = (request.tools ?? []).map((tool) => {
    const fn = (tool as Extract<ChatTool, { type: 'function' }>).function;
    return {
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      ...(fn.parameters ? { parametersJsonSchema: fn.parameters } : {}),
    };
  });
  return {
    contents,
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations }] } : {}),
    generationConfig: {
      maxOutputTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(thinkingBudget ? { thinkingConfig: { includeThoughts: true, thinkingBudget } } : {}),
    },
  };
}

function toContent(
  message: ChatMessage,
  names: ReadonlyMap<string, string>,
  calls: { signatures: ReadonlyMap<string, string>; givenIds: ReadonlySet<string> },
): GeminiContent | undefined {
  const { signatures, givenIds } = calls;
  const idOf = (id: string) => (givenIds.has(id) ? { id } : {});
  switch (message.role) {
    case 'user':
      return { role: 'user', parts: partsOf(contentPieces(message.content)) };
    case 'assistant': {
      const parts = partsOf(contentPieces(message.content));
      let first = true;
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const signature = signatures.get(call.id) ?? (first ? NO_SIGNATURE : undefined);
        first = false;
        parts.push({
          functionCall: {
            ...idOf(call.id),
            name: call.function.name,
            args: argumentsObject(call.function.arguments),
          },
          ...(signature ? { thoughtSignature: signature } : {}),
        });
      }
      return { role: 'model', parts };
    }
    case 'tool': {
      const pieces = contentPieces(message.content);
      const text = pieces.map((piece) => (piece.kind === 'text' ? piece.text : '')).join('\n');
      return {
        role: 'user',
        parts: [
          {
            functionResponse: {
              ...idOf(message.tool_call_id),
              name: names.get(message.tool_call_id) ?? 'unknown_tool',
              response: { output: text },
            },
          },
          ...partsOf(pieces.filter((piece) => piece.kind !== 'text')),
        ],
      };
    }
    default:
      return undefined;
  }
}

function partsOf(pieces: ContentPiece[]): GeminiPart[] {
  return pieces.flatMap((piece): GeminiPart[] => {
    if (piece.kind === 'text') return piece.text ? [{ text: piece.text }] : [];
    if (piece.kind === 'url')
      return [
        {
          fileData: { fileUri: piece.url, ...(piece.mimeType ? { mimeType: piece.mimeType } : {}) },
        },
      ];
    return [{ inlineData: { mimeType: piece.mimeType, data: piece.data } }];
  });
}
