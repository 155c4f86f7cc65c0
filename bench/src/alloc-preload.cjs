// Preloaded into a server by src/alloc.mjs: on SIGUSR2, alternately "mark" (a full GC, then the
// heap in use) and "report" (the heap in use and the young-generation collections since the mark).
// A major GC's entry (the forced one) is not counted: only scavenges would spoil the window.
'use strict';
const { PerformanceObserver, constants } = require('node:perf_hooks');

let scavenges = 0;
let marked = false;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) scavenges++;
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  marked = !marked;
  if (marked) {
    global.gc();
    // After the forced GC's own entry is delivered.
    setTimeout(() => {
      scavenges = 0;
      process.stdout.write(`ALLOC mark ${process.memoryUsage().heapUsed}\n`);
    }, 20);
  } else process.stdout.write(`ALLOC report ${process.memoryUsage().heapUsed} ${scavenges}\n`);
});
