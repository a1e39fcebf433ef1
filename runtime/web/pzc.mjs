// pzc.mjs — a pzc-generated solver in the browser (docs/web.md).
// Written by `pzc build FILE --target wasm -o DIR` beside solver.mjs,
// solver.wasm, pzc-worker.mjs, pzc-draw.mjs and puzzle.json.
//
//   import { openPuzzle } from './DIR/pzc.mjs';
//   const puzzle = await openPuzzle(new URL('./DIR/', location.href));
//   const p = puzzle.scramble("R U F'");          // throws PzError on bad input
//   await puzzle.prepare({ onProgress });         // tables: fetched or built, in a worker
//   const s = await puzzle.solve(p);              // {names, moves, length, optimal, nodes, seconds}
//   puzzle.draw(puzzle.apply(p, s.names.join(' ')));   // SVG text
//
// Positions, moves and pictures are worked out at once on the page by a
// second instance of the module (no tables); prepare and solve run in a
// Web Worker and never block the page. cancel() stops them by ending the
// worker (a single-threaded module cannot be interrupted otherwise); the
// next prepare() starts a new one.
import createSolverModule from './solver.mjs';
import { Picture } from './pzc-draw.mjs';

export class PzError extends Error {
  constructor(answer) {
    super(answer.error);
    this.name = 'PzError';
    this.code = answer.code;          // pz::api::ErrorCode's number (1 bad input, 5 cancelled, ...)
    this.codeName = answer.codeName;  // "bad input", ...
  }
}

function unwrap(answer) {
  if (!answer.ok) throw new PzError(answer);
  return answer;
}

export async function openPuzzle(base, { solver = '' } = {}) {
  base = new URL(base, typeof location === 'undefined' ? undefined : location.href);
  if (!base.pathname.endsWith('/')) base = new URL(base.pathname + '/', base);
  const manifest = await (await fetch(new URL('puzzle.json', base))).json();
  // The module (compiled while it streams in) and the picture arrive together.
  const [module, picture] = await Promise.all([
    createSolverModule({ locateFile: (file) => new URL(file, base).href }),
    Picture.load(manifest, base),
  ]);
  return new Puzzle(manifest, module, base, solver || manifest.defaultSolver || '', picture);
}

class Puzzle {
  constructor(manifest, module, base, solver, picture) {
    this.manifest = manifest;
    this.base = base;
    this.solverName = solver;
    this.module = module;
    this.picture = picture;
    this.info = this.call('pzw_open', solver, '/tables', 0).info;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.prepared = false;
  }

  call(name, ...args) {
    const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
    return unwrap(JSON.parse(this.module.ccall(name, 'string', types, args)));
  }

  // Positions: {position (text), numbers, level, solved}. Each throws a
  // PzError with the command line's message on bad input.
  scramble(moves) { return this.call('pzw_position', 'scramble', moves); }
  state(numbers) { return this.call('pzw_position', 'state', numbers); }
  level(name) { return this.call('pzw_position', 'level', name); }
  // A grid-actor level's picture is fetched once, before its first draw.
  async loadLevel(name) { await this.picture.loadLevel(name); }
  solved() { return this.call('pzw_position', 'solved', ''); }
  random(seed = Math.floor(Math.random() * 2 ** 52)) { return this.call('pzw_position', 'random', String(seed)); }
  apply(position, moves) { return this.call('pzw_apply', position.position, moves); }

  // The position as standalone SVG (the picture `pzc draw` makes of it).
  draw(position) { return this.picture.draw(this, position); }

  // Loads (fetches) or builds the tables in the worker. onProgress gets
  // {download, fraction} while table files arrive, then the build's
  // {table, depth, fraction, ...} reports.
  async prepare({ onProgress } = {}) {
    if (!this.worker) {
      this.worker = new Worker(new URL('pzc-worker.mjs', this.base), { type: 'module' });
      this.worker.onmessage = (e) => this.answer(e.data);
      this.worker.onerror = (e) => this.failAll({ code: 8, codeName: 'internal', error: e.message || 'the worker failed' });
      this.prepared = false;
      await this.request({ op: 'open', solver: this.solverName, manifest: this.manifest });
    }
    if (!this.prepared) {
      await this.request({ op: 'prepare' }, onProgress);
      this.prepared = true;
    }
  }

  // Solves in the worker: {names, moves, length, optimal, phases, nodes,
  // seconds}, replayed from the position by the module before it returns.
  // limits: {goal: 'default'|'first'|'optimal', maxLength, maxNodes, maxSeconds}.
  async solve(position, limits = {}) {
    await this.prepare();
    return this.request({ op: 'solve', position: position.position, limits });
  }

  // Stops a prepare or solve under way (its promise rejects: code 5, cancelled).
  cancel() {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    this.prepared = false;
    this.failAll({ code: 5, codeName: 'cancelled', error: 'cancelled' });
  }

  request(message, onProgress) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, ...message });
    });
  }

  answer(data) {
    const p = this.pending.get(data.id);
    if (!p) return;
    if (data.progress) {
      if (p.onProgress) p.onProgress(data.progress);
      return;
    }
    this.pending.delete(data.id);
    if (data.ok) p.resolve(data.value);
    else p.reject(new PzError(data.error));
  }

  failAll(error) {
    for (const p of this.pending.values()) p.reject(new PzError(error));
    this.pending.clear();
  }
}
