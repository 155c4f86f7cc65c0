import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../config/vitest.ts';

// The demo's test files all load the whole app from source: let a worker keep its module cache
// between files (no per-file isolation), which halves the suite's time on a 2-core machine.
export default mergeConfig(packageConfig(), { test: { isolate: false } });
