// @api/assets as its README teaches: one include() in wire(), files read once, served from memory.
// ASSETS_DIR is the directory to serve (bench/src/assets.mjs writes it).
import { BaseApp, serve } from '@api/core';
import { assets } from '@api/assets';

const directory = process.env.ASSETS_DIR;

export class App extends BaseApp {
  async wire() {
    this.include(assets({ directory }));
  }
}

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });
await serve(app, { port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1', quiet: true });
console.log('ready');
