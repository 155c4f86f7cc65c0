import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../config/vitest.ts';

// Files run one at a time: several tests measure memory and timing across processes (a slow
// consumer among 20 healthy ones, a SIGTERM with 100 sockets) and must not compete for the 2 cores
// with each other.
export default mergeConfig(packageConfig(), {
  test: {
    fileParallelism: false,
  },
});
