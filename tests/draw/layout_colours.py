#!/usr/bin/env python3
"""layout_colours.py PZC PUZZLE...: for every move (each declared move in
each of its named powers) of each puzzle with a layout, `pzc draw --scramble
MOVE` colours every sticker as `pzc run MOVE`'s state implies by note
[sticker slots] (slot k of a position shows the sticker (k - o) mod n of the
piece there), fills it with its face's colour, and keeps every colour's
count. Face-turning puzzles (cube2, cube3, megaminx) are also checked
physically: the turned face stays its colour, and every other face either
keeps all its stickers or changes one strip (3 stickers; 2 on cube2), all of
one colour. Exit 1 with a message on the first mismatch."""
import collections
import re
import subprocess
import sys
import xml.dom.minidom

STRIP = {"cube3": 3, "cube2": 2, "megaminx": 3}


def layout_of(path):
    """faces {name: colour}, stickers {(orbit, position, slot): face}."""
    text = open(path).read()
    body = text[text.index("layout {"):]
    faces = dict(re.findall(r'^\s*face (\w+) "?([#\w]+)"?;', body, re.M))
    stickers = {}
    for orbit, position, slot, face in re.findall(r"^\s*(\w+) (\w+) (\d+) (?:at|polygon) [\d. ]+ (\w+);", body, re.M):
        stickers[(orbit, position, int(slot))] = face
    return faces, stickers


def moves_of(path):
    text = open(path).read()
    names = re.findall(r"^\s*move\s+(\w+)\s*=", text, re.M)
    powers = re.search(r"powers\s*\{([^}]*)\}", text)
    suffixes = re.findall(r'-?\d+:\s*"([^"]*)"', powers.group(1)) if powers else [""]
    return [n + s for n in names for s in suffixes]


def run(pzc, path, move):
    out = subprocess.run([pzc, "run", path, move], capture_output=True, text=True, check=True).stdout
    state = {}
    for line in out.splitlines():
        m = re.match(r"(\w+): (.*)", line)
        if m and m.group(1) not in ("solved", "order"):
            for item in m.group(2).split():
                p, q = item.split("=")
                piece, _, twist = q.partition("+")
                state[(m.group(1), p)] = (piece, int(twist or 0))
    return state


def drawn(pzc, path, move):
    svg = subprocess.run([pzc, "draw", path] + (["--scramble", move] if move else []), capture_output=True,
                         text=True, check=True).stdout
    doc = xml.dom.minidom.parseString(svg)
    out = {}
    for node in doc.getElementsByTagName("*"):
        if "sticker" in node.getAttribute("class").split() and node.hasAttribute("data-orbit"):
            out[node.getAttribute("id")] = (node.getAttribute("data-face"), node.getAttribute("fill"))
    return out


def check(pzc, name):
    path = f"puzzles/{name}.pz"
    faces, stickers = layout_of(path)
    orient = collections.Counter((o, p) for o, p, _ in stickers)
    names = {}  # (orbit, position name) -> index, as ids number positions
    for o, p, _ in stickers:
        names.setdefault(o, [])
        if p not in names[o]:
            names[o].append(p)
    solved = drawn(pzc, path, "")
    solved_count = collections.Counter(f for f, _ in solved.values())
    for move in moves_of(path):
        state, picture = run(pzc, path, move), drawn(pzc, path, move)
        for (o, p, k), _ in stickers.items():
            q, t = state[(o, p)]
            n = orient[(o, p)]
            want = stickers[(o, q, (k - t) % n)]
            sid = f"{o}-l{names[o].index(p)}-o{k}"
            got = picture.get(sid)
            if got != (want, faces[want]):
                sys.exit(f"FAIL {name} {move}: {sid} ({p} slot {k}) shows {got}, expected face {want}")
        if collections.Counter(f for f, _ in picture.values()) != solved_count:
            sys.exit(f"FAIL {name} {move}: the colour counts changed")
        if name in STRIP and move in re.findall(r"^\s*move\s+(\w+)", open(path).read(), re.M):
            home = {sid: f for sid, (f, _) in solved.items()}
            for face in faces:
                changed = [picture[s][0] for s, f in home.items() if f == face and picture[s][0] != f]
                if face == move and changed:
                    sys.exit(f"FAIL {name} {move}: the turned face {face} changed colour")
                if changed and (len(changed) != STRIP[name] or len(set(changed)) != 1):
                    sys.exit(f"FAIL {name} {move}: face {face} changed {changed}, expected one strip of "
                             f"{STRIP[name]} stickers of one colour")
    print(f"ok {name}: {len(moves_of(path))} moves")


if __name__ == "__main__":
    for puzzle in sys.argv[2:]:
        check(sys.argv[1], puzzle)
