import { packageConfig } from '../../config/vitest';

export default packageConfig();
