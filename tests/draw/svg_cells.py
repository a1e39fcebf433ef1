#!/usr/bin/env python3
"""svg_cells.py FILE: parse FILE as XML (exit 1 if it is not) and print one
line per element with an id: the id, then its data-* attributes as
name=value in document order; then 'caption: ...' for each frame's caption
and 'title: ...' for the root <title>."""
import sys
import xml.dom.minidom

try:
    doc = xml.dom.minidom.parse(sys.argv[1])
except Exception as e:  # any parse error: not well-formed
    print("not XML: %s" % e, file=sys.stderr)
    sys.exit(1)
root = doc.documentElement
for node in root.getElementsByTagName("*"):
    if node.hasAttribute("id"):
        data = ["%s=%s" % (a.name[5:], a.value) for a in node.attributes.values() if a.name.startswith("data-")]
        print(" ".join([node.getAttribute("id")] + data))
def text(node):
    return "".join(t.data for t in node.childNodes if t.nodeType == t.TEXT_NODE)


for node in root.getElementsByTagName("text"):
    if node.getAttribute("class") == "caption":
        print("caption: " + text(node))
for node in root.childNodes:
    if node.nodeType == node.ELEMENT_NODE and node.tagName == "title":
        print("title: " + text(node))
