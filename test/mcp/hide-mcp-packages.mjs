// Loaded with `node --import` (after tsx, where tsx is loaded): resolves every @modelcontextprotocol/* package as
// Node does one that is not installed (ERR_MODULE_NOT_FOUND), so a test sees what a merchant
// who never installed the optional peer dependency sees.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@modelcontextprotocol/')) {
    const error = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return nextResolve(specifier, context);
}
`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
