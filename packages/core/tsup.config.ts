import { packageBuild } from '../../config/tsup';

export default packageBuild({
  entry: { index: 'src/index.ts', 'extension/index': 'src/extension.ts' },
});
