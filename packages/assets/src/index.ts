// @api/assets — small static files served from memory: read, hashed and compressed once at wiring,
// answered without filesystem access. Plugs into core through @api/core/extension only.
import './wiring-codes';
export { assets } from './extension/assets';
export {
  assetsDefaults,
  type AssetsFromDirectory,
  type AssetsFromFiles,
  type AssetsOptions,
  type AssetsServing,
} from './options/options';
