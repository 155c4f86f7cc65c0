// The idle-after-ready probe's arithmetic: a function's share of a CPU profile's busy time.
import { describe, expect, it } from 'vitest';
import { selfTimeShare } from '../src/harness/cpuprofile.mjs';
import { isNextTick } from '../src/settle.mjs';

const frame = (functionName, url = '') => ({
  functionName,
  url,
  lineNumber: 0,
  columnNumber: 0,
  scriptId: '0',
});
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('nextTick', 'node:internal/process/task_queues') },
    { id: 4, callFrame: frame('nextTick', 'file:///app/node_modules/some-lib/index.js') },
    { id: 5, callFrame: frame('parserOnIncoming', 'node:_http_server') },
  ],
  samples: [2, 3, 5, 3, 4, 2, 5],
  timeDeltas: [900, 100, 300, 50, 200, 100, 350],
};

describe('selfTimeShare', () => {
  it("counts a function's self time against busy time, leaving idle out", () => {
    // busy = 100 + 300 + 50 + 200 + 350 = 1000 µs; node's nextTick = 150 µs
    expect(selfTimeShare(profile, isNextTick)).toBeCloseTo(0.15, 10);
  });

  it("matches Node's own nextTick only, not a library's function of that name", () => {
    expect(selfTimeShare(profile, (f) => f.functionName === 'nextTick')).toBeCloseTo(0.35, 10);
  });

  it('is NaN for a profile that was idle throughout', () => {
    expect(
      selfTimeShare({ nodes: profile.nodes, samples: [2, 2], timeDeltas: [10, 10] }, isNextTick),
    ).toBeNaN();
  });
});
