#!/usr/bin/env python3
"""Writes cmake/startup_order.txt: the functions short shapevm commands run, for the gold linker to
place together in the program's code (cmake/static_runtime.cmake says why).

    cmake/startup_order.py BUILD_DIR [OUT]

BUILD_DIR is a built tree (its shapevm and its examples/ folder, which the build makes). Each
command below runs once under Valgrind's callgrind, which lists every function it executed; the
file names them as the linker's per-function code sections (.text.NAME, compiled with
-ffunction-sections), in layers: first what `--version` runs, then what `info` adds, then what
`disasm` and `render` add, each layer sorted by name so the file changes only where the set does.
A function that no longer exists is ignored by the linker, so the file is never wrong, only less
useful, as the program changes; run this again after large changes. Needs valgrind; the build
does not.
"""

import os
import subprocess
import sys
import tempfile


def commands(build):
    """(layer, arguments) of the commands whose functions are placed together, in layer order."""
    shapevm = os.path.join(build, "shapevm")
    examples = os.path.join(build, "examples")
    fa = os.path.join(examples, "fa", "jet.SH")
    apache = os.path.join(examples, "apache", "vehicle", "3DOBJS.BIN")
    shp = os.path.join(examples, "shp", "fighter.SHP")
    bi2 = os.path.join(examples, "bi2", "units.LIB")
    for path in (fa, apache, shp, bi2):
        if not os.path.exists(path):
            sys.exit(f"startup_order.py: {path} is missing (build the examples first)")
    return [
        ("version", [shapevm, "--version"]),
        ("info", [shapevm, "info", fa]),
        ("info", [shapevm, "info", apache + ":#0"]),
        ("info", [shapevm, "info", shp]),
        ("info", [shapevm, "info", bi2 + ":#0"]),
        ("disasm", [shapevm, "disasm", fa]),
        ("render", [shapevm, "render", fa, "-o", "{out}/fa.png"]),
    ]


def program_functions(shapevm):
    """The functions defined in the program's own code: {name: the names at its address}. Names
    that share an address are one function's code under several names (an alias: GCC emits a
    complete-object constructor as one of its base-object constructor, and gives one of two
    identical functions the other's code), which lives in the section of one of them only."""
    result = subprocess.run(["nm", "--defined-only", shapevm], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"startup_order.py: nm {shapevm} failed: {result.stderr.strip()}")
    at = {}
    for parts in (line.split() for line in result.stdout.splitlines()):
        if len(parts) == 3 and parts[1] in "TtWw":
            at.setdefault(parts[0], []).append(parts[2])
    return {name: names for names in at.values() for name in names}


def executed_functions(arguments, workdir):
    """The (mangled) names of every function `arguments` executed, in any object."""
    out_file = os.path.join(workdir, "callgrind.out")
    arguments = [a.replace("{out}", workdir) for a in arguments]
    result = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                             "--compress-strings=no", f"--callgrind-out-file={out_file}",
                             *arguments],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"startup_order.py: {' '.join(arguments)} exited with {result.returncode}:\n"
                 f"{result.stderr[-2000:]}")
    names = set()
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("fn=") or line.startswith("cfn="):
                names.add(line.split("=", 1)[1].strip())
    os.remove(out_file)
    return names


def sections_of(name, aliases):
    """The code sections GCC's -ffunction-sections may have put the function `name` in: static
    initializers and main go to the start-up code's sections, every other function to its own
    .text.NAME, or to the section of a function it is an alias of (`aliases`: every name at its
    address, itself included), so each of those is given."""
    if name == "main" or name.startswith("_GLOBAL__sub_I_"):
        return [f".text.startup.{name}"]
    return [f".text.{alias}" for alias in sorted(set(aliases) | {name})]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    build = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__),
                                                              "startup_order.txt")
    placed = set()
    listed = set()  # sections already written (a base-object constructor may follow its alias)
    lines = ["# The functions short shapevm commands run, placed together in the program's code by the",
             "# linker (cmake/static_runtime.cmake). Written by cmake/startup_order.py; do not edit."]
    layers = []
    defined = program_functions(os.path.join(build, "shapevm"))
    with tempfile.TemporaryDirectory() as workdir:
        for layer, arguments in commands(build):
            # Only the program's own functions; a cold part (NAME.cold) lives in a section of
            # the rarely run code and stays there.
            names = {n for n in executed_functions(arguments, workdir)
                     if n in defined and not n.endswith(".cold")}
            if not layers or layers[-1][0] != layer:
                layers.append((layer, set()))
            layers[-1][1].update(names)
    for layer, names in layers:
        fresh = sorted(names - placed)
        placed.update(fresh)
        lines.append(f"# {layer}: {len(fresh)} functions")
        for name in fresh:
            sections = sections_of(name, defined[name])
            lines.extend(section for section in sections if section not in listed)
            listed.update(sections)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}: {len(placed)} functions", file=sys.stderr)


if __name__ == "__main__":
    main()
