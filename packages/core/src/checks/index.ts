// The checking kit: one way for core and every package to check what an app wires and to word
// the WiringError (coded, `where: problem. Fix: fix.`), and one way to build a field's 400.
export { installAppPolicy, type AppPolicySpec, type PolicyRoute, type PolicyWiring } from './app-policy';
export { badRequest } from './bad-request';
export { closestName } from './closest-name';
export { checkMethod, checkMethods, ROUTE_METHODS } from './method';
export {
  checkKnownKeys,
  checkOptions,
  isPlainObject,
  type CheckOptionsConfig,
  type OptionsSchema,
} from './options';
