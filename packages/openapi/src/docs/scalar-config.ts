import type { WiringErrorCode } from '@api/core/extension';
/** Scalar's colour presets (as of 1.72.1). */
export const SCALAR_THEMES = [
  'default',
  'alternate',
  'moon',
  'purple',
  'solarized',
  'bluePlanet',
  'deepSpace',
  'saturn',
  'kepler',
  'elysiajs',
  'fastify',
  'mars',
  'laserwave',
  'none',
] as const;

/** A Scalar colour preset. */
export type ScalarTheme = (typeof SCALAR_THEMES)[number];

/**
 * The typed subset of Scalar's configuration the docs page accepts (the spec's `DocsUIConfig`).
 * Only the fields you set are sent; the offline keys are always added.
 */
export interface ScalarConfig {
  /** A colour preset. */
  readonly theme?: ScalarTheme;
  /** `modern` (default) or `classic`. */
  readonly layout?: 'modern' | 'classic';
  /** Start in dark mode. */
  readonly darkMode?: boolean;
  /** Hide the models section. */
  readonly hideModels?: boolean;
  /** Hide the search bar. */
  readonly hideSearch?: boolean;
  /** Hide the document download button (sent as `documentDownloadType: 'none'`). */
  readonly hideDownloadButton?: boolean;
  /** Hide the "Test request" button. */
  readonly hideTestRequestButton?: boolean;
  /** Hide the dark-mode toggle. */
  readonly hideDarkModeToggle?: boolean;
  /** Show the sidebar (default true). */
  readonly showSidebar?: boolean;
}

const BOOLEAN_FIELDS = [
  'darkMode',
  'hideModels',
  'hideSearch',
  'hideDownloadButton',
  'hideTestRequestButton',
  'hideDarkModeToggle',
  'showSidebar',
] as const;

/**
 * Sent on every generated page: no font CDN, no telemetry, no AI agent or MCP, no developer
 * toolbar, and an explicit empty `proxyUrl` (unset, Scalar routes "Test request" through
 * proxy.scalar.com).
 */
export const OFFLINE_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  proxyUrl: '',
} as const;

/** Returns a problem description for a bad `scalarConfig`, or undefined when it is fine. */
export function checkScalarConfig(
  config: unknown,
): { code: WiringErrorCode; problem: string; fix: string } | undefined {
  if (config === undefined) return undefined;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return {
      code: 'API_WIRING_INVALID_ARGUMENT',
      problem: 'scalarConfig is not an object',
      fix: 'pass { theme, layout, darkMode, … } or leave it out',
    };
  }
  const known = new Set<string>(['theme', 'layout', ...BOOLEAN_FIELDS]);
  for (const [key, value] of Object.entries(config)) {
    if (!known.has(key)) {
      return {
        code: 'API_WIRING_UNKNOWN_OPTION',
        problem: `scalarConfig has an unknown field "${key}"`,
        fix: `use only ${[...known].join(', ')}`,
      };
    }
    if (value === undefined) continue;
    if (key === 'theme' && !(SCALAR_THEMES as readonly unknown[]).includes(value)) {
      return {
        code: 'API_WIRING_INVALID_ARGUMENT',
        problem: `scalarConfig.theme ${JSON.stringify(value)} is not a Scalar theme`,
        fix: `use one of ${SCALAR_THEMES.join(', ')}`,
      };
    }
    if (key === 'layout' && value !== 'modern' && value !== 'classic') {
      return {
        code: 'API_WIRING_INVALID_ARGUMENT',
        problem: `scalarConfig.layout ${JSON.stringify(value)} is not a Scalar layout`,
        fix: "use 'modern' or 'classic'",
      };
    }
    if ((BOOLEAN_FIELDS as readonly string[]).includes(key) && typeof value !== 'boolean') {
      return {
        code: 'API_WIRING_INVALID_ARGUMENT',
        problem: `scalarConfig.${key} is not a boolean`,
        fix: `set ${key}: true or false`,
      };
    }
  }
  return undefined;
}

/** The configuration a generated page sends: the fields that were set, plus the offline keys. */
export function scalarConfiguration(config: ScalarConfig = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined && key !== 'hideDownloadButton') out[key] = value;
  }
  return {
    ...out,
    ...OFFLINE_CONFIGURATION,
    documentDownloadType: config.hideDownloadButton === true ? 'none' : 'json',
  };
}
