import { wiringError } from '@api/core/extension';
import type { Engine, EngineContext } from './engine';
import type { TaskBackend } from './types';

// Backends are opaque values: what builds their engine stays out of the public types.
const factories = new WeakMap<TaskBackend, (context: EngineContext) => Engine>();

/** Makes a backend value whose engine `create` builds (for this package's backends). */
export function defineBackend(kind: string, create: (context: EngineContext) => Engine): TaskBackend {
  const backend: TaskBackend = Object.freeze({ kind });
  factories.set(backend, create);
  return backend;
}

/** Builds the engine of a backend made by `defineBackend`. */
export function createEngine(backend: TaskBackend, context: EngineContext): Engine {
  const create = factories.get(backend);
  if (!create)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      context.owner,
      'the backend option is not a backend of @api/tasks',
      'pass inProcessBackend() or bullmqBackend({ … }) (or leave it out for in process)',
    );
  return create(context);
}
