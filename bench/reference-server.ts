/**
 * Benchmark part (b): the built-in reference server in its own process (so it does not share an
 * event loop with the load generator, exactly like the bare server of part (a)). Sends its TACK_*
 * variables to the parent over IPC; answers `cpu` messages with its CPU time so far and `heap`
 * messages with its heap after a full GC (started with --expose-gc).
 */
import { startReferenceServer } from '../src/reference/index.js';

const server = await startReferenceServer();
process.send?.({ env: server.env });
process.on('message', (message: unknown) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'heap') {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const { heapUsed, heapTotal, rss } = process.memoryUsage();
    process.send?.({ heap: { heapUsed, heapTotal, rss, gc: gc !== undefined } });
  }
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
