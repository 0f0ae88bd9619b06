// Module resolution hook (see node20.mjs): the suite's `fs` becomes fs-shim.mjs.
const shim = new URL('./fs-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/');
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs'))
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
