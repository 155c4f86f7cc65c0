// Wiring's part of running behind a load balancer: the probe routes and the load monitor.
import * as v from 'valibot';
import type { RouteMeta } from '../contract/meta';
import { Health, probeHeaders } from '../runtime/health';
import { LoadMonitor } from '../runtime/load-monitor';
import type { AppWiring } from './app-wiring';

/**
 * The app's health answers, if it has `health`. Their paths are added as hidden routes too, so a
 * route mounted at one of them is a duplicate-route `WiringError` and another method gets `405`;
 * `GET` and `HEAD` never reach those routes (the runtime answers probes before routing).
 */
export function compileHealth(wiring: AppWiring): Health | undefined {
  const paths = wiring.health;
  if (paths === undefined) return undefined;
  for (const [path, operation] of [
    [paths.livePath, 'liveness'],
    [paths.readyPath, 'readiness'],
  ] as const)
    wiring.addExtensionRoute('custom', {
      method: 'GET',
      path,
      literal: true,
      owner: 'health',
      operation,
      // Listed in documents only when asked (`health.document`), with what a probe answers.
      hidden: !paths.document,
      classMeta: operation === 'liveness' ? LIVENESS_DOC : READINESS_DOC,
      // Unreachable for GET and HEAD (answered before routing); kept for a complete route.
      handle: (ex) => ex.send(200, probeHeaders(), '{"status":"ok"}'),
    });
  return new Health(paths.livePath, paths.readyPath);
}

/** A probe's JSON answer, as documents show it. */
const ProbeBody = v.object({ status: v.string() });
const HEALTH_TAG = 'health';
const LIVENESS_DOC: RouteMeta = {
  tags: [HEALTH_TAG],
  summary: 'Liveness probe',
  description: '`200` while the process answers at all, starting and draining included.',
  responses: { 200: { model: ProbeBody, description: 'Alive: `{"status":"ok"}`' } },
};
const READINESS_DOC: RouteMeta = {
  tags: [HEALTH_TAG],
  summary: 'Readiness probe',
  description: '`200` while the app serves; `503` while it starts and from the moment it begins shutting down.',
  responses: {
    200: { model: ProbeBody, description: 'Ready: `{"status":"ok"}`' },
    503: {
      model: ProbeBody,
      description: 'Not ready: `{"status":"starting"}` or `{"status":"draining"}`',
    },
  },
};

/** The app's load monitor, if it has `loadShedding`: measuring from now, closed by the exit stack. */
export function compileShedding(wiring: AppWiring): LoadMonitor | undefined {
  const options = wiring.loadShedding;
  if (options === undefined) return undefined;
  const monitor = new LoadMonitor(options, wiring.log);
  wiring.stacks.sync.push(monitor, 'load shedding');
  return monitor;
}
