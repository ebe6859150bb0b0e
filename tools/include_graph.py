#!/usr/bin/env python3
"""The include graph of gpuscale's sources: layers that include only downward, and rooms without loops.

A room is a header and its sources (harness/World.hpp, World.cpp: the room harness/World). Room A
depends on room B when any file of A includes a header of B. Three checks, run by the include_graph test:
  - layers: a folder includes only itself and the folders below it (LAYERS, the CMake targets' links);
  - phases: a phase's folder (phases/NAME/, its running half phases/NAME/run/ included) includes no
    other phase's, nor the driver (launch/ beyond launch/base); what phases share lives in a layer
    below, or in the driver;
  - loops: no set of rooms depends on itself round a loop, except the loops pinned in KNOWN_LOOPS,
    which may only shrink: a new loop, a pinned loop that grew, or one that is gone (unpin it) fails.
  include_graph.py [SOURCE_DIR]     prints every finding and exits 1 on any
"""
import os
import re
import sys

# Each layer and the layers it may include (itself always); the links of the CMake targets. A layer is
# a folder or a folder inside one (results/base): a room belongs to the longest that holds it, and a
# layer may include what the layers it names may include.
LAYERS = {
    "results/base": [],
    "judge/base": ["results/base"],
    "results/world": ["results/base"],
    "results/charts": ["results/base"],
    "phases": ["judge/base", "results/charts", "results/world", "results/base"],
    "results/schema": ["results/world", "results/base", "phases"],
    "results/models": ["results/schema"],
    "results/render": ["results/models", "results/charts"],
    "results/views": ["results/render"],
    "results/report": ["results/views"],
    "results": ["results/report"],
    "harness": ["results"],
    "probes": ["harness", "results"],
    "collectives": ["harness", "results"],
    "workloads": ["harness", "results"],
    "judge": ["results", "judge/base"],
    # What a phase's running half faces of launch/: its spec, context and run adapter, the driver's
    # narrow face (PhaseDriver), the plan and what it is resolved from.
    "launch/base": ["collectives", "workloads", "probes", "harness", "results"],
    # A phase's running half: the launch base and the layers under launch.
    "phases/*/run": ["launch/base", "collectives", "workloads", "probes", "harness", "results"],
    "launch": ["launch/base", "phases/*/run", "collectives", "workloads", "judge", "probes", "harness", "results"],
}
RUNNING_HALF = re.compile(r"^phases/[^/]+/run(/|$)")


def layer_of(room):
    """The longest layer whose folder holds `room` (None: outside every layer)."""
    if RUNNING_HALF.match(room):
        return "phases/*/run"
    held = [layer for layer in LAYERS if room == layer or room.startswith(layer + "/")]
    return max(held, key=len) if held else None


def below(layer):
    """Every layer `layer` may include: those it names, and theirs."""
    found, todo = set(), list(LAYERS[layer])
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(LAYERS[name])
    return found


# A phase's folder: its pure half (phases/NAME/) and its running half (phases/NAME/run/).
PHASES = ("phases/",)


def phase_of(room):
    """The phase whose folder holds `room` (None: outside every phase folder)."""
    for prefix in PHASES:
        if room.startswith(prefix):
            rest = room[len(prefix):]
            return rest.split("/")[0] if "/" in rest else None
    return None


def cross_phase_includes(edges):
    found = []
    for room, targets in sorted(edges.items()):
        phase = phase_of(room)
        if phase is None:
            continue
        for target in sorted(targets):
            other = phase_of(target)
            if other is not None and other != phase:
                found.append(f"{room} includes {target}: a phase includes no other phase's files")
    return found


# What a phase's folder faces of launch/ is launch/base/ (its context and the driver's narrow face,
# PhaseDriver, its spec and run adapter, the plan and what it is resolved from). The rest of launch/ is
# the driver's (the Job, the tables, the budget, the outputs), which no phase's folder includes.
def is_driver_include(room, target):
    return phase_of(room) is not None and layer_of(target) == "launch"


def driver_includes(edges):
    found = []
    for room, targets in sorted(edges.items()):
        for target in sorted(targets):
            if is_driver_include(room, target):
                found.append(f"{room} includes {target}: a phase's folder includes of launch/ only launch/base/, "
                             "what a phase faces (PhaseContext, PhaseDriver, PhaseSpec, the plan's headers)")
    return found


# Loops still to break, each as the sorted rooms it joins. Remove one when it is broken.
KNOWN_LOOPS = []

SOURCE_SUFFIXES = (".hpp", ".cpp", ".inl", ".cu", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rooms_and_edges(root):
    edges = {}
    for layer in sorted({name.split("/")[0] for name in LAYERS}):
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for name in files:
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                room = os.path.splitext(path)[0]
                targets = edges.setdefault(room, set())
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    for included in INCLUDE.findall(f.read()):
                        if os.path.exists(os.path.join(root, included)):
                            targets.add(os.path.splitext(included)[0])
                targets.discard(room)
    return edges


def upward_includes(edges):
    found = []
    for room, targets in sorted(edges.items()):
        layer = layer_of(room)
        allowed = below(layer)
        for target in sorted(targets):
            other = layer_of(target)
            if is_driver_include(room, target):
                continue  # driver_includes names it
            if other is not None and other != layer and other not in allowed:
                may = ", ".join(sorted(allowed)) or "itself"
                found.append(f"{room} includes {target}: {layer} may include only {may}")
    return found


def loops(edges):
    """Strongly connected components of more than one room (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            room, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[room] = min(low[room], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[room])
            if low[room] == index[room]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == room:
                        break
                if len(component) > 1:
                    result.append(sorted(component))
    return sorted(result)


def loop_findings(found):
    known = [sorted(k) for k in KNOWN_LOOPS]
    findings = []
    for loop in found:
        if loop in known:
            continue
        if any(set(k) < set(loop) for k in known):
            findings.append("a pinned loop grew, now " + " <-> ".join(loop))
        else:
            findings.append("rooms that include each other round a loop: " + " <-> ".join(loop))
    for k in known:
        if k not in found and not any(set(k) < set(loop) for loop in found):
            findings.append("pinned loop no longer there (remove it from KNOWN_LOOPS): " + " <-> ".join(k))
    return findings


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    edges = rooms_and_edges(root)
    if not edges:
        print(f"include_graph: no sources under {root}")
        return 2
    findings = (upward_includes(edges) + cross_phase_includes(edges) + driver_includes(edges) +
                loop_findings(loops(edges)))
    for line in findings:
        print("include_graph: " + line)
    if not findings:
        print(f"include_graph: {len(edges)} rooms; layers include downward; no phase includes another "
              "nor the driver; "
              f"{len(KNOWN_LOOPS)} pinned loops, no new one")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
