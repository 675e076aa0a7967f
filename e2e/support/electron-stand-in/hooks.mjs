// Module resolution hook: `electron` -> the stand-in next to this file.
const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: standIn, shortCircuit: true };
  return nextResolve(specifier, context);
}
