import { fileURLToPath } from 'node:url';
import { packageConfig } from '../../config/vitest.ts';

// Core's wire-level tests drive apps through @api/testing's sources (no package dependency: that would be a cycle).
export default packageConfig({
  alias: { '@api/testing': fileURLToPath(new URL('../testing/src/index.ts', import.meta.url)) },
});
