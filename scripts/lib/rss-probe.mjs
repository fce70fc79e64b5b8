// Preloaded into each gate tool by the load script's wrappers (`node --import=…`): on exit,
// append the tool's own wall time and peak resident set size to $AG_LOAD_PROBE_LOG.
import { appendFileSync } from 'node:fs';
import path from 'node:path';

const log = process.env.AG_LOAD_PROBE_LOG;
if (log) {
  process.on('exit', (code) => {
    const tool = path.basename(process.argv[1] ?? 'node').replace(/\.js$/, '');
    const rec = { tool, ms: Math.round(performance.now()), max_rss_kb: process.resourceUsage().maxRSS, exit: code };
    appendFileSync(log, `${JSON.stringify(rec)}\n`);
  });
}
