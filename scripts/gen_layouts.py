#!/usr/bin/env python3
"""gen_layouts.py PUZZLE [PZC] — print the `layout { ... }` section of a
shipped puzzle (docs/language.md, Layouts), for pasting into puzzles/PUZZLE.pz.

Not used by the build. Twisty puzzles (cube2, cube3, skewb, pyraminx,
megaminx) are modelled in 3D: faces cut into facelets, each facelet on a
piece; the faces are unfolded along a spanning tree into a flat net. The
sticker slot numbers are not assumed: the script runs each move of the
definition (`pzc run`), finds the rotation that takes the moved pieces where
the definition sends them (it must be clockwise seen from outside, as the
definitions say), and numbers every position's slots so that note [sticker
slots] (slot k shows the piece's sticker (k - o) mod n) agrees with that
rotation for every move. A definition the geometry does not fit fails here.
Boards (slide4, loopover3, loopover5, rotate4o) are grids of cells.
"""
import colorsys
import itertools
import math
import re
import subprocess
import sys

PZC = "build/compiler/driver/pzc"


def add(a, b): return tuple(x + y for x, y in zip(a, b))
def sub(a, b): return tuple(x - y for x, y in zip(a, b))
def scale(a, k): return tuple(x * k for x in a)
def dot(a, b): return sum(x * y for x, y in zip(a, b))
def cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
def norm(a): return math.sqrt(dot(a, a))
def unit(a): return scale(a, 1 / norm(a))
def close(a, b, eps=1e-6): return norm(sub(a, b)) < eps
def centroid(points): return scale(tuple(map(sum, zip(*points))), 1 / len(points))


def rotate(v, axis, angle):
    """Rodrigues: v rotated by angle (right-handed) about axis."""
    k = unit(axis)
    c, s = math.cos(angle), math.sin(angle)
    return add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c)))


class Facelet:
    def __init__(self, face, polygon, piece):
        self.face, self.polygon, self.piece = face, polygon, piece  # piece: (orbit, position) or None (fixed)
        self.centre = centroid(polygon)


# ---- the definition's moves, through pzc run

def moves_of(path):
    return re.findall(r"^\s*move\s+(\w+)\s*=", open(path).read(), re.M)


def run(pzc, path, move):
    """{(orbit, position): (piece, twist)} after `move` from solved."""
    out = subprocess.run([pzc, "run", path, move], capture_output=True, text=True, check=True).stdout
    state = {}
    for line in out.splitlines():
        m = re.match(r"(\w+): (.*)", line)
        if not m or m.group(1) in ("solved", "order"):
            continue
        for item in m.group(2).split():
            p, q = item.split("=")
            piece, _, twist = q.partition("+")
            state[(m.group(1), p)] = (piece, int(twist or 0))
    return state


# ---- slots from the moves

def number_slots(pzc, path, facelets, order):
    """{(orbit, position): [facelet of slot 0, 1, ...]}, consistent with every move."""
    of = {}
    for f in facelets:
        if f.piece:
            of.setdefault(f.piece, []).append(f)
    centre = {p: centroid([f.centre for f in fs]) for p, fs in of.items()}
    maps = []  # per move: facelet -> the facelet it moves to
    for move in moves_of(path):
        state = run(pzc, path, move)
        moved = [p for p, (q, t) in state.items() if q != p[1] or t]
        axis = unit(centroid([centre[p] for p in moved]))
        angle = -2 * math.pi / order  # clockwise seen from outside
        for (orbit, p), (q, t) in state.items():
            assert (orbit, p) not in moved or close(rotate(centre[(orbit, q)], axis, angle), centre[(orbit, p)], 1e-4), \
                f"{move}: not a clockwise turn taking {q} to {p}"
        image = {}
        for p in moved:
            for f in of[p]:
                c = rotate(f.centre, axis, angle)
                image[f] = next(g for g in facelets if close(g.centre, c, 1e-4))
        maps.append((move, state, image))
    slots = {}
    for orbit in sorted({p[0] for p in of}):
        positions = [p for p in of if p[0] == orbit]
        # Each set of positions the moves connect is numbered on its own (a
        # piece no move takes elsewhere, a corner no move touches).
        while any(p not in slots for p in positions):
            start = next(p for p in positions if p not in slots)
            for first in itertools.permutations(of[start]):
                trial = propagate(start, list(first), maps, of, orbit)
                if trial is not None:
                    slots.update(trial)
                    break
            else:
                sys.exit(f"{path}: no slot numbering of orbit {orbit} at {start[1]} fits the moves")
    return slots


def propagate(start, first, maps, of, orbit):
    """The numbering of the positions the moves connect to `start`, from its
    numbering `first`; None when some move contradicts it."""
    trial, queue = {start: first}, [start]
    while queue:
        p = queue.pop()
        n = len(of[p])
        for move, state, image in maps:
            inverse = {g: f for f, g in image.items()}
            # The piece now at p came from q: slot_q(j) = G^-1(slot_p(j + o)).
            q, o = state[p]
            want = [inverse.get(trial[p][(j + o) % n], trial[p][(j + o) % n]) for j in range(n)]
            if (orbit, q) in trial and trial[(orbit, q)] != want:
                return None
            if (orbit, q) not in trial:
                trial[(orbit, q)] = want
                queue.append((orbit, q))
            # The piece solved at p went to p2 with twist o2: slot_p2(k) = G(slot_p(k - o2)).
            for (orbit2, p2), (q2, o2) in state.items():
                if orbit2 != orbit or q2 != p[1]:
                    continue
                want = [image.get(trial[p][(j - o2) % n], trial[p][(j - o2) % n]) for j in range(n)]
                if (orbit2, p2) in trial and trial[(orbit2, p2)] != want:
                    return None
                if (orbit2, p2) not in trial:
                    trial[(orbit2, p2)] = want
                    queue.append((orbit2, p2))
    if not all(set(f) == set(of[p]) for p, f in trial.items()):
        return None
    return trial


# ---- unfolding into a net

def unfold(faces, tree, root, right, down):
    """Per face, a function 3D point -> 2D point of the net: each child face
    is turned about the edge it shares with its parent into its plane."""
    # faces: name -> (normal, [3D vertices]); tree: child -> parent.
    transforms = {root: lambda x: x}
    def shared(a, b):
        return [v for v in faces[a][1] if any(close(v, w, 1e-6) for w in faces[b][1])]
    pending = [f for f in faces if f != root]
    while pending:
        for f in list(pending):
            parent = tree[f]
            if parent not in transforms:
                continue
            e0, e1 = shared(f, parent)
            na, nb = faces[f][0], faces[parent][0]
            angle = math.acos(max(-1, min(1, dot(na, nb))))
            axis = sub(e1, e0)
            if not close(rotate(na, axis, angle), nb, 1e-6):
                angle = -angle
            outer = transforms[parent]
            transforms[f] = lambda x, e0=e0, axis=axis, angle=angle, outer=outer: outer(add(e0, rotate(sub(x, e0), axis, angle)))
            pending.remove(f)
    return {f: (lambda x, t=t: (dot(t(x), right), dot(t(x), down))) for f, t in transforms.items()}


def emit(name_faces, colours, facelets, slots, flat, cells):
    """The layout text; `cells`: place each facelet as a net cell (its centre
    rounded down), else as a polygon."""
    points = [flat[f.face](v) for f in facelets for v in f.polygon]
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    def at(f):
        if cells:
            c = flat[f.face](f.centre)
            return f"at {int(math.floor(c[0] - x0))} {int(math.floor(c[1] - y0))}"
        return "polygon " + " ".join(f"{flat[f.face](v)[0] - x0:.3f} {flat[f.face](v)[1] - y0:.3f}".replace(".000", "")
                                     for v in f.polygon)
    print("  layout {")
    for face in name_faces:
        print(f"    face {face} {colours[face]};")
    for (orbit, position), fs in sorted(slots.items(), key=lambda item: declared(item[0])):
        for k, f in enumerate(fs):
            print(f"    {orbit} {position} {k} {at(f)} {f.face};")
    for f in facelets:
        if f.piece is None:
            print(f"    fixed {at(f)} {f.face};")
    print("  }")


DECLARED = []  # (orbit, position) in the definition's order


def declared(key):
    return DECLARED.index(key) if key in DECLARED else len(DECLARED)


def read_declared(path):
    for m in re.finditer(r"orbit\s+(\w+)\s+(\d+)(?:\s+orient\s+\d+)?\s*(?:\{([^}]*)\})?", open(path).read()):
        names = m.group(3).split() if m.group(3) else [str(i) for i in range(int(m.group(2)))]
        DECLARED.extend((m.group(1), n) for n in names)


# ---- the puzzles

CUBE = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0), "F": (0, 0, 1), "B": (0, 0, -1)}
CUBE_COLOURS = {"U": "white", "F": "green", "R": "red", "D": "yellow", "B": "blue", "L": "orange"}
# The cross: U above F, L F R B in a row, D below F.
CUBE_TREE = {"U": "F", "D": "F", "L": "F", "R": "F", "B": "R"}


def face_square(n, half):
    u = (0, 1, 0) if abs(n[1]) < 0.5 else (0, 0, 1)
    v = cross(n, u)
    return [add(scale(n, half), add(scale(u, a * half), scale(v, b * half))) for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]


def cube_faces(half):
    return {f: (n, face_square(n, half)) for f, n in CUBE.items()}


def cube_name(cubie, orbit_names):
    faces = [f for f, n in CUBE.items() if dot(n, cubie) > 0.5]
    for name in orbit_names:
        if sorted(name) == sorted("".join(faces)):
            return name
    return None


def positions(path, orbit):
    m = re.search(r"orbit\s+" + orbit + r"\s+\d+(?:\s+orient\s+\d+)?\s*\{([^}]*)\}", open(path).read())
    return m.group(1).split()


def cube(path, size, pzc):
    orbits = {"corners": positions(path, "corners")}
    if size == 3:
        orbits["edges"] = positions(path, "edges")
    facelets = []
    for f, n in CUBE.items():
        u = (0, 1, 0) if abs(n[1]) < 0.5 else (0, 0, 1)
        v = cross(n, u)
        for a in range(size):
            for b in range(size):
                lo = lambda i: -size / 2 + i
                poly = [add(scale(n, size / 2), add(scale(u, lo(a + da)), scale(v, lo(b + db))))
                        for da, db in ((0, 0), (1, 0), (1, 1), (0, 1))]
                c = centroid(poly)
                cubie = tuple(round(x - 0.5 * m) if size == 3 else (1 if x > 0 else -1) for x, m in zip(c, n))
                piece = None
                for orbit, names in orbits.items():
                    name = cube_name(cubie, names)
                    if name and len(name) == sum(1 for x in cubie if x):
                        piece = (orbit, name)
                facelets.append(Facelet(f, poly, piece))
    slots = number_slots(pzc, path, facelets, 4)
    flat = unfold(cube_faces(size / 2), CUBE_TREE, "F", (1, 0, 0), (0, -1, 0))
    emit("UFRDBL", CUBE_COLOURS, facelets, slots, flat, cells=True)


def skewb(path, pzc):
    corners, centres = positions(path, "corners"), positions(path, "centres")
    facelets = []
    for f, n in CUBE.items():
        sq = face_square(n, 1)  # the face's corners; edge midpoints cut the corners off
        mids = [centroid([sq[i], sq[(i + 1) % 4]]) for i in range(4)]
        facelets.append(Facelet(f, mids, ("centres", f)))
        for i in range(4):
            tri = [sq[i], mids[i], mids[i - 1]]
            facelets.append(Facelet(f, tri, ("corners", cube_name(sq[i], corners))))
    slots = number_slots(pzc, path, facelets, 3)
    flat = unfold(cube_faces(1), CUBE_TREE, "F", (1, 0, 0), (0, -1, 0))
    emit("UFRDBL", CUBE_COLOURS, [f for f in facelets], slots, scaled(flat, 1.5), cells=False)


def scaled(flat, k):
    return {f: (lambda x, t=t: scale(t(x), k)) for f, t in flat.items()}


def pyraminx(path, pzc):
    # As scripts/gen_library.py: vertices U (top), L, R (front), B (back).
    v = {"U": (1, 1, 1), "L": (-1, -1, 1), "R": (1, -1, -1), "B": (-1, 1, -1)}
    edges = positions(path, "edges")
    faces = {}  # a face is named by the vertex it does not touch: F (front) = not B, D = not U, ...
    face_names = {"B": "F", "U": "D", "R": "L", "L": "R"}
    facelets = []
    for missing, fname in face_names.items():
        a, b, c = [k for k in "ULRB" if k != missing]
        n = unit(scale(v[missing], -1))
        faces[fname] = (n, [v[a], v[b], v[c]])
        P = lambda i, j: add(v[a], add(scale(sub(v[b], v[a]), i / 3), scale(sub(v[c], v[a]), j / 3)))
        for i in range(3):
            for j in range(3 - i):
                up = [P(i, j), P(i + 1, j), P(i, j + 1)]
                if (i, j) in ((0, 0), (2, 0), (0, 2)):
                    piece = None  # a tip: not in this definition
                else:
                    ends = [k for k, w in zip((a, b, c), (0, 0, 0)) if True]
                    near = sorted("ULRB", key=lambda k: norm(sub(centroid(up), v[k])))[:2]
                    name = next(e for e in edges if sorted(e) == sorted(near))
                    piece = ("edges", name)
                facelets.append(Facelet(fname, up, piece))
                if i + j <= 1:
                    down = [P(i + 1, j), P(i + 1, j + 1), P(i, j + 1)]
                    near = min("ULRB", key=lambda k: norm(sub(centroid(down), v[k])))
                    facelets.append(Facelet(fname, down, ("centres", near)))
    slots = number_slots(pzc, path, facelets, 3)
    # F in the middle, U up; L, R and D turned out around it.
    up = unit(sub(v["U"], centroid([v["L"], v["R"]])))
    right = unit(sub(v["R"], v["L"]))
    flat = unfold(faces, {"L": "F", "R": "F", "D": "F"}, "F", right, scale(up, -1))
    emit(["F", "L", "R", "D"], {"F": "green", "L": "red", "R": "blue", "D": "yellow"}, facelets, slots,
         scaled(flat, 2.2), cells=False)


def megaminx(path, pzc):
    phi = (1 + math.sqrt(5)) / 2
    raw = [(0, 1, phi), (0, -1, phi), (0, 1, -phi), (0, -1, -phi), (1, phi, 0), (-1, phi, 0),
           (1, -phi, 0), (-1, -phi, 0), (phi, 0, 1), (-phi, 0, 1), (phi, 0, -1), (-phi, 0, -1)]
    normals = [unit(n) for n in raw]
    corners, edges = positions(path, "corners"), positions(path, "edges")
    triples = [c.split("_") for c in corners]
    names = sorted({f for t in triples for f in t}, key=lambda f: (f != "U", f != "F", f))
    adjacent = lambda a, b: 0.3 < dot(a, b) < 0.9
    # Names to normals: every corner's three faces meet (two mirror images fit;
    # number_slots rejects the one whose moves turn anticlockwise).
    def search(assign):
        if len(assign) == len(names):
            yield dict(assign)
            return
        f = names[len(assign)]
        for n in normals:
            if any(close(n, m) for m in assign.values()):
                continue
            assign[f] = n
            if all(all(adjacent(assign[a], assign[b]) for a, b in itertools.combinations(t, 2) if a in assign and b in assign)
                   for t in triples):
                yield from search(assign)
            del assign[f]
    for normal in itertools.islice(search({"U": normals[0]}), 0, 4):
        # Each face: a pentagon; its corners at the face's corner pieces.
        faces, facelets = {}, []
        for f in names:
            n = normal[f]
            around = [t for t in triples if f in t]
            verts = [scale(unit(add(add(normal[t[0]], normal[t[1]]), normal[t[2]])), 1.0) for t in around]
            verts = [add(scale(n, dot(w, n)), sub(w, scale(n, dot(w, n)))) for w in verts]
            c0 = centroid(verts)
            ref = sub(verts[0], c0)
            order = sorted(range(5), key=lambda i: math.atan2(dot(cross(ref, sub(verts[i], c0)), n), dot(ref, sub(verts[i], c0))) % (2 * math.pi))
            verts, around = [verts[i] for i in order], [around[i] for i in order]
            faces[f] = (n, verts)
            inner = [add(c0, scale(sub(w, c0), 0.42)) for w in verts]
            on = lambda i, j, t: add(verts[i], scale(sub(verts[j], verts[i]), t))
            facelets.append(Facelet(f, inner, None))
            for i in range(5):
                j = (i + 1) % 5
                corner = "_".join(around[i])
                facelets.append(Facelet(f, [verts[i], on(i, j, 0.3), inner[i], on(i, i - 1, 0.3)], ("corners", corner)))
                pair = [g for g in around[i] if g in around[j]]
                other = next(g for g in pair if g != f)
                edge = next(e for e in edges if sorted(e.split("_")) == sorted([f, other]))
                facelets.append(Facelet(f, [on(i, j, 0.3), on(j, i, 0.3), inner[j], inner[i]], ("edges", edge)))
        try:
            slots = number_slots(pzc, path, facelets, 5)
        except AssertionError:
            continue
        # Two flowers: U with its ring, and D with its ring hung from F's neighbour DR.
        tree = {g: "U" for g in ("F", "R", "L", "BR", "BL")}
        tree.update({"DR": "F", "D": "DR", "DL": "D", "DBL": "D", "B": "D", "DBR": "D"})
        # Seen from outside, F below U (right x up = the outward normal).
        right = unit(cross(normal["U"], normal["F"]))
        down = unit(sub(normal["F"], scale(normal["U"], dot(normal["F"], normal["U"]))))
        flat = unfold(faces, tree, "U", right, down)
        colours = {"U": "white", "F": "green", "R": "red", "L": "purple", "BR": "blue", "BL": "yellow",
                   "DR": "pink", "DL": "orange", "DBR": "yellowgreen", "DBL": "lightblue", "B": "beige", "D": "gray"}
        emit(names, colours, facelets, slots, scaled(flat, 3.2), cells=False)
        return
    sys.exit("megaminx: no naming fits")


# ---- boards

def board(width, height, rotate=False):
    """One face a tile, its solved colour (hue by row, lightness by column);
    rotate4o: each tile a 3x3 block whose centre shows the tile, with a mark
    sticker on the slot 0 side (top), slots clockwise: top, right, bottom, left."""
    print("  layout {")
    for y in range(height):
        for x in range(width):
            h = y / height
            l = 0.38 + 0.36 * x / max(1, width - 1)
            r, g, b = colorsys.hls_to_rgb(h, l, 0.75)
            print(f'    face t{y * width + x} "#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}";')
    if rotate:
        print("    face mark black;")
        for p in range(width * height):
            x, y = 3 * (p % width), 3 * (p // width)
            for k, (dx, dy) in enumerate(((1, 0), (2, 1), (1, 2), (0, 1))):
                print(f"    pieces {p} {k} at {x + dx} {y + dy} {'mark' if k == 0 else 't%d' % p};")
        for p in range(width * height):
            x, y = 3 * (p % width), 3 * (p // width)
            for dx, dy in ((0, 0), (2, 0), (2, 2), (0, 2), (1, 1)):
                print(f"    fixed at {x + dx} {y + dy} t{p};")
    else:
        for p in range(width * height):
            print(f"    tiles {p} 0 at {p % width} {p // width} t{p};")
    print("  }")


if __name__ == "__main__":
    which = sys.argv[1]
    pzc = sys.argv[2] if len(sys.argv) > 2 else PZC
    path = f"puzzles/{which}.pz"
    read_declared(path)
    {"cube3": lambda: cube(path, 3, pzc), "cube2": lambda: cube(path, 2, pzc), "skewb": lambda: skewb(path, pzc),
     "pyraminx": lambda: pyraminx(path, pzc), "megaminx": lambda: megaminx(path, pzc),
     "slide4": lambda: board(4, 4), "loopover3": lambda: board(3, 3), "loopover5": lambda: board(5, 5),
     "rotate4o": lambda: board(4, 4, rotate=True)}[which]()
