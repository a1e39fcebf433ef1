// pzc-draw.mjs — pictures of positions in the browser, as `pzc draw` makes
// them (docs/drawing.md), without the compiler: `pzc build --target wasm`
// writes the picture of the solved state (or of each level's start), and a
// position's picture is that document with its stickers recoloured (as
// cubing.js recolours stickers by id), its actors or its pieces moved.
//
// Stickers (a permutation puzzle with a layout): the element with id
// ORBIT-lP-oK is sticker slot K of position P. The piece there now (its
// solved position Q, orientation O) shows its own sticker (K - O) mod N,
// whose colour, face and name the solved picture gives: the slot
// ORBIT-lQ-o((K - O) mod N) of the solved state (note [sticker slots]).

// A sticker's element and its title (attributes in any order).
const STICKER = /<(?:rect|polygon)\b[^>]*\bclass="sticker"[^>]*>\s*<title>([^<]*)<\/title>/g;
const SLOT = /^(.*)-l(\d+)-o(\d+)$/;

function attr(tag, name) {
  const m = tag.match(new RegExp(` ${name}="([^"]*)"`));
  return m ? m[1] : null;
}

function setAttr(tag, name, value) {
  return tag.replace(new RegExp(` ${name}="[^"]*"`), ` ${name}="${value}"`);
}

// The state's numbers split per orbit: permutations, then orientations of
// the oriented orbits (the order `pzc solve --state` reads).
function splitState(info, numbers) {
  const orbits = {};
  let at = 0;
  for (const o of info.orbits) {
    orbits[o.name] = { perm: numbers.slice(at, at + o.size), ori: new Array(o.size).fill(0), n: o.orientations };
    at += o.size;
  }
  for (const o of info.orbits) {
    if (o.orientations > 1) {
      orbits[o.name].ori = numbers.slice(at, at + o.size);
      at += o.size;
    }
  }
  return orbits;
}

class StickerPicture {
  constructor(svg) {
    this.parts = [];      // literal text and sticker slots, alternating
    this.solved = {};     // "orbit/piece/sticker" -> {fill, face, name}
    this.names = {};      // "orbit/position" -> the position's name
    let last = 0;
    for (const m of svg.matchAll(STICKER)) {
      const [whole, title] = m;
      const tag = whole.slice(0, whole.indexOf('>') + 1);
      const slot = (attr(tag, 'id') || '').match(SLOT);
      if (!slot) continue;
      const [, orbit, p, k] = slot;
      this.parts.push(svg.slice(last, m.index));
      // What separates the tag from its title, kept as pzc draw wrote it.
      const gap = whole.slice(tag.length, whole.lastIndexOf('<title>'));
      this.parts.push({ orbit, position: +p, slot: +k, tag, gap });
      this.solved[`${orbit}/${p}/${k}`] = { fill: attr(tag, 'fill'), face: attr(tag, 'data-face') };
      this.names[`${orbit}/${p}`] = title.slice(0, title.indexOf(' sticker '));
      last = m.index + whole.length;
    }
    this.parts.push(svg.slice(last));
  }

  draw(puzzle, position) {
    const orbits = splitState(puzzle.info, position.numbers);
    return this.parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const o = orbits[part.orbit];
        const piece = o.perm[part.position], ori = o.ori[part.position], n = o.n;
        const own = (((part.slot - ori) % n) + n) % n;
        const look = this.solved[`${part.orbit}/${piece}/${own}`];
        let tag = setAttr(part.tag, 'data-piece', piece);
        tag = setAttr(tag, 'data-orientation', ori);
        tag = setAttr(tag, 'data-face', look.face);
        tag = setAttr(tag, 'fill', look.fill);
        const title = `${this.names[`${part.orbit}/${part.position}`]} sticker ${part.slot}: piece ` +
          `${this.names[`${part.orbit}/${piece}`]}${n > 1 ? `, its sticker ${own}` : ''} (face ${look.face})`;
        return `${tag}${part.gap}<title>${title}</title>`;
      })
      .join('');
  }
}

// A permutation puzzle without a layout: the schematic (one cell a
// position, render/schematic.cpp). The solved picture gives each
// position's cell (its place and name) and each piece's look (fill, text
// colour, label); a position's cell is rebuilt from the piece now there,
// as pzc draw builds it: its twist badge, and the thick border of a piece
// home and untwisted.
const CELL = /( *)<g id="([^"]*)-l(\d+)-o0" class="cell solved"[^>]*>\n[\s\S]*?\n *<\/g>/g;

class SchematicPicture {
  constructor(svg) {
    this.parts = [];
    this.cells = {};  // "orbit/position" -> {indent, transform, name, fill, ink, shown}
    let last = 0;
    for (const m of svg.matchAll(CELL)) {
      const [whole, indent, orbit, p] = m;
      const head = whole.slice(indent.length, whole.indexOf('>') + 1);
      const rect = whole.match(/<rect [^>]*>/)[0];
      const texts = [...whole.matchAll(/<text [^>]*>([^<]*)<\/text>/g)];
      this.cells[`${orbit}/${p}`] = {
        indent, transform: attr(head, 'transform'), shown: attr(head, 'data-piece'), fill: attr(rect, 'fill'),
        ink: attr(texts[0][0], 'fill'), name: texts[texts.length - 1][1],
      };
      this.parts.push(svg.slice(last, m.index), { orbit, position: +p });
      last = m.index + whole.length;
    }
    this.parts.push(svg.slice(last));
    // Per orbit: whether its pieces are identical (two positions show one
    // label when solved), and the first cell of each label, in order of
    // first appearance (the labels a state's numbers give).
    this.same = {};
    this.byLabel = {};
    for (const [key, c] of Object.entries(this.cells)) {
      const orbit = key.slice(0, key.lastIndexOf('/'));
      const labels = (this.byLabel[orbit] ||= []);
      if (labels.some((l) => l.shown === c.shown)) this.same[orbit] = true;
      else labels.push(c);
    }
  }

  cell(info, orbits, part) {
    const o = orbits[part.orbit];
    const orbit = info.orbits.find((x) => x.name === part.orbit);
    const p = part.position, piece = o.perm[p], ori = o.ori[p];
    const same = !!this.same[part.orbit];
    // An orbit of identical pieces gives labels, not pieces: the label's
    // first cell looks the part.
    const here = this.cells[`${part.orbit}/${p}`];
    const look = same ? this.byLabel[part.orbit][piece] : this.cells[`${part.orbit}/${piece}`];
    const home = (same ? look.shown === here.shown : piece === p) && ori === 0;
    const i = here.indent, j = `${i}  `;
    const tip = `${here.name}: ${same ? `label ${look.shown}` : `piece ${look.name}`}` +
      (orbit.orientations > 1 ? `, orientation ${ori}` : '');
    let out = `${i}<g id="${part.orbit}-l${p}-o${ori}" class="${home ? 'cell solved' : 'cell'}" data-orbit="${part.orbit}" ` +
      `data-position="${p}" data-piece="${look.shown}" data-orientation="${ori}" data-solved="${home}" transform="${here.transform}">\n` +
      `${j}<title>${tip}</title>\n` +
      `${j}<rect width="28" height="28" rx="3" fill="${look.fill}" stroke="${home ? '#111111' : '#666666'}" stroke-width="${home ? 3 : 1}"/>\n` +
      `${j}<text x="14" y="18" text-anchor="middle" font-size="11" fill="${look.ink}">${look.shown}</text>\n`;
    if (ori !== 0)
      out += `${j}<circle class="twist" cx="25" cy="3" r="6" fill="#ffffff" stroke="#111111"/>\n` +
        `${j}<text x="25" y="6" text-anchor="middle" font-size="8">${ori}</text>\n`;
    return `${out}${j}<text x="14" y="38" text-anchor="middle" font-size="7" fill="#777777">${here.name}</text>\n${i}</g>`;
  }

  draw(puzzle, position) {
    const orbits = splitState(puzzle.info, position.numbers);
    return this.parts.map((part) => (typeof part === 'string' ? part : this.cell(puzzle.info, orbits, part))).join('');
  }
}

// A grid-actor level (the picture of its start, one per level): each
// actor-N circle moves to the N-th actor of the position (by colour, then
// cell, as `pzc draw` numbers them), centred on its cell-X-Y.
class LevelPicture {
  constructor(svg) {
    this.svg = svg;
    this.centres = {};
    for (const m of svg.matchAll(/<rect id="cell-(\d+)-(\d+)"[^>]*>/g)) {
      const [tag, x, y] = m;
      this.centres[`${x},${y}`] = [+attr(tag, 'x') + attr(tag, 'width') / 2, +attr(tag, 'y') + attr(tag, 'height') / 2];
    }
  }

  draw(puzzle, position) {
    const fmt = (v) => String(Math.round(v * 100) / 100);
    let svg = this.svg.replace(/<circle id="actor-(\d+)"[^>]*>/g, (tag, n) => {
      const [, x, y] = position.actors[+n];
      const [cx, cy] = this.centres[`${x},${y}`];
      return setAttr(setAttr(setAttr(setAttr(tag, 'data-x', x), 'data-y', y), 'cx', fmt(cx)), 'cy', fmt(cy));
    });
    return svg.replace(/(<g id="frame"[^>]*) data-solved="[^"]*"/, `$1 data-solved="${position.solved}"`);
  }
}

// A sliding-block board (render/blocks_picture.cpp; one picture: an
// n-puzzle's solved board, or a board level's start). Each piece is a group
// piece-NAME of its cells and its name, placed from its anchor (data-x,
// data-y); a position moves each group by whole cells. An n-puzzle's
// numbers are its cells (tile t is the piece `tiles[t - 1]`); a board's are
// its pieces' anchors (y * width + x) in the order `pieces` names them.
const PIECE = /<g id="piece-([^"]*)" class="piece"[^>]*>[\s\S]*?<\/g>/g;

class BlocksPicture {
  constructor(svg, { tiles = null, pieces = null } = {}) {
    this.svg = svg;
    this.tiles = tiles;
    this.pieces = pieces;
    const cells = [...svg.matchAll(/<rect id="cell-(\d+)-(\d+)"[^>]*>/g)];
    this.width = Math.max(...cells.map((m) => +m[1])) + 1;
    this.cell = +attr(cells[0][0], 'width');
  }

  // name -> [x, y] of every piece the position places.
  anchors(position) {
    const at = {};
    const n = position.numbers;
    if (this.tiles) {
      n.forEach((t, c) => { if (t > 0) at[this.tiles[t - 1]] = [c % this.width, Math.floor(c / this.width)]; });
    } else {
      this.pieces.forEach((name, i) => { at[name] = [n[i] % this.width, Math.floor(n[i] / this.width)]; });
    }
    return at;
  }

  draw(puzzle, position) {
    const at = this.anchors(position);
    const fmt = (v) => String(Math.round(v * 100) / 100);
    const svg = this.svg.replace(PIECE, (group, name) => {
      const head = group.slice(0, group.indexOf('>') + 1);
      const [x, y] = at[name];
      const dx = (x - attr(head, 'data-x')) * this.cell, dy = (y - attr(head, 'data-y')) * this.cell;
      const body = group.slice(head.length).replace(/ (x|y)="([-\d.]+)"/g,
        (whole, axis, v) => ` ${axis}="${fmt(+v + (axis === 'x' ? dx : dy))}"`);
      return setAttr(setAttr(head, 'data-x', x), 'data-y', y) + body;
    });
    return svg.replace(/(<g id="frame"[^>]*) data-solved="[^"]*"/, `$1 data-solved="${position.solved}"`);
  }
}

export class Picture {
  static async load(manifest, base) {
    const spec = manifest.picture;
    const text = async (file) => (await fetch(new URL(file, base))).text();
    if (spec && spec.kind === 'stickers') return new Picture(new StickerPicture(await text(spec.file)));
    if (spec && spec.kind === 'schematic') return new Picture(new SchematicPicture(await text(spec.file)));
    if (spec && spec.kind === 'levels') return new Picture(null, spec.files, text, (svg) => new LevelPicture(svg));
    if (spec && spec.kind === 'blocks' && spec.file)
      return new Picture(new BlocksPicture(await text(spec.file), { tiles: spec.tiles }));
    if (spec && spec.kind === 'blocks') {
      const files = Object.fromEntries(Object.entries(spec.levels).map(([name, l]) => [name, l.file]));
      return new Picture(null, files, text, (svg, name) => new BlocksPicture(svg, { pieces: spec.levels[name].pieces }));
    }
    return new Picture(null);
  }

  constructor(impl, levelFiles = null, fetchText = null, levelPicture = null) {
    this.impl = impl;
    this.levelFiles = levelFiles;  // level name -> its picture's file, fetched when first drawn
    this.levels = {};
    this.fetchText = fetchText;
    this.levelPicture = levelPicture;  // (svg, name) -> the level's picture
  }

  get available() {
    return this.impl !== null || this.levelFiles !== null;
  }

  // Fetches a level's picture before it is drawn (draw itself is synchronous).
  async loadLevel(name) {
    if (this.levelFiles && !this.levels[name] && this.levelFiles[name])
      this.levels[name] = this.levelPicture(await this.fetchText(this.levelFiles[name]), name);
  }

  draw(puzzle, position) {
    if (this.levelFiles) {
      const level = this.levels[position.level];
      if (!level) throw new Error(`the picture of level ${position.level} is not loaded (await puzzle.loadLevel first)`);
      return level.draw(puzzle, position);
    }
    if (!this.impl) throw new Error(`no picture of ${puzzle.info.puzzle} in this build`);
    return this.impl.draw(puzzle, position);
  }
}
