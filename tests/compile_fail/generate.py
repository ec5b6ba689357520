#!/usr/bin/env python3
"""Generates one compile-fail snippet per requirement message of the concept headers.

Usage:
    generate.py            (re)write tests/compile_fail/generated/ from the headers
    generate.py --check    exit 1 when generated/ differs from what the headers give (a message
                           text or a requirement changed: regenerate, and review the diff)
    generate.py --list     print the snippet file names in generated/ (meson registers them)

The message table is read from the headers themselves: every `require_*()` function of
include/neuronrw/concepts/ir.hpp, include/neuronrw/concepts/host.hpp and
include/neuronrw/algorithms/ancestry.hpp is a chain of `NEURONRW_*_CHECK(condition, "message")`
entries, optionally preceded by `if constexpr (!concept<G>) { return require_other<G>(); }`
(the weaker layer's chain). Each condition names one requirement concept
(`concepts_detail::has_kind<G>`); the archetypes (tests/archetype/) have one `Without` bit of the
same name (`archetype::ir_req::has_kind`).

For an entry E of require_F, the snippet instantiates require_F<A>() where A is the archetype of
F's layer that provides exactly the requirements F's chain checks, minus E's. It must fail with
E's message and with exactly one error (the first missing requirement, and nothing else). With
-DNEURONRW_COMPILE_FAIL_CONTROL the same archetype keeps E's requirement and require_F<A>() must
hold, which proves the archetype provides everything the chain asks for and that E alone makes
the difference. check.py runs both compiles.
"""
import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(HERE, "generated")

# One family per archetype template. `layers` maps the require_* functions of the family's
# concept header (the first source) to the archetype's layer names, weakest first.
FAMILIES = {
    "ir": {
        "concept_header": "neuronrw/concepts/ir.hpp",
        "archetype_header": "archetype/archetype_ir.hpp",
        "template": "a::ir_at<a::layer::{layer}, {without}>",
        "bit": "a::ir_req::{name}",
        "layers": [("read_ir", "read"), ("ordered_ir", "ordered"), ("reschedulable_ir", "reschedulable"),
                   ("groupable_ir", "groupable"), ("outlinable_ir", "outlinable")],
    },
    "host": {
        "concept_header": "neuronrw/concepts/host.hpp",
        "archetype_header": "archetype/host_archetype.hpp",
        "template": "a::host_at<a::host_layer::{layer}, {without}>",
        "bit": "a::host_req::{name}",
        "layers": [("host_program", "program"), ("rewritable_host_program", "rewritable")],
    },
}

# (header under include/, family, snippet name prefix). Concept headers come first: they define
# which layer each requirement belongs to.
SOURCES = [
    ("neuronrw/concepts/ir.hpp", "ir", "ir"),
    ("neuronrw/concepts/host.hpp", "host", "host"),
    ("neuronrw/algorithms/ancestry.hpp", "ir", "ancestry"),
]


class GenerateError(Exception):
    pass


def skip_literal(text, i):
    """i at an opening quote; returns the index just past the closing one."""
    q = text[i]
    i += 1
    while text[i] != q:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def matching(text, i, open_ch, close_ch):
    """i at open_ch; returns the index of its matching close_ch, skipping literals and comments."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_literal(text, i)
            continue
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise GenerateError(f"unbalanced {open_ch}")


def split_top_level_comma(args):
    i = 0
    depth = 0
    while i < len(args):
        c = args[i]
        if c in "\"'":
            i = skip_literal(args, i)
            continue
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            return args[:i], args[i + 1:]
        i += 1
    raise GenerateError(f"no top-level comma in: {args[:80]}")


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


def string_value(literals):
    """The value of a sequence of adjacent C++ string literals."""
    out = []
    pos = 0
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', literals):
        if literals[pos:m.start()].strip():
            raise GenerateError(f"not a string literal sequence: {literals.strip()[:80]}")
        out.append(re.sub(r"\\(.)", lambda e: ESCAPES[e.group(1)], m.group(1)))
        pos = m.end()
    if literals[pos:].strip() or not out:
        raise GenerateError(f"not a string literal sequence: {literals.strip()[:80]}")
    return "".join(out)


def requirement_name(condition):
    """`concepts_detail::has_kind<G>` -> `has_kind`."""
    m = re.fullmatch(r"\s*(?:\w+::)*(\w+)<\w+>\s*", condition)
    if not m:
        raise GenerateError(f"condition `{condition.strip()}` is not a named requirement concept; "
                            "the generator maps each entry to an archetype bit by that name")
    return m.group(1)


def parse_header(path):
    """[(function, delegate or None, [(requirement, message)])] in header order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    funcs = []
    for m in re.finditer(r"constexpr bool require_(\w+)\(\)\s*\{", text):
        body_start = m.end() - 1
        body = text[body_start:matching(text, body_start, "{", "}") + 1]
        delegate = re.search(r"return require_(\w+)<\w+>\(\);", body)
        entries = []
        for c in re.finditer(r"NEURONRW_\w+_CHECK\(", body):
            open_at = c.end() - 1
            args = body[open_at + 1:matching(body, open_at, "(", ")")]
            condition, literals = split_top_level_comma(args)
            entries.append((requirement_name(condition), string_value(literals)))
        if not entries:
            raise GenerateError(f"{path}: require_{m.group(1)} has no NEURONRW_*_CHECK entry")
        funcs.append((m.group(1), delegate.group(1) if delegate else None, entries))
    if not funcs:
        raise GenerateError(f"{path}: no require_* function")
    return funcs


def snippets():
    """{file name: text} for every entry of every source."""
    layer_of = {fam: {} for fam in FAMILIES}  # family -> requirement -> layer index
    own = {}  # (family, function) -> (delegate, entries)
    out = {}
    for header, fam_name, prefix in SOURCES:
        fam = FAMILIES[fam_name]
        layer_names = [l for _, l in fam["layers"]]
        path = os.path.join(ROOT, "include", header)
        funcs = parse_header(path)
        if header == fam["concept_header"]:
            by_func = dict(fam["layers"])
            for func, _, entries in funcs:
                if func not in by_func:
                    raise GenerateError(f"{header}: require_{func} has no archetype layer in generate.py")
                for req, _ in entries:
                    layer_of[fam_name][req] = layer_names.index(by_func[func])
        for func, delegate, entries in funcs:
            own[(fam_name, func)] = (delegate, entries)

        def needed(func):
            delegate, entries = own[(fam_name, func)]
            reqs = [r for r, _ in entries]
            return (needed(delegate) if delegate else []) + reqs

        for func, _, entries in funcs:
            reqs = needed(func)
            unknown = [r for r in reqs if r not in layer_of[fam_name]]
            if unknown:
                raise GenerateError(f"{header}: require_{func} checks {unknown}, which no require_* of "
                                    f"{fam['concept_header']} checks; the archetype cannot remove it")
            level = max(layer_of[fam_name][r] for r in reqs)
            # Everything the archetype of that layer has that the chain does not ask for.
            extra = [r for r, l in layer_of[fam_name].items() if l <= level and r not in reqs]
            for req, message in entries:
                name = f"{prefix}_{func}_{req}.cpp"
                out[name] = render(header, fam, layer_names[level], func, req, message, extra)
    return out


def render(header, fam, layer, func, req, message, extra):
    bits = [fam["bit"].format(name=r) for r in extra]
    kept = "0u" if not bits else " | ".join(bits)
    what = (f"the archetype of layer `{layer}` with requirement `{req}` removed" if not extra else
            f"an archetype of layer `{layer}` that provides only what require_{func} checks, "
            f"without `{req}`")
    lines = [
        f"// GENERATED by tests/compile_fail/generate.py from include/{header}; do not edit.",
        "// After changing a requirement or its message there, run `python3 tests/compile_fail/generate.py`",
        "// and review the diff.",
        "//",
    ] + ["// " + l for l in textwrap.wrap(
        f"require_{func}<A>() on {what} fails with that requirement's message and no other error. "
        "With the requirement (CONTROL) it holds.", 96)] + [
        f"#include <{header}>",
        f'#include "{fam["archetype_header"]}"',
        "",
        "namespace a = neuronrw::archetype;",
        "#ifdef NEURONRW_COMPILE_FAIL_CONTROL",
        "constexpr unsigned removed = 0u;",
        "#else",
        f"constexpr unsigned removed = {fam['bit'].format(name=req)};",
        "#endif",
        f"// The requirements require_{func} does not check, which the archetype of its layer has.",
        f"constexpr unsigned unchecked = {kept};",
        f"using A = {fam['template'].format(layer=layer, without='unchecked | removed')};",
        "",
        "#ifdef NEURONRW_COMPILE_FAIL_CONTROL",
        f"static_assert(neuronrw::require_{func}<A>());",
        "#else",
        f"// expected-error: {message}",
        "// expected-error-count: 1",
        f"[[maybe_unused]] constexpr bool checked = neuronrw::require_{func}<A>();",
        "#endif",
        "",
    ]
    return "\n".join(lines)


def main(argv):
    mode = argv[1] if len(argv) > 1 else "--write"
    if mode == "--list":
        for name in sorted(os.listdir(OUT_DIR)):
            if name.endswith(".cpp"):
                print(name)
        return 0
    try:
        want = snippets()
    except GenerateError as e:
        print(f"generate.py: {e}", file=sys.stderr)
        return 1
    have = {n: open(os.path.join(OUT_DIR, n), encoding="utf-8").read()
            for n in (os.listdir(OUT_DIR) if os.path.isdir(OUT_DIR) else []) if n.endswith(".cpp")}
    if mode == "--check":
        stale = sorted(n for n in have if n not in want)
        missing = sorted(n for n in want if n not in have)
        changed = sorted(n for n in want if n in have and have[n] != want[n])
        for label, names in (("no longer generated", stale), ("not generated yet", missing), ("out of date", changed)):
            for n in names:
                print(f"tests/compile_fail/generated/{n}: {label}")
        for n in changed:
            old = [l for l in have[n].splitlines() if l not in want[n].splitlines()]
            new = [l for l in want[n].splitlines() if l not in have[n].splitlines()]
            print("\n".join(f"  - {l}" for l in old))
            print("\n".join(f"  + {l}" for l in new))
        if stale or missing or changed:
            print("A requirement or its message changed: run `python3 tests/compile_fail/generate.py` and "
                  "review the diff of tests/compile_fail/generated/.")
            return 1
        print(f"{len(want)} generated compile-fail snippets match the headers")
        return 0
    if mode != "--write":
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(OUT_DIR, exist_ok=True)
    for n in have:
        if n not in want:
            os.remove(os.path.join(OUT_DIR, n))
    for n, text in want.items():
        if have.get(n) != text:
            with open(os.path.join(OUT_DIR, n), "w", encoding="utf-8") as f:
                f.write(text)
    print(f"wrote {len(want)} snippets to {os.path.relpath(OUT_DIR, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
