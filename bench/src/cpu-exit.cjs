// Preloaded into the tsc processes of typecheck.mjs: prints the process's CPU seconds (user +
// system) on exit, a figure a busy machine disturbs far less than tsc's wall-clock "Check time".
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`CPU seconds: ${((user + system) / 1e6).toFixed(2)}\n`);
});
