import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../config/vitest';

// The testing helper (to move into @api/testing) and the demo examples carry their own tests
// (examples/demo/browser is for apps/demo and not run here). Files run one at a time: several
// tests measure memory and timing across processes (a slow consumer among 20 healthy ones, a
// SIGTERM with 100 sockets) and must not compete for the 2 cores with each other.
export default mergeConfig(packageConfig(), {
  test: {
    include: ['testing-helper/**/*.test.ts', 'examples/demo/*.test.ts'],
    fileParallelism: false,
  },
});
