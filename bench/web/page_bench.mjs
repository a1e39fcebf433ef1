// The page's figures in Chromium (a check module for tests/web/browser.mjs):
// load to first drawing, then for each puzzle of $PZ_BENCH_PUZZLES
// ("cube3 slide4"): the table fetch + load, and $PZ_BENCH_SOLVES random
// states (seeds 1..N) solved one at a time in the worker, each
// $PZ_BENCH_REPS times (its fastest search kept). Writes the states
// and the per-solve figures to $PZ_BENCH_OUT/<id>.json for bench.sh, which
// solves the same states natively.
import { writeFileSync, mkdirSync } from 'node:fs';

export default async function bench({ page, url }) {
  const out = process.env.PZ_BENCH_OUT;
  mkdirSync(out, { recursive: true });
  await page.waitForSelector('body[data-ready=true]');
  // The page's mark when the first puzzle is drawn and interactive, in ms
  // since navigation start (app.mjs).
  const ready = () => page.evaluate(() => performance.getEntriesByName('pzc:ready')[0].startTime);
  const load = { ready: await ready(), picture: await page.evaluate(() => !!document.querySelector('#picture svg')) };
  // A second load, warm (what a returning user sees).
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]');
  const warm = await ready();
  writeFileSync(`${out}/load.json`, JSON.stringify({ coldMs: load.ready, warmMs: warm, picture: load.picture }));
  console.log(`page load to first interactive drawing: ${load.ready.toFixed(0)} ms cold, ${warm.toFixed(0)} ms warm`);

  const solves = Number(process.env.PZ_BENCH_SOLVES || 20);
  const reps = Number(process.env.PZ_BENCH_REPS || 3);
  for (const id of (process.env.PZ_BENCH_PUZZLES || 'cube3 slide4').split(' ')) {
    await page.selectOption('#puzzle', id);
    await page.waitForFunction((want) => window.pzcPage.entry && window.pzcPage.entry.id === want, id);
    const r = await page.evaluate(async ([n, reps]) => {
      const puzzle = window.pzcPage.puzzle;
      let t = performance.now();
      await puzzle.prepare();
      const prepareMs = performance.now() - t;
      // Each state solved `reps` times; its fastest search counts (this
      // machine is shared: the minimum is the figure least moved by noise).
      const runs = [];
      for (let seed = 1; seed <= n; seed++) {
        const p = puzzle.random(seed);
        let best = null;
        for (let k = 0; k < reps; k++) {
          t = performance.now();
          const s = await puzzle.solve(p);
          const wall = (performance.now() - t) / 1000;
          if (!best || s.seconds < best.search)
            best = { state: p.position, length: s.length, nodes: s.nodes, search: s.seconds, wall };
        }
        runs.push(best);
      }
      return { prepareMs, runs };
    }, [solves, reps]);
    writeFileSync(`${out}/${id}.json`, JSON.stringify(r));
    const mean = (k) => r.runs.reduce((a, x) => a + x[k], 0) / r.runs.length;
    console.log(`${id}: tables fetched and loaded in ${(r.prepareMs / 1000).toFixed(2)} s; ${r.runs.length} solves, ` +
      `mean search ${(mean('search') * 1000).toFixed(2)} ms, mean in the worker ${(mean('wall') * 1000).toFixed(2)} ms, mean nodes ${mean('nodes').toFixed(0)}`);
  }
}
