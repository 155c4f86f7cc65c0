// The paired phase's arithmetic: a round's figures for one server, from what /proc said before and
// after its turns (CPU ns from schedstat, syscalls and ticks from /proc/<pid>/io and stat).
import { describe, expect, it } from 'vitest';
import { roundSample } from '../src/paired.mjs';

const usage = (u) => ({
  utime: 0,
  stime: 0,
  minflt: 0,
  rchar: 0,
  wchar: 0,
  syscr: 0,
  syscw: 0,
  vcsw: 0,
  ivcsw: 0,
  ...u,
});

describe('roundSample', () => {
  const before = { ns: 5e9, usage: usage({ utime: 100, stime: 50, syscw: 1000, syscr: 2000, wchar: 1e5 }) };
  // 20,000 responses (one writev each), 1 s of CPU in 1.02 s of turns, 60 user and 40 system ticks.
  const after = {
    ns: 5e9 + 1e9,
    usage: usage({
      utime: 160,
      stime: 90,
      syscw: 21_000,
      syscr: 22_400,
      wchar: 1e5 + 20_000 * 226,
      vcsw: 300,
      ivcsw: 100,
    }),
  };
  const other = { core0: 0.01, core1: 0.02, irq0: 0.2, irq1: 0.05 };

  it('counts responses by write syscalls and divides CPU time, split by tick shares', () => {
    const s = roundSample({ server: 'api', scenario: 'info', round: 3, before, after, wallMs: 1020, other });
    expect(s).toMatchObject({ server: 'api', scenario: 'info', round: 3, requests: 20_000, seconds: 1.02 });
    expect(s.rps).toBeCloseTo(20_000 / 1.02, 6);
    expect(s.cpuUsPerReq).toBe(50);
    expect(s.userUsPerReq).toBeCloseTo(30, 9);
    expect(s.sysUsPerReq).toBeCloseTo(20, 9);
    expect(s.readCallsPerReq).toBe(1.02);
    expect(s.writeCallsPerReq).toBe(1);
    expect(s.bytesOutPerReq).toBe(226);
    expect(s.switchesPerReq).toBe(0.02);
    expect(s.serverCpuUtil).toBeCloseTo(1000 / 1020, 9);
    expect([s.otherCore0, s.otherCore1, s.irqCore0, s.irqCore1]).toEqual([0.01, 0.02, 0.2, 0.05]);
    expect(Number.isNaN(s.latencyUs.p50)).toBe(true);
  });

  it("scales the count by wrk's responses per write syscall", () => {
    // wrk counted 99 responses per 100 writes over the phase: every round's count follows.
    const s = roundSample({
      server: 'raw',
      scenario: 'info',
      round: 0,
      before,
      after,
      wallMs: 1000,
      perWrite: 0.99,
    });
    expect(s.requests).toBeCloseTo(19_800, 6);
    expect(s.cpuUsPerReq).toBeCloseTo(1e6 / 19_800, 9);
    expect(s.writeCallsPerReq).toBeCloseTo(20_000 / 19_800, 9);
  });

  it('has no user/system split when no tick passed', () => {
    const still = { ns: before.ns + 1e6, usage: usage({ ...before.usage, syscw: 1010 }) };
    const s = roundSample({ server: 'api', scenario: 'info', round: 0, before, after: still, wallMs: 20 });
    expect(s.cpuUsPerReq).toBe(100);
    expect(Number.isNaN(s.userUsPerReq)).toBe(true);
    expect(Number.isNaN(s.sysUsPerReq)).toBe(true);
  });
});
