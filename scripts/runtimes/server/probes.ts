// Routes the runtime suite adds beside the demo's own, to observe from outside the process what
// only the server knows: whether a stream's teardown ran, how often a source was pulled, what the
// background queue processed. Nothing here is part of the demo.
import * as v from 'valibot';
import { Endpoint, Struct } from '@api/core';
import { NDJSONStreamingResponse, SSEResponse, StreamingResponse } from '@api/streaming';

/** What the probes saw, served as JSON at GET /_runtime/state. */
export const state = { pulls: 0, teardown: 0, teardownAt: 0, tasks: [] as string[] };

const Tick = Struct('Tick', { n: v.number() });
const State = Struct('RuntimeState', {
  pulls: v.number(),
  teardown: v.number(),
  /** `Date.now()` when the last teardown ran. */
  teardownAt: v.number(),
  tasks: v.array(v.string()),
});

export class StateProbe extends Endpoint('/_runtime/state') {
  get = this.operation({ returns: State }, () => state);
  delete = this.operation({ returns: State }, () => {
    state.pulls = 0;
    state.teardown = 0;
    state.teardownAt = 0;
    return state;
  });
}

/** Two items, then the source fails: the body must be cut (no terminating chunk). */
export class BreakingProbe extends Endpoint('/_runtime/breaking') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* twoThenFail() {
      try {
        yield { n: 1 };
        yield { n: 2 };
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('the source failed mid-stream (expected by the runtime suite)');
      } finally {
        state.teardown++;
      }
    }
    return new NDJSONStreamingResponse({ stream: twoThenFail() });
  });
}

/** One item every 10 ms until the client leaves: its teardown must run when it does. */
export class TickingProbe extends Endpoint('/_runtime/ticking') {
  get = this.operation({ returns: NDJSONStreamingResponse.of(Tick) }, () => {
    async function* ticking() {
      try {
        for (let n = 0; ; n++) {
          yield { n };
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        state.teardown++;
        state.teardownAt = Date.now();
      }
    }
    return new NDJSONStreamingResponse({ stream: ticking() });
  });
}

/** 64 KiB chunks as fast as the client takes them: a client that reads nothing must stop the pulls. */
export class FloodProbe extends Endpoint('/_runtime/flood') {
  get = this.operation({ returns: StreamingResponse.of({ contentType: 'application/octet-stream' }) }, () => {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    async function* flood() {
      try {
        for (;;) {
          state.pulls++;
          yield chunk;
        }
      } finally {
        state.teardown++;
      }
    }
    return new StreamingResponse({ stream: flood() });
  });
}

/** SSE with a 50 ms keepalive and no events: behind a client that reads nothing, pings must not pile up. */
export class QuietEventsProbe extends Endpoint('/_runtime/quiet-events') {
  get = this.operation({ returns: SSEResponse.of(Tick) }, () => {
    async function* lifecycle() {
      try {
        yield (async function* () {
          await new Promise<never>(() => undefined);
        })();
      } finally {
        state.teardown++;
      }
    }
    return new SSEResponse({ stream: lifecycle(), keepalive: 0.05 });
  });
}

/** One 8 MiB event, then nothing, with a 50 ms keepalive: no ping may queue behind it for a stalled client. */
export class BigEventProbe extends Endpoint('/_runtime/big-event') {
  get = this.operation({ returns: SSEResponse.of(v.string()) }, () => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    async function* lifecycle() {
      try {
        yield (async function* () {
          yield big;
          await new Promise<never>(() => undefined);
        })();
      } finally {
        state.teardown++;
        state.teardownAt = Date.now();
      }
    }
    return new SSEResponse({ stream: lifecycle(), keepalive: 0.05 });
  });
}

export const probes = [StateProbe, BreakingProbe, TickingProbe, FloodProbe, QuietEventsProbe, BigEventProbe];
