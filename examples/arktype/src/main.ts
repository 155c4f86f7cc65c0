// `pnpm --filter @api/example-arktype start`: the ArkType widget API on http://127.0.0.1:8000 (docs at /docs).
import { serve } from '@api/core';
import { ArkTypeApp } from './app';

await serve(new ArkTypeApp(), { port: Number(process.env.PORT ?? 8000), host: '127.0.0.1' });
