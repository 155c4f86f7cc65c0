// The README's example is run as written, and prints what its `// →` comments promise.
import { testReadme } from '../../../config/test/readme-runner';

testReadme(new URL('..', import.meta.url), { install: 'pnpm add @api/core @api/rate-limit valibot' });
