import { fileURLToPath } from 'node:url';
import { packageConfig } from '../../config/vitest';

// examples/ import the package by its name, as code pasted into an app does.
export default packageConfig({
  alias: { '@api/tasks': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
});
