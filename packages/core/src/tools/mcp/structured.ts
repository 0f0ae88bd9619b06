/**
 * MCP `structuredContent` next to a result's content: most servers send the same data
 * twice (a JSON text block and the object, or an image and an object holding its base64),
 * so the object is added for the model only when it says something the content does not,
 * and never with base64 data spelled out as text.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The structured content as text for the model, or undefined when the content carries it. */
export function structuredContentText(result: CallToolResult): string | undefined {
  const structured = result.structuredContent;
  if (structured === undefined || structured === null) return undefined;
  const carried = carriedValues(result);
  if (leaves(structured).every((leaf) => isCarried(leaf, carried))) return undefined;
  const shown = JSON.stringify(
    structured,
    (_key, value: unknown) =>
      typeof value === 'string' && carried.data.has(value)
        ? `[${Math.floor((value.length * 3) / 4)} bytes of data, attached above]`
        : typeof value === 'string' && looksLikeBase64(value)
          ? `[${Math.floor((value.length * 3) / 4)} bytes of base64 data left out]`
          : value,
    2,
  );
  return `Structured content:\n${shown}`;
}

interface Carried {
  text: string;
  data: Set<string>;
}

function carriedValues(result: CallToolResult): Carried {
  const texts: string[] = [];
  const data = new Set<string>();
  for (const item of result.content ?? []) {
    const record = item as Record<string, unknown>;
    for (const key of ['type', 'mimeType', 'uri', 'name', 'title', 'description', 'text']) {
      if (typeof record[key] === 'string') texts.push(record[key] as string);
    }
    if (typeof record.data === 'string') data.add(record.data);
    const resource = record.resource as Record<string, unknown> | undefined;
    if (resource) {
      for (const key of ['uri', 'mimeType', 'text']) {
        if (typeof resource[key] === 'string') texts.push(resource[key] as string);
      }
      if (typeof resource.blob === 'string') data.add(resource.blob);
    }
  }
  return { text: texts.join('\n'), data };
}

function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leaves);
  return [value];
}

function isCarried(leaf: unknown, carried: Carried): boolean {
  if (leaf === null || leaf === undefined || leaf === '') return true;
  if (typeof leaf === 'string') return carried.data.has(leaf) || carried.text.includes(leaf);
  if (typeof leaf === 'number' || typeof leaf === 'boolean')
    return carried.text.includes(String(leaf)) || carried.text.includes(JSON.stringify(leaf));
  return false;
}

function looksLikeBase64(value: string): boolean {
  return value.length > 512 && /^[A-Za-z0-9+/]+={0,2}$/.test(value.slice(0, 4096));
}
