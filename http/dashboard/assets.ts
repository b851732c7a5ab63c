import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Files the pages load, all from this server (no CDN): read once at start. */
function staticFiles(): Map<string, { body: Uint8Array; type: string }> {
  const own = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return new Map([
    ['htmx.min.js', { body: readFileSync(require.resolve('htmx.org/dist/htmx.min.js')), type: 'text/javascript; charset=utf-8' }],
    ['dashboard.js', { body: own('dashboard.js'), type: 'text/javascript; charset=utf-8' }],
    ['dashboard.css', { body: own('dashboard.css'), type: 'text/css; charset=utf-8' }],
  ]);
}

/**
 * Indic fonts (Debian fonts-noto-core, installed by scripts/setup.sh), served so that Hindi, Marathi, Tamil and
 * Telugu render on a machine that has none; read on first use. A missing file is 404 and the browser falls back.
 */
const FONT_DIRECTORY = '/usr/share/fonts/truetype/noto';
const FONTS = new Set(['NotoSansDevanagari-Regular.ttf', 'NotoSansTamil-Regular.ttf', 'NotoSansTelugu-Regular.ttf']);

export function assetRoutes() {
  const files = staticFiles();
  const fonts = new Map<string, Uint8Array | null>();
  const router = new Hono();
  router.get('/assets/fonts/:file', (c) => {
    const name = c.req.param('file');
    if (!FONTS.has(name)) return c.notFound();
    if (!fonts.has(name)) {
      const path = `${FONT_DIRECTORY}/${name}`;
      fonts.set(name, existsSync(path) ? readFileSync(path) : null);
    }
    const body = fonts.get(name);
    if (!body) return c.notFound();
    return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'font/ttf', 'Cache-Control': 'public, max-age=86400' });
  });
  // Browsers ask for it on their own; without it the request would land on the sign-in redirect.
  router.get('/favicon.ico', (c) => c.body(null, 204, { 'Cache-Control': 'public, max-age=86400' }));
  router.get('/assets/:file', (c) => {
    const file = files.get(c.req.param('file'));
    if (!file) return c.notFound();
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.type, 'Cache-Control': 'public, max-age=300' });
  });
  return router;
}
