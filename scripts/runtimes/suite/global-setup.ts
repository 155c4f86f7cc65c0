import type { TestProject } from 'vitest/node';
// @ts-expect-error -- a plain .mjs module shared with run.mjs
import { startServer, targets } from '../targets.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    url: string;
    target: string;
    runtime: string;
  }
}

interface Target {
  readonly name: string;
  readonly runtime: string;
}

/** Starts the server of TARGET once for every file of the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = process.env.TARGET ?? 'node20';
  const target = (targets as Target[]).find((t) => t.name === name);
  if (!target) throw new Error(`unknown TARGET ${name}`);
  const server = (await startServer(target)) as { url: string; stop: () => Promise<void> };
  project.provide('url', server.url);
  project.provide('target', target.name);
  project.provide('runtime', target.runtime);
  return () => server.stop();
}
