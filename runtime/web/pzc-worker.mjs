// pzc-worker.mjs — runs a pzc-generated solver (solver.mjs + solver.wasm) in
// a Web Worker, so table loads, builds and searches never block the page.
// Written by `pzc build --target wasm`; spoken to by pzc.mjs.
//
// Messages in:  {id, op: "open", solver, manifest} | {id, op: "prepare"} |
//               {id, op: "solve", position, limits}
// Messages out: {id, ok: true, value} | {id, ok: false, error: {code, codeName, error}} |
//               {id, progress: {...}} (table downloads and builds)
import createSolverModule from './solver.mjs';

let module = null;
let manifest = null;
let solverName = '';
let current = 0;  // the message being answered, for progress reports

function call(name, ...args) {
  const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
  return JSON.parse(module.ccall(name, 'string', types, args));
}

function progress(value) {
  self.postMessage({ id: current, progress: value });
}

// Downloads one table file into the module's file system, reporting bytes.
async function fetchTable(table, done, total) {
  const response = await fetch(new URL('tables/' + table.file, import.meta.url));
  if (!response.ok) throw new Error(`cannot fetch table ${table.file}: HTTP ${response.status}`);
  const bytes = new Uint8Array(table.bytes);
  const reader = response.body.getReader();
  let at = 0;
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) break;
    if (at + value.length > bytes.length) throw new Error(`table ${table.file} is longer than its ${table.bytes} bytes`);
    bytes.set(value, at);
    at += value.length;
    progress({ download: table.file, fraction: (done + at) / total });
  }
  if (at !== bytes.length) throw new Error(`table ${table.file}: ${at} of ${table.bytes} bytes arrived`);
  module.FS.createDataFile('/tables', table.file, bytes, true, false, true);
}

const ops = {
  async open({ solver, manifest: m }) {
    manifest = m;
    solverName = solver || m.defaultSolver || '';
    module = await createSolverModule({
      pzOnProgress: (json) => {
        progress(JSON.parse(json));
        return false;
      },
    });
    module.FS.mkdir('/tables');
    return call('pzw_open', solver || '', '/tables', 1);
  },
  async prepare() {
    const tables = (manifest.tables || {})[solverName] || [];
    const total = tables.reduce((n, t) => n + t.bytes, 0);
    let done = 0;
    for (const t of tables) {
      await fetchTable(t, done, total);
      done += t.bytes;
    }
    const started = performance.now();
    const answer = call('pzw_prepare');
    // The tables now live in the module's memory: the files can go.
    for (const t of tables) module.FS.unlink('/tables/' + t.file);
    if (answer.ok) answer.seconds = (performance.now() - started) / 1000;
    return answer;
  },
  async solve({ position, limits = {} }) {
    const goal = { default: 0, first: 1, optimal: 2 }[limits.goal || 'default'];
    return call('pzw_solve', position, goal ?? 0, limits.maxLength ?? -1, limits.maxNodes ?? 0, limits.maxSeconds ?? 0);
  },
};

self.onmessage = async (event) => {
  const { id, op } = event.data;
  current = id;
  try {
    const answer = await ops[op](event.data);
    if (answer.ok) self.postMessage({ id, ok: true, value: answer });
    else self.postMessage({ id, ok: false, error: answer });
  } catch (e) {
    self.postMessage({ id, ok: false, error: { code: 8, codeName: 'internal', error: String(e && e.message || e) } });
  }
};
