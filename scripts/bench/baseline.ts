// The baseline: a bare Koa + @koa/router + koa-bodyparser app that echoes the
// envelope, run as its own process like the service. It prints the same
// "listening" line as adapters/http/main.ts so the bench starts both alike.
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';

const app = new Koa();
const router = new Router();
const envelope = (payload: unknown) => ({
  resultCode: 0,
  resultMessage: '',
  serverTime: new Date().toISOString().slice(0, 19),
  serverVersion: 1,
  echo: payload,
});
// ?pad=N adds about N bytes of records (like a character list), to compare at the service's response sizes.
const pads = new Map<number, unknown[]>();
const padOf = (n: number) => {
  let pad = pads.get(n);
  if (!pad) {
    pad = Array.from({ length: Math.ceil(n / 160) }, (_, i) => ({
      managedCharacterId: 16777216 + i,
      characterId: 1000 + i,
      level: 1,
      exp: 0,
      limitBreak: 0,
      awakening: 0,
      evolved: false,
      view: 0,
      shown: 0,
      createdAt: '2026-11-21T12:00:00',
    }));
    pads.set(n, pad);
  }
  return pad;
};
router.get('/echo', (ctx) => {
  const pad = Number(ctx.query['pad'] ?? 0);
  ctx.body = pad > 0 ? { ...envelope(ctx.query), pad: padOf(Math.min(pad, 1 << 20)) } : envelope(ctx.query);
});
router.post('/echo', (ctx) => {
  ctx.body = envelope((ctx.request as { body?: unknown }).body ?? {});
});
app.use(bodyParser({ enableTypes: ['json'] }));
app.use(router.routes());
const server = app.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(
    `${JSON.stringify({ event: 'listening', port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
