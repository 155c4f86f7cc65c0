import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../config/vitest';

// The testing helper (to move into @api/testing) and the demo examples carry their own tests.
export default mergeConfig(packageConfig(), {
  test: { include: ['testing-helper/**/*.test.ts', 'examples/**/*.test.ts'] },
});
