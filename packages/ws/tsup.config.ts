import { packageBuild } from '../../config/tsup';

// `@internal` members (the raw `ws` socket behind a typed WebSocket, a Subscriber's queue) stay
// out of the published types, so users need no @types/ws.
export default packageBuild({ dts: { compilerOptions: { stripInternal: true } } });
