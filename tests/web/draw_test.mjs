// pzc-draw.mjs against pzc draw: for each puzzle folder with a sticker
// picture, the picture the page draws of a scramble's position (worked out
// by the WebAssembly module itself, run here in node) must be byte for
// byte what `pzc draw --scramble` writes, for the solved state and for
// every single move too.
// A grid-actor case (ID=DEFINITION=SCRAMBLE=LEVEL) does the same from the
// level's start (`pzc draw --level FILE --scramble`), which checks the
// module's positions (directions pressed, actors), and solves the position
// the scramble leads to: the solution must replay to solved.
// A sliding-block case draws every prefix of the scramble (single moves
// from the solved board may be illegal): an n-puzzle from its solved board
// (`pzc draw --scramble`), a board from a level, LEVEL=NAME@FILE (the
// file's first level, as `pzc draw --level FILE` draws it).
// Usage: node draw_test.mjs PZC SITE ID=DEFINITION=SCRAMBLE[=LEVEL[@FILE]]...
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [pzc, site, ...cases] = process.argv.slice(2);
let failures = 0;
for (const c of cases) {
  const [id, definition, scramble, level] = c.split('=');
  const dir = `${site}/puzzles/${id}`;
  const { default: create } = await import(pathToFileURL(`${dir}/solver.mjs`).href);
  const { Picture } = await import(pathToFileURL(`${dir}/pzc-draw.mjs`).href);
  const module = await create({ wasmBinary: readFileSync(`${dir}/solver.wasm`) });
  const call = (name, ...args) =>
    JSON.parse(module.ccall(name, 'string', args.map((a) => (typeof a === 'number' ? 'number' : 'string')), args));
  const info = call('pzw_open', '', '/tables', 0).info;
  const manifest = JSON.parse(readFileSync(`${dir}/puzzle.json`, 'utf8'));
  globalThis.fetch = async (url) => new Response(readFileSync(new URL(url)));
  const picture = await Picture.load(manifest, pathToFileURL(`${dir}/`));
  const puzzle = { info };
  const blocks = info.family === 'sliding-block';
  const words = scramble.split(' ').filter(Boolean);
  const prefixes = words.map((_, i) => words.slice(0, i + 1).join(' '));
  const sequences = [scramble, '', ...(blocks ? prefixes : info.moves)];
  let checked = 0, equal = 0;
  const [levelName, levelPath] = (level || '').split('@');
  if (level) await picture.loadLevel(levelName);
  const levelFile = level && (levelPath || `${definition.replace(/\.pz$/, '')}/levels/${level}.txt`);
  for (const moves of sequences) {
    const position = level ? call('pzw_apply', levelName, moves) : call('pzw_position', 'scramble', moves);
    if (!position.ok) throw new Error(`${id}: ${moves}: ${position.error}`);
    const mine = picture.draw(puzzle, position);
    const args = ['draw', definition, ...(level ? ['--level', levelFile] : []), ...(moves ? ['--scramble', moves] : [])];
    const theirs = execFileSync(pzc, args, { encoding: 'utf8' });
    // The title names the position pzc draw was given; the page's picture keeps the solved one's.
    const body = (svg) => svg.replace(/<title>[^<]*<\/title>\n/, '');
    if (body(mine) !== body(theirs)) {
      const a = body(mine).split('\n'), b = body(theirs).split('\n');
      const at = a.findIndex((line, i) => line !== b[i]);
      console.log(`FAIL ${id} "${moves}": the page's picture differs from pzc draw's at line ${at + 1}:\n  page: ${a[at]}\n  pzc:  ${b[at]}`);
      failures++;
    } else {
      equal++;
    }
    checked++;
  }
  if (level || blocks) {
    // Solved from where the scramble leads, replayed by the module.
    const from = level ? call('pzw_apply', levelName, scramble) : call('pzw_position', 'scramble', scramble);
    const prepared = call('pzw_prepare');  // tables built in memory (none for levels)
    if (!prepared.ok) throw new Error(`${id}: prepare: ${prepared.error}`);
    const solution = call('pzw_solve', from.position, 0, -1, 0, 0);
    const end = solution.ok && call('pzw_apply', from.position, solution.names.join(' '));
    if (!end || !end.ok || !end.solved || from.solved) {
      console.log(`FAIL ${id} ${level || ''} after "${scramble}": ${JSON.stringify(solution)}`);
      failures++;
    } else {
      console.log(`${id} ${levelName || 'solved'} after "${scramble}": solved from there in ${solution.length} moves (${solution.names.join(' ')})`);
    }
  }
  console.log(`${id}: ${equal} of ${checked} pictures equal to pzc draw's (the scramble "${scramble}", solved, ` +
    (blocks ? `each of its ${prefixes.length} prefixes)` : `each of ${info.moves.length} moves)`));
}
process.exit(failures ? 1 : 0);
