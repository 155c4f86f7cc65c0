// Result files (results/<name>-<stamp>.{json,md}), versions, and the number formats of reports.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { cpuModel } from '../sys.mjs';
import { BENCH } from './setup.mjs';

/** `2026-11-24T02:32:18.123Z` → `2026-11-24T02-32-18Z` (file names of results). */
export const fileStamp = (iso) => iso.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/**
 * The head of a result's `meta`: when, on what Node and CPU, and the load average before the run
 * (`loadBefore`, from `os.loadavg()`) and now.
 */
export function runMeta(loadBefore) {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpuModel(),
    loadavgBefore: loadBefore,
    loadavgAfter: os.loadavg(),
  };
}

/** Writes `<base>.json` (indented, newline-terminated) and `<base>.md`, creating the folder. */
export function writeResults(base, json, md) {
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(`${base}.md`, md);
}

/** The installed version of package `name` (resolved from `from`, default bench/), or `n/a`. */
export function packageVersion(name, from = BENCH) {
  try {
    return JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'n/a';
  }
}

/** Two decimals, or `n/a`. */
export const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
/** A rounded integer with thousands separators, or `n/a`. */
export const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/** Bytes → KiB with two decimals. */
export const kb = (bytes) => (bytes / 1024).toFixed(2);
