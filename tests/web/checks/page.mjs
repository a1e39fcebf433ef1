// The checks of the solver page, web/ (run by tests/web/browser.mjs over
// the puzzles scripts/build-web.sh built): load it, solve a cube3 scramble
// (two-phase) and a slide4 scramble (optimal, after cancelling its first
// try) in the worker, replay each solution in the page's own module and
// compare the last picture with the solved one, solve pyraminx with its
// table built in the page, solve an Anima level, the 15-puzzle and a Rush
// Hour board, and see a bad scramble's inline error.

async function pick(page, id) {
  await page.selectOption('#puzzle', id);
  await page.waitForFunction((want) => window.pzcPage.entry && window.pzcPage.entry.id === want, id);
}

async function solveScramble(page, expect, id, scramble, { cancelFirst = false } = {}) {
  await pick(page, id);
  await page.fill('#scramble', scramble);
  await page.click('#apply');
  const before = await page.evaluate(() => window.pzcPage.start.solved);
  expect(before === false, `${id}: the scramble "${scramble}" leaves it unsolved`);
  if (cancelFirst) {
    // Cancel while the tables download: an inline "cancelled", the page usable.
    await page.click('#solve');
    await page.click('#cancel');
    await page.waitForSelector('#error:not([hidden])');
    const error = await page.textContent('#error');
    expect(error === 'cancelled', `${id}: Cancel stops the table download ("${error}")`);
    expect(await page.isEnabled('#solve'), `${id}: Solve is enabled again after the cancel`);
  }
  const started = Date.now();
  await page.click('#solve');
  await page.waitForSelector('#solution-box:not([hidden])', { timeout: 120000 });
  const seconds = (Date.now() - started) / 1000;
  const r = await page.evaluate(() => {
    const p = window.pzcPage;
    const s = p.solution;
    const replayed = p.puzzle.apply(p.start, s.names.join(' '));
    document.getElementById('last').click();
    return {
      names: s.names, length: s.length, optimal: s.optimal, nodes: s.nodes, search: s.seconds,
      frames: p.frames.length, lastSolved: p.frames[p.frames.length - 1].solved, replayedSolved: replayed.solved,
      finalEqualsSolved: p.currentSvg === p.puzzle.draw(p.puzzle.solved()),
      startDiffers: p.puzzle.draw(p.start) !== p.puzzle.draw(p.puzzle.solved()),
      error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
    };
  });
  expect(!r.error, `${id}: no error shown (${r.error})`);
  expect(r.length === r.names.length && r.frames === r.length + 1, `${id}: ${r.length} moves, ${r.frames} frames`);
  expect(r.lastSolved && r.replayedSolved, `${id}: the solution replays to solved in the page's own module`);
  expect(r.startDiffers, `${id}: the scrambled picture differs from the solved one`);
  expect(r.finalEqualsSolved, `${id}: the last frame's SVG equals the solved state's SVG`);
  console.log(`${id}: "${scramble}" -> ${r.names.join(' ')} (${r.length} moves${r.optimal ? ', optimal' : ''}, ` +
    `${r.nodes} nodes, search ${(r.search * 1000).toFixed(1)} ms; click to answer ${seconds.toFixed(2)} s with table load)`);
  return r;
}

export default async function check({ page, expect }) {
  await page.waitForSelector('body[data-ready=true]');
  expect(await page.evaluate(() => window.pzcPage.entries.length >= 3), 'puzzles/index.json lists the puzzles');

  const cube = await solveScramble(page, expect, 'cube3', "R U F' L2 D B R' U2 F");
  expect(cube.length <= 30, `cube3: two-phase answers in at most 30 moves (${cube.length})`);

  // A uniformly random state, solved; then that state typed back as numbers.
  await page.click('#random');
  const random = await page.evaluate(() => window.pzcPage.start);
  expect(!random.solved, 'cube3: a random state is not solved');
  await page.click('#solve');
  await page.waitForSelector('#solution-box:not([hidden])');
  expect(await page.evaluate(() => window.pzcPage.frames.at(-1).solved), 'cube3: the random state is solved');
  await page.check('input[name=input-kind][value=state]');
  await page.fill('#scramble', random.position);
  await page.click('#apply');
  expect(await page.evaluate((want) => window.pzcPage.start.position === want && window.pzcPage.currentSvg ===
      window.pzcPage.puzzle.draw(window.pzcPage.start), random.position),
    'cube3: the random state typed as numbers gives the same position and picture');
  await page.fill('#scramble', '0 1 2');
  await page.click('#apply');
  await page.waitForSelector('#error:not([hidden])');
  const badState = await page.textContent('#error');
  expect(/^bad state/.test(badState), `cube3: a bad state's error is shown inline: "${badState}"`);
  await page.check('input[name=input-kind][value=scramble]');

  // slide4's optimal solver: the known optimal length of this scramble's
  // position is at most the scramble's 4 moves, and proved.
  const slide = await solveScramble(page, expect, 'slide4', 'R1 C2x3 R3 C4', { cancelFirst: true });
  expect(slide.optimal && slide.length <= 4, `slide4: optimal, at most 4 moves (${slide.length})`);

  // pyraminx ships no table files: its table is built in the page.
  const pyra = await solveScramble(page, expect, 'pyraminx', "R U L' B");
  expect(pyra.optimal && pyra.length <= 4, `pyraminx: optimal, at most 4 moves (${pyra.length})`);
  expect(await page.evaluate(() => {
    const p = window.pzcPage.puzzle;
    return Array.isArray(p.manifest.tables[p.solverName]) && p.manifest.tables[p.solverName].length === 0;
  }),
    'pyraminx: no table files were fetched (its table was built in the page)');

  // Anima: a level solved from its start, stepped to the end.
  await pick(page, 'anima');
  await page.selectOption('#level', '2.1-single_file');
  await page.waitForFunction(() => window.pzcPage.start && window.pzcPage.start.level === '2.1-single_file');
  // An arrow key presses a direction: the actors move, the picture with them.
  const before = await page.evaluate(() => window.pzcPage.currentSvg);
  await page.keyboard.press('ArrowDown');
  const pressed = await page.evaluate(() => ({ text: window.pzcPage.start.text, svg: window.pzcPage.currentSvg }));
  expect(pressed.text === '2.1-single_file: down' && pressed.svg !== before,
    `anima: ArrowDown presses down and the picture changes (${pressed.text})`);
  await page.click('#solve');
  await page.waitForSelector('#solution-box:not([hidden])');
  const anima = await page.evaluate(() => {
    const p = window.pzcPage;
    document.getElementById('last').click();
    return { length: p.solution.length, optimal: p.solution.optimal, solved: p.frames[p.frames.length - 1].solved,
      frame: document.querySelector('#picture svg #frame').getAttribute('data-solved') };
  });
  expect(anima.optimal && anima.solved && anima.frame === 'true',
    `anima 2.1-single_file: optimal, ends solved, its picture says so (${JSON.stringify(anima)})`);

  // The 15-puzzle: its 6-6-3 tables fetched, an optimal solution; the
  // arrow keys move the blank; a position of the wrong parity is refused.
  const fifteen = await solveScramble(page, expect, 'fifteen', 'R R D L D R R D L L');
  expect(fifteen.optimal && fifteen.length <= 10 && fifteen.length % 2 === 0,
    `fifteen: optimal, at most the scramble's 10 moves, even (${fifteen.length})`);
  await page.click('#reset');
  await page.keyboard.press('ArrowRight');
  expect(await page.evaluate(() => window.pzcPage.start.position === '1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15'),
    'fifteen: ArrowRight moves the blank right');
  await page.check('input[name=input-kind][value=state]');
  await page.fill('#scramble', '0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15');
  await page.click('#apply');
  await page.waitForSelector('#error:not([hidden])');
  const parity = await page.textContent('#error');
  expect(/wrong parity/.test(parity), `fifteen: an unsolvable state is refused inline: "${parity}"`);
  await page.check('input[name=input-kind][value=scramble]');

  // Rush Hour: the database's hardest board, 60 moves breadth first.
  await pick(page, 'rushhour');
  await page.selectOption('#level', 'levels:1');
  await page.waitForFunction(() => window.pzcPage.start && window.pzcPage.start.level === 'levels:1');
  await page.click('#solve');
  await page.waitForSelector('#solution-box:not([hidden])');
  const rush = await page.evaluate(() => {
    const p = window.pzcPage;
    document.getElementById('last').click();
    return { length: p.solution.length, first: p.solution.names[0], solved: p.frames[p.frames.length - 1].solved,
      frame: document.querySelector('#picture svg #frame').getAttribute('data-solved') };
  });
  expect(rush.length === 60 && rush.solved && rush.frame === 'true',
    `rushhour levels:1: 60 moves (the database's), ends solved, its picture says so (${JSON.stringify(rush)})`);

  // A bad scramble: an inline error, the picture still there.
  await pick(page, 'cube3');
  await page.fill('#scramble', 'R Q U');
  await page.click('#apply');
  await page.waitForSelector('#error:not([hidden])');
  const error = await page.textContent('#error');
  expect(/unknown move 'Q'/.test(error), `a bad scramble's error is shown inline: "${error}"`);
  expect(await page.evaluate(() => !!document.querySelector('#picture svg')), 'the picture stays after the error');

  // The screenshot: a scrambled cube with its solution.
  await page.fill('#scramble', "R U F' L2 D B R' U2 F");
  await page.click('#apply');
  await page.click('#solve');
  await page.waitForSelector('#solution-box:not([hidden])');
  await page.click('#forward');
  await page.click('#forward');
}
