import { packageConfig } from '../../config/vitest.ts';

export default packageConfig();
