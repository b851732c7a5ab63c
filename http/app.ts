import { Hono } from 'hono';
import type { Runtime } from '../composition.ts';

// Placeholder until the HTTP platform lands.
export function createHttpApp(_runtime: Runtime): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  return app;
}
