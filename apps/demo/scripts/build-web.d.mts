/** The pages: entry name → its source under web/. */
export declare const PAGES: Readonly<Record<string, string>>;
/** Builds the page bundles into public/; with `write: false`, returns them without writing. */
export declare function buildWeb(options?: { readonly write?: boolean }): Promise<{
  /** Output path → bundle text (empty when written). */
  readonly files: Map<string, string>;
  /** The modules the bundles hold, relative to apps/demo. */
  readonly inputs: string[];
}>;
