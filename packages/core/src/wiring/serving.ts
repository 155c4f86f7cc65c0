// Wiring's part of running behind a load balancer: the probe routes and the load monitor.
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
      hidden: true,
      // Unreachable for GET and HEAD (answered before routing); kept for a complete route.
      handle: (ex) => ex.send(200, probeHeaders(), '{"status":"ok"}'),
    });
  return new Health(paths.livePath, paths.readyPath);
}

/** The app's load monitor, if it has `loadShedding`: measuring from now, closed by the exit stack. */
export function compileShedding(wiring: AppWiring): LoadMonitor | undefined {
  const options = wiring.loadShedding;
  if (options === undefined) return undefined;
  const monitor = new LoadMonitor(options, wiring.log);
  wiring.stacks.sync.push(monitor, 'load shedding');
  return monitor;
}
