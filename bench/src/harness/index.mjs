// What every bench script shares: paths, CPU pinning (servers on core 0; wrk, the load clients and
// the harness itself on core 1), prerequisites (Linux with 2 cores, wrk, a fresh build of the
// packages under test), server processes that print `ready`, wrk runs through src/wrk.lua,
// machine-quiet checks from /proc, interleaved rounds, and result files.
export {
  argOf,
  BENCH,
  ensureWrk,
  LOAD_CORE,
  parseFlags,
  pinSelf,
  pinSelfIfPossible,
  prepareServerBench,
  requireLinuxTwoCores,
  ROOT,
  SERVER_CORE,
  turboBuild,
} from './setup.mjs';
export {
  answerCommands,
  freePort,
  ipcClient,
  memoryStats,
  SETTLE_MS,
  socketErrors,
  startCommandedServer,
  startServer,
  startWrk,
  startWrkScenario,
  stopAll,
  stopServer,
  wrk,
  wrkScenario,
  wrkVersion,
} from './processes.mjs';
export {
  alternatingRounds,
  interleavedRounds,
  measured,
  otherLoad,
  pct,
  rotated,
  snapshot,
  waitQuietCores,
  waitQuietMachine,
} from './load.mjs';
export { cpuProfileArgs, readCpuProfile, selfTimes, selfTimeShare, stopProfiled } from './cpuprofile.mjs';
export { fileStamp, int, kb, packageVersion, r2, runMeta, writeResults } from './results.mjs';
export {
  childOrMain,
  medianRows,
  rpsText,
  sideBySideArgs,
  sideBySideRounds,
  timedWrk,
} from './side-by-side.mjs';
