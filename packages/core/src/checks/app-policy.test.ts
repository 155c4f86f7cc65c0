import { describe, expect, it } from 'vitest';
import { WiringError } from '../contract/wiring-error';
import { installAppPolicy, type PolicyRoute } from './app-policy';

type Contribution = { readonly from: string };

function fakeWiring() {
  const contributors: ((route: PolicyRoute) => Contribution | undefined)[] = [];
  return {
    appName: 'App',
    contributors,
    addContributor(contributor: (route: PolicyRoute) => Contribution | undefined) {
      contributors.push(contributor);
    },
  };
}

const OFF = Object.freeze({ off: true });
const route = (mountOptions: Record<string, unknown>): PolicyRoute => ({
  owner: 'Widgets',
  operation: 'readOne',
  mountOptions,
});

function install(wiring: ReturnType<typeof fakeWiring>, seen: string[] = []): void {
  installAppPolicy(wiring, {
    extension: 'shield',
    duplicate: 'a shield is already installed',
    duplicateFix: 'include shield() once',
    override: {
      option: 'shield',
      accepts: (v) => v === OFF,
      expected: 'Shield.OFF',
      fix: 'pass { shield: Shield.OFF }',
    },
    contribute: (where) => {
      seen.push(where);
      return () => ({ from: 'default' });
    },
  });
}

function thrown(fn: () => unknown): WiringError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  }
  throw new Error('did not throw');
}

describe('installAppPolicy', () => {
  it('contributes the default where a mount has no override, nothing where it has one', () => {
    const wiring = fakeWiring();
    const seen: string[] = [];
    install(wiring, seen);
    expect(seen).toEqual(['App.include(shield())']);
    const [contributor] = wiring.contributors;
    expect(contributor!(route({}))).toEqual({ from: 'default' });
    expect(contributor!(route({ shield: OFF }))).toBeUndefined();
  });

  it('refuses a second install in one app (another app may install its own)', () => {
    const wiring = fakeWiring();
    install(wiring);
    const e = thrown(() => install(wiring));
    expect([e.code, e.where, e.problem, e.fix]).toEqual([
      'API_WIRING_DUPLICATE',
      'App.include(shield())',
      'a shield is already installed',
      'include shield() once',
    ]);
    expect(() => install(fakeWiring())).not.toThrow();
  });

  it('refuses a value under the option that the package did not build, at the route', () => {
    const wiring = fakeWiring();
    install(wiring);
    const e = thrown(() => wiring.contributors[0]!(route({ shield: { off: true } })));
    expect(e.message).toBe(
      'Widgets.readOne: the "shield" mount option must be Shield.OFF, got an object. Fix: pass { shield: Shield.OFF }.',
    );
    expect(e.code).toBe('API_WIRING_MOUNT_OPTION');
  });

  it('without an override option, contributes to every route', () => {
    const wiring = fakeWiring();
    installAppPolicy(wiring, {
      extension: 'tracing',
      duplicate: 'tracing is already included',
      duplicateFix: 'include tracing() once',
      contribute: () => () => ({ from: 'tracing' }),
    });
    expect(wiring.contributors[0]!(route({ tracing: 1 }))).toEqual({ from: 'tracing' });
  });
});
