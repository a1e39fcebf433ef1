// The page: pick a puzzle, set a position (scramble, state, random, moves
// clicked, or a level), solve it in the solver's worker, and step through
// the solution on the picture. Each puzzle is a folder that
// `pzc build --target wasm` wrote under puzzles/ (scripts/build-web.sh),
// listed in puzzles/index.json; its pzc.mjs is the API (docs/web.md).
const $ = (id) => document.getElementById(id);

const page = {
  puzzle: null,     // the open Puzzle (pzc.mjs)
  entry: null,      // its puzzles/index.json entry
  start: null,      // the position the solution starts from
  frames: [],       // start, then the position after each move of the solution
  step: 0,
  solution: null,
  currentSvg: '',
  playing: null,
  busy: false,
};
window.pzcPage = page;  // for tests and the curious

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = !message;
}

function render(position) {
  page.currentSvg = page.puzzle.picture.available ? page.puzzle.draw(position) : '';
  $('picture').innerHTML = page.currentSvg || '<p class="small">(no picture of this puzzle in its build)</p>';
  $('picture').classList.toggle('solved', position.solved);
  $('position-text').textContent = (position.solved ? 'solved · ' : '') + (position.text || position.position);
}

// A new position to solve from: the solution so far is dropped.
function setPosition(position) {
  stopPlaying();
  page.start = position;
  page.frames = [position];
  page.step = 0;
  page.solution = null;
  $('solution-box').hidden = true;
  showError('');
  render(position);
}

function current() {
  return page.frames[page.step];
}

function showStep(step) {
  page.step = Math.max(0, Math.min(step, page.frames.length - 1));
  render(current());
  const n = page.frames.length - 1;
  $('step').textContent = `${page.step} / ${n}`;
  for (const [id, off] of [['first', page.step === 0], ['back', page.step === 0], ['forward', page.step === n], ['last', page.step === n]])
    $(id).disabled = off;
}

function stopPlaying() {
  if (page.playing) clearInterval(page.playing);
  page.playing = null;
  $('play').textContent = 'Play';
}

function setBusy(busy) {
  page.busy = busy;
  for (const id of ['solve', 'apply', 'random', 'reset', 'puzzle', 'level']) $(id).disabled = busy;
  $('cancel').hidden = !busy;
}

function progressText(p) {
  if (p.download) return `downloading tables: ${(100 * p.fraction).toFixed(0)}%`;
  if (p.table) return `${p.table}: depth ${p.depth}, ${(100 * p.fraction).toFixed(0)}% of the level`;
  return '';
}

async function solve() {
  const from = current();
  if (from.solved) {
    showError('');
    $('progress-text').textContent = 'already solved';
    return;
  }
  showError('');
  setBusy(true);
  $('progress').hidden = false;
  $('progress').value = 0;
  $('progress-text').textContent = page.puzzle.prepared ? 'solving…' : 'preparing the tables…';
  try {
    await page.puzzle.prepare({
      onProgress: (p) => {
        $('progress').value = p.fraction || 0;
        $('progress-text').textContent = progressText(p);
      },
    });
    $('progress-text').textContent = 'solving…';
    const started = performance.now();
    const solution = await page.puzzle.solve(from);
    const wall = (performance.now() - started) / 1000;
    // The page replays the solution in its own instance of the module.
    const frames = [from];
    for (const name of solution.names) frames.push(page.puzzle.apply(frames[frames.length - 1], name));
    page.start = from;
    page.frames = frames;
    page.solution = solution;
    $('solution').textContent = solution.names.join(' ') || '(no moves)';
    $('solution-info').textContent =
      `${solution.length} moves${solution.optimal ? ', optimal' : ''} · ${solution.nodes.toLocaleString()} nodes · ` +
      `search ${(solution.seconds * 1000).toFixed(1)} ms, ${(wall * 1000).toFixed(0)} ms in the worker`;
    $('solution-box').hidden = false;
    $('progress-text').textContent = frames[frames.length - 1].solved ? 'solved: step through the moves' : '';
    if (!frames[frames.length - 1].solved) showError('the solution does not end solved (a bug: please report it)');
    showStep(0);
  } catch (e) {
    showError(e.message);
    $('progress-text').textContent = '';
  } finally {
    $('progress').hidden = true;
    setBusy(false);
  }
}

function fillMoves() {
  const box = $('moves');
  box.textContent = '';
  for (const name of page.puzzle.info.moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.addEventListener('click', () => {
      try {
        setPosition(page.puzzle.apply(current(), name));
      } catch (e) {
        showError(e.message);
      }
    });
    box.append(b);
  }
}

async function openEntry(entry) {
  stopPlaying();
  if (page.puzzle) page.puzzle.cancel();
  showError('');
  $('picture').innerHTML = '<p class="small">loading…</p>';
  const { openPuzzle } = await import(`./puzzles/${entry.id}/pzc.mjs`);
  performance.mark('pzc:imported');
  page.puzzle = await openPuzzle(new URL(`puzzles/${entry.id}/`, location.href), { solver: entry.solver || '' });
  performance.mark('pzc:opened');
  page.entry = entry;
  // Puzzles solved from levels (Anima, Rush Hour, Klotski) pick a level;
  // the others take a scramble, a state or a random state.
  const levels = page.puzzle.info.levels.length > 0;
  $('level-field').hidden = !levels;
  $('scramble-form').hidden = levels;
  $('random').hidden = levels;
  if (levels) {
    const select = $('level');
    select.textContent = '';
    for (const name of page.puzzle.info.levels) select.append(new Option(name, name));
    select.value = entry.level || page.puzzle.info.levels[0];
    await openLevel(select.value);
  } else {
    $('scramble').placeholder = entry.example ? `moves, e.g. ${entry.example}` : 'moves';
    setPosition(page.puzzle.solved());
  }
  fillMoves();
  $('progress-text').textContent = page.puzzle.manifest.tables[page.puzzle.solverName]?.length
    ? 'the tables are fetched on the first solve' : '';
}

async function openLevel(name) {
  await page.puzzle.loadLevel(name);
  setPosition(page.puzzle.level(name));
}

function wire() {
  $('scramble-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const kind = document.querySelector('input[name=input-kind]:checked').value;
    try {
      setPosition(kind === 'state' ? page.puzzle.state($('scramble').value) : page.puzzle.scramble($('scramble').value));
    } catch (e) {
      showError(e.message);
    }
  });
  $('random').addEventListener('click', () => {
    try {
      setPosition(page.puzzle.random());
    } catch (e) {
      showError(e.message);
    }
  });
  $('reset').addEventListener('click', async () => {
    if (page.puzzle.info.levels.length) await openLevel($('level').value);
    else setPosition(page.puzzle.solved());
  });
  $('solve').addEventListener('click', solve);
  $('cancel').addEventListener('click', () => page.puzzle.cancel());
  $('first').addEventListener('click', () => showStep(0));
  $('back').addEventListener('click', () => showStep(page.step - 1));
  $('forward').addEventListener('click', () => showStep(page.step + 1));
  $('last').addEventListener('click', () => showStep(page.frames.length - 1));
  $('play').addEventListener('click', () => {
    if (page.playing) return stopPlaying();
    if (page.step === page.frames.length - 1) showStep(0);
    $('play').textContent = 'Pause';
    page.playing = setInterval(() => {
      if (page.step >= page.frames.length - 1) return stopPlaying();
      showStep(page.step + 1);
    }, 400);
  });
  // Arrow keys press the directions of a grid-actor puzzle (Anima) and
  // move an n-puzzle's blank (U D L R).
  document.addEventListener('keydown', (event) => {
    const names = { ArrowUp: ['up', 'U'], ArrowDown: ['down', 'D'], ArrowLeft: ['left', 'L'], ArrowRight: ['right', 'R'] }[event.key];
    if (!names || page.busy || !page.puzzle || event.target.closest('input, select, textarea')) return;
    const name = names.find((n) => page.puzzle.info.moves.includes(n));
    if (!name) return;
    event.preventDefault();
    try {
      setPosition(page.puzzle.apply(current(), name));
    } catch (e) {
      showError(e.message);
    }
  });
  $('puzzle').addEventListener('change', () => openEntry(page.entries.find((e) => e.id === $('puzzle').value)).catch((e) => showError(e.message)));
  $('level').addEventListener('change', () => openLevel($('level').value).catch((e) => showError(e.message)));
}

async function main() {
  wire();
  const response = await fetch('puzzles/index.json');
  if (!response.ok) {
    showError('no puzzles built: run scripts/build-web.sh, then pzc serve');
    return;
  }
  page.entries = await response.json();
  performance.mark('pzc:listed');
  for (const e of page.entries) $('puzzle').append(new Option(e.title, e.id));
  const wanted = new URLSearchParams(location.search).get('puzzle');
  const entry = page.entries.find((e) => e.id === wanted) || page.entries[0];
  $('puzzle').value = entry.id;
  await openEntry(entry);
  performance.mark('pzc:ready');  // the first puzzle drawn and interactive (bench/web)
  document.body.dataset.ready = 'true';
}

main().catch((e) => showError(e.message));
