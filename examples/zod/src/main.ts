// `pnpm --filter @api/example-zod start`: the zod widget API on http://127.0.0.1:8000 (docs at /docs).
import { serve } from '@api/core';
import { ZodApp } from './app';

await serve(new ZodApp(), { port: Number(process.env.PORT ?? 8000), host: '127.0.0.1' });
