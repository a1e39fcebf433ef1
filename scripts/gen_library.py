#!/usr/bin/env python3
"""gen_library.py PUZZLE — print the move cycles of a library puzzle, derived
from its geometry (a sticker model), for pasting into puzzles/PUZZLE.pz.

Not used by the build: it is how the cycles of the twisty puzzles in
puzzles/ (pyraminx, skewb, ivy, domino332, megaminx, cube4) were written, so
that they can be re-derived and checked. A piece is a set of stickers (outward
face normals); a move is a rotation of the pieces on one side of a plane. A
piece at position p goes to the position q whose stickers are the rotated
stickers of p; its orientation changes by the index in q's sticker list of
the image of p's first sticker (sticker lists are in one rotational sense
about the piece, so this is additive mod the number of stickers).
"""
import itertools
import math
import sys


def add(a, b): return tuple(x + y for x, y in zip(a, b))
def scale(a, k): return tuple(x * k for x in a)
def dot(a, b): return sum(x * y for x, y in zip(a, b))
def cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
def norm(a): return math.sqrt(dot(a, a))
def unit(a): return scale(a, 1 / norm(a))


def rotate(v, axis, angle):
    """Rodrigues: v rotated by angle (radians, right-handed) about axis."""
    k = unit(axis)
    c, s = math.cos(angle), math.sin(angle)
    return add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c)))


def close(a, b, eps=1e-6): return norm(add(a, scale(b, -1))) < eps


class Piece:
    def __init__(self, name, pos, stickers):
        self.name, self.pos = name, pos
        # Order the stickers counter-clockwise about the piece's direction,
        # starting with the given first one.
        if len(stickers) > 2:
            first, rest = stickers[0], list(stickers[1:])
            ordered = [first]
            while rest:
                last = ordered[-1]
                nxt = min(rest, key=lambda n: math.atan2(dot(cross(last, n), unit(pos)), dot(last, n)) % (2 * math.pi))
                ordered.append(nxt)
                rest.remove(nxt)
            stickers = ordered
        self.stickers = list(stickers)


def move_cycles(pieces, axis, angle, moved, orient):
    """Cycles 'a+k b ...' of the pieces for which moved(piece) holds."""
    image, delta = {}, {}
    for p in pieces:
        if not moved(p):
            continue
        pos = rotate(p.pos, axis, angle)
        q = next(q for q in pieces if close(q.pos, pos))
        first = rotate(p.stickers[0], axis, angle)
        j = next(i for i, n in enumerate(q.stickers) if close(n, first))
        image[p.name], delta[p.name] = q.name, j % orient if orient else 0
        if not orient:
            assert j == 0 or len(p.stickers) == 1, f"{p.name}: unoriented piece turned ({j})"
    seen, cycles = set(), []
    for p in pieces:
        if p.name not in image or p.name in seen:
            continue
        cyc, n = [], p.name
        while n not in seen:
            seen.add(n)
            cyc.append(n + (f"+{delta[n]}" if delta[n] else ""))
            n = image[n]
        if len(cyc) > 1 or delta[p.name]:
            cycles.append("(" + " ".join(cyc) + ")")
    return " ".join(cycles)


# Cube faces: x = R, y = U, z = F.
FACES = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0), "F": (0, 0, 1), "B": (0, 0, -1)}


def face_name(n):
    return next(k for k, v in FACES.items() if close(v, n))


def cube_piece(pos, order="UDFBRL"):
    """A cubie at pos (on the surface); name from its faces, U/D first."""
    normals = [FACES[f] for f in "UDRLFB" if dot(FACES[f], pos) > max(abs(c) for c in pos) - 0.6]
    normals.sort(key=lambda n: order.index(face_name(n)))
    name = "".join(face_name(n) for n in normals)
    return Piece(name, pos, normals)


def emit(name, orbits):
    print(f"  move {name} = " + " ".join(f"{o} {c}" for o, c in orbits if c) + ";")


def skewb():
    corners = [cube_piece((x, y, z)) for y in (1, -1) for z in (1, -1) for x in (1, -1)]
    centres = [Piece(f, FACES[f], [FACES[f]]) for f in "URFDLB"]
    print("  orbit corners 8 orient 3 { " + " ".join(p.name for p in corners) + " }")
    print("  orbit centres 6 { " + " ".join(p.name for p in centres) + " }")
    # WCA: R turns about the DBR corner, U about UBL, L about DFL, B about DBL;
    # clockwise seen from the corner.
    for m, a in (("R", (1, -1, -1)), ("U", (-1, 1, -1)), ("L", (-1, -1, 1)), ("B", (-1, -1, -1))):
        side = lambda p, a=a: dot(p.pos, a) > 0
        emit(m, [("corners", move_cycles(corners, a, -2 * math.pi / 3, side, 3)),
                 ("centres", move_cycles(centres, a, -2 * math.pi / 3, side, 0))])


def ivy():
    tet = {"UFR": (1, 1, 1), "UBL": (-1, 1, -1), "DFL": (-1, -1, 1), "DBR": (1, -1, -1)}
    corners = [cube_piece(v) for v in tet.values()]
    centres = [Piece(f, FACES[f], [FACES[f]]) for f in "URFDLB"]
    print("  orbit corners 4 orient 3 { " + " ".join(p.name for p in corners) + " }")
    print("  orbit centres 6 { " + " ".join(p.name for p in centres) + " }")
    for m, a in tet.items():
        corner = lambda p, a=a: close(p.pos, a)
        side = lambda p, a=a: dot(p.pos, a) > 0
        emit(m, [("corners", move_cycles(corners, a, -2 * math.pi / 3, corner, 3)),
                 ("centres", move_cycles(centres, a, -2 * math.pi / 3, side, 0))])


def domino():
    cubies = [cube_piece((x, y, z)) for y in (0.5, -0.5) for z in (1, 0, -1) for x in (1, 0, -1) if (x, z) != (0, 0)]
    # Rename: U/D layer pieces by their faces.
    corners = [p for p in cubies if p.pos[0] and p.pos[2]]
    edges = [p for p in cubies if not (p.pos[0] and p.pos[2])]
    for p in cubies:
        p.name = ("U" if p.pos[1] > 0 else "D") + p.name.lstrip("UD")
    print("  orbit corners 8 { " + " ".join(p.name for p in corners) + " }")
    print("  orbit edges 8 { " + " ".join(p.name for p in edges) + " }")
    for m, axis, ang, side in (("U", (0, 1, 0), -math.pi / 2, lambda p: p.pos[1] > 0),
                               ("D", (0, -1, 0), -math.pi / 2, lambda p: p.pos[1] < 0),
                               ("R2", (1, 0, 0), math.pi, lambda p: p.pos[0] > 0.5),
                               ("L2", (-1, 0, 0), math.pi, lambda p: p.pos[0] < -0.5),
                               ("F2", (0, 0, 1), math.pi, lambda p: p.pos[2] > 0.5),
                               ("B2", (0, 0, -1), math.pi, lambda p: p.pos[2] < -0.5)):
        emit(m, [("corners", move_cycles(corners, axis, ang, side, 0)),
                 ("edges", move_cycles(edges, axis, ang, side, 0))])


def cube4():
    c = (-1.5, -0.5, 0.5, 1.5)
    cubies = [(x, y, z) for x in c for y in c for z in c if 1.5 in map(abs, (x, y, z))]
    corners = [cube_piece(p) for p in cubies if all(abs(v) == 1.5 for v in p)]
    corners.sort(key=lambda p: ["UFR", "UFL", "UBL", "UBR", "DFR", "DFL", "DBL", "DBR"].index(p.name))
    wings, centres = [], []
    for p in cubies:
        outer = [i for i in range(3) if abs(p[i]) == 1.5]
        if len(outer) == 2:
            inner = next(i for i in range(3) if i not in outer)
            piece = cube_piece(p)
            # A wing's stickers in the order that makes (a x b) point along +inner
            # axis times the sign of its inner coordinate: a wing cannot flip.
            a, b = piece.stickers
            along = [0, 0, 0]
            along[inner] = p[inner]
            if dot(cross(a, b), along) < 0:
                piece.stickers = [b, a]
            piece.name = "".join(face_name(n) for n in piece.stickers) + ("a" if dot(cross(*piece.stickers), along) > 0 else "b")
            wings.append(piece)
        elif len(outer) == 1:
            n = [0, 0, 0]
            n[outer[0]] = 1 if p[outer[0]] > 0 else -1
            f = face_name(tuple(n))
            centres.append(Piece(f, p, [tuple(n)]))
    # Wings named by face pair (U/D/F/B first) and the slot: 1 or 2 along the edge.
    def wing_key(p):
        faces = "".join(sorted(face_name(n) for n in p.stickers))
        return faces, p.pos
    wings.sort(key=lambda p: ("UDFBRL".index(face_name(p.stickers[0])), wing_key(p)))
    names = {}
    for p in wings:
        base = "".join(sorted((face_name(n) for n in p.stickers), key="UDFBRL".index))
        k = sum(1 for q in names.values() if q == base) + 1
        names[p.name] = base
        p.name = f"{base}{k}"
    # Centres: face letter and 1..4 reading order.
    for f in "UDFBRL":
        cs = sorted((p for p in centres if p.name == f), key=lambda p: p.pos)
        for i, p in enumerate(cs):
            p.name = f"{f}{i + 1}"
    centres.sort(key=lambda p: ("UDFBRL".index(p.name[0]), p.name))
    edge_order = ["UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL"]
    wings.sort(key=lambda p: (edge_order.index(p.name[:2]), p.name))
    print("  orbit corners 8 orient 3 { " + " ".join(p.name for p in corners) + " }")
    print("  orbit wings 24 { " + " ".join(p.name for p in wings) + " }")
    print("  orbit centres 24 { " + " ".join(p.name for p in centres) + " }")
    print("  solved centres { " + " ".join(p.name[0] for p in centres) + " }")
    for m, axis, lo, hi in (("U", (0, 1, 0), 1, 2), ("R", (1, 0, 0), 1, 2), ("F", (0, 0, 1), 1, 2),
                            ("u", (0, 1, 0), 0, 1), ("d", (0, -1, 0), 0, 1), ("r", (1, 0, 0), 0, 1),
                            ("l", (-1, 0, 0), 0, 1), ("f", (0, 0, 1), 0, 1), ("b", (0, 0, -1), 0, 1)):
        # Outer layers (U, R, F) hold the pieces at 1.5 along the axis, inner
        # slices those at 0.5.
        side = lambda p, axis=axis, hi=hi: abs(dot(p.pos, axis) - (1.5 if hi == 2 else 0.5)) < 0.25
        emit(m, [("corners", move_cycles(corners, axis, -math.pi / 2, side, 3)),
                 ("wings", move_cycles(wings, axis, -math.pi / 2, side, 0)),
                 ("centres", move_cycles(centres, axis, -math.pi / 2, side, 0))])


def pyraminx(tips):
    v = {"U": (1, 1, 1), "L": (-1, -1, 1), "R": (1, -1, -1), "B": (-1, 1, -1)}
    names = "ULRB"
    edges = []
    for i, j in itertools.combinations(names, 2):
        others = [k for k in names if k not in (i, j)]
        edges.append(Piece(i + j, scale(add(v[i], v[j]), 0.5), [scale(v[k], -1) for k in others]))
    centres = [Piece(i, scale(v[i], 0.7), [scale(v[k], -1) for k in names if k != i]) for i in names]
    tipp = [Piece(i, v[i], [scale(v[k], -1) for k in names if k != i]) for i in names]
    print("  orbit edges 6 orient 2 { " + " ".join(p.name for p in edges) + " }")
    print("  orbit centres 4 orient 3 { " + " ".join(p.name for p in centres) + " }")
    if tips:
        print("  orbit tips 4 orient 3 { " + " ".join(p.name for p in tipp) + " }")
    for m in names:
        a = v[m]
        near = lambda p, a=a: dot(unit(p.pos), unit(a)) > 0.2
        parts = [("edges", move_cycles(edges, a, -2 * math.pi / 3, near, 2)),
                 ("centres", move_cycles(centres, a, -2 * math.pi / 3, near, 3))]
        if tips:
            parts.append(("tips", move_cycles(tipp, a, -2 * math.pi / 3, near, 3)))
        emit(m, parts)
    if tips:
        for m in names:
            a = v[m]
            emit(m.lower(), [("tips", move_cycles(tipp, a, -2 * math.pi / 3, lambda p, a=a: close(p.pos, a), 3))])


def megaminx():
    phi = (1 + math.sqrt(5)) / 2
    # Dodecahedron face normals = icosahedron vertices.
    raw = [(0, 1, phi), (0, -1, phi), (0, 1, -phi), (0, -1, -phi), (1, phi, 0), (-1, phi, 0),
           (1, -phi, 0), (-1, -phi, 0), (phi, 0, 1), (-phi, 0, 1), (phi, 0, -1), (-phi, 0, -1)]
    normals = [unit(n) for n in raw]
    up = normals[0]
    # Name faces: U (top), the upper ring F R BR BL L, the lower ring DR DBR B DBL DL... by angle.
    down = scale(up, -1)
    upper = sorted([n for n in normals if 0.3 < dot(n, up) < 0.9], key=lambda n: math.atan2(dot(cross(up, n), (0, 1, 0)), dot(n, (0, 1, 0))))
    lower = sorted([n for n in normals if -0.9 < dot(n, up) < -0.3], key=lambda n: math.atan2(dot(cross(up, n), (0, 1, 0)), dot(n, (0, 1, 0))))
    fname = {}
    fname[up] = "U"
    fname[next(n for n in normals if close(n, down))] = "D"
    # Upper ring counter-clockwise seen from U: F L BL BR R (so that F's right is R).
    ring_u = ["F", "L", "BL", "BR", "R"]
    # The ring order by angle; start at the face nearest +y ("front").
    ang = lambda n: math.atan2(dot(cross(up, (0, 1, 0)), n), dot(n, (0, 1, 0)))
    upper = sorted(upper, key=lambda n: -dot(n, (0, 1, 0)))
    f0 = upper[0]
    def ccw(n, ref): return math.atan2(dot(cross(ref, n), up), dot(ref, n)) % (2 * math.pi)
    upper = sorted(upper, key=lambda n: ccw(n, f0))
    for n, nm in zip(upper, ring_u):
        fname[n] = nm
    # Lower ring: the face below each pair of upper faces; DR below F/R etc.
    lower_names = {}
    for n in lower:
        adj = sorted([fname[u] for u in upper if dot(u, n) > 0.3])
        lower_names[tuple(adj)] = n
    mapping = {("F", "R"): "DR", ("F", "L"): "DL", ("BL", "L"): "DBL", ("BL", "BR"): "B", ("BR", "R"): "DBR"}
    for k, n in lower_names.items():
        fname[n] = mapping[k]
    order = ["U", "F", "R", "L", "BR", "BL", "DR", "DL", "DBR", "DBL", "B", "D"]
    faces = sorted(normals, key=lambda n: order.index(fname[n]))
    adjacent = lambda a, b: 0.3 < dot(a, b) < 0.9
    edges, corners = [], []
    for a, b in itertools.combinations(faces, 2):
        if adjacent(a, b):
            edges.append(Piece(fname[a] + "_" + fname[b], add(a, b), [a, b]))
    for a, b, c in itertools.combinations(faces, 3):
        if adjacent(a, b) and adjacent(b, c) and adjacent(a, c):
            p = Piece("", add(add(a, b), c), [a, b, c])
            p.name = "_".join(fname[n] for n in p.stickers)
            corners.append(p)
    name_of = lambda p: "_".join(fname[n] for n in p.stickers)
    print("  orbit corners 20 orient 3 { " + " ".join(p.name for p in corners) + " }")
    print("  orbit edges 30 orient 2 { " + " ".join(p.name for p in edges) + " }")
    for n in faces:
        on = lambda p, n=n: any(close(s, n) for s in p.stickers)
        emit(fname[n], [("corners", move_cycles(corners, n, -2 * math.pi / 5, on, 3)),
                        ("edges", move_cycles(edges, n, -2 * math.pi / 5, on, 2))])


if __name__ == "__main__":
    which = sys.argv[1]
    {"skewb": skewb, "ivy": ivy, "domino332": domino, "cube4": cube4, "megaminx": megaminx,
     "pyraminx": lambda: pyraminx(False), "pyraminx_tips": lambda: pyraminx(True)}[which]()
