#!/usr/bin/env python3
"""Generates one compile-fail snippet per requirement message of the concept headers.

Usage:
    generate.py --sources           print the files the generator reads, relative to the
                                    repository root, one a line (meson makes them configure
                                    dependencies, so the list of tests follows the headers)
    generate.py --list [FILE...]    print the snippet file names, one a line. FILE... are the
                                    files of --sources, passed back by meson only so that it
                                    reconfigures when one changes; they must be exactly those.
    generate.py --out-dir DIR       write every snippet into DIR (the build does, into the build
                                    directory; nothing generated is committed)
    generate.py --verify            the test: the headers yield snippets, every NEURONRW_*_CHECK
                                    entry of them is one, every header with a message table is
                                    read, and the generator rejects broken tables (self-test)

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

# One family per archetype template. `layers` maps the require_* functions of the family's
# concept header (the first source) to the archetype's layer names, weakest first; `req_enum` is
# the namespace of the archetype's requirement bits.
FAMILIES = {
    "ir": {
        "concept_header": "neuronrw/concepts/ir.hpp",
        "archetype_header": "archetype/archetype_ir.hpp",
        "req_enum": "ir_req",
        "template": "a::ir_at<a::layer::{layer}, {without}>",
        "bit": "a::ir_req::{name}",
        "layers": [("read_ir", "read"), ("ordered_ir", "ordered"), ("reschedulable_ir", "reschedulable"),
                   ("groupable_ir", "groupable"), ("outlinable_ir", "outlinable")],
    },
    "host": {
        "concept_header": "neuronrw/concepts/host.hpp",
        "archetype_header": "archetype/host_archetype.hpp",
        "req_enum": "host_req",
        "template": "a::host_at<a::host_layer::{layer}, {without}>",
        "bit": "a::host_req::{name}",
        # buildable_host_program sits on host_program, not on rewritable_host_program; the
        # buildable layer of the archetype has both, so its snippets remove 15-17 as unchecked.
        "layers": [("host_program", "program"), ("rewritable_host_program", "rewritable"),
                   ("buildable_host_program", "buildable")],
    },
}

# (header under include/, family, snippet name prefix). Concept headers come first: they define
# which layer each requirement belongs to.
SOURCES = [
    ("neuronrw/concepts/ir.hpp", "ir", "ir"),
    ("neuronrw/concepts/host.hpp", "host", "host"),
    ("neuronrw/algorithms/ancestry.hpp", "ir", "ancestry"),
]

# The macro every message table expands to; the header defining it has no table of its own.
CHECK_MACRO_HEADER = "neuronrw/detail/requirement_check.hpp"


def source_files():
    """Every file the snippets depend on, relative to ROOT: the message tables and the archetypes."""
    headers = ["include/" + h for h, _, _ in SOURCES]
    archetypes = sorted({"tests/" + f["archetype_header"] for f in FAMILIES.values()})
    return headers + archetypes


def read_file(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


class GenerateError(Exception):
    pass


def skip_literal(text, i):
    """i at an opening quote; returns the index just past the closing one."""
    q = text[i]
    i += 1
    while text[i] != q:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def code_chars(text, i=0):
    """(index, character) of text from i on, passing over string/char literals and // comments."""
    while i < len(text):
        if text[i] in "\"'":
            i = skip_literal(text, i)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return
        else:
            yield i, text[i]
            i += 1


def matching(text, i, open_ch, close_ch):
    """i at open_ch; returns the index of its matching close_ch."""
    depth = 0
    for j, c in code_chars(text, i):
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j
    raise GenerateError(f"unbalanced {open_ch}")


def split_top_level_comma(args):
    """`a<x, y>, "m"` -> (`a<x, y>`, ` "m"`): the split at the first comma outside brackets."""
    depth = 0
    for i, c in code_chars(args):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            return args[:i], args[i + 1:]
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


def check_uses(text):
    """How many NEURONRW_*_CHECK( uses the text has outside comments and #define/#undef lines."""
    lines = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    code = "".join(c for _, c in code_chars(lines))
    return len(re.findall(r"\bNEURONRW_\w+_CHECK\(", code))


def parse_header(name, text):
    """[(function, delegate or None, [(requirement, message)])] in header order."""
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
            raise GenerateError(f"{name}: require_{m.group(1)} has no NEURONRW_*_CHECK entry")
        funcs.append((m.group(1), delegate.group(1) if delegate else None, entries))
    if not funcs:
        raise GenerateError(f"{name}: no `constexpr bool require_*()` function")
    # An entry outside the functions found above (another spelling of the function, a table
    # written some new way) would silently get no test.
    found = sum(len(entries) for _, _, entries in funcs)
    if check_uses(text) != found:
        raise GenerateError(f"{name}: {check_uses(text)} NEURONRW_*_CHECK uses, but only {found} lie in "
                            "`constexpr bool require_*() {{ ... }}` functions the generator reads")
    return funcs


def requirement_bits(name, text, enum):
    """The bit names of `namespace <enum> { enum : unsigned { name = 1u << N, ... } }`."""
    m = re.search(r"namespace " + enum + r" \{\s*enum : unsigned \{(.*?)\};", text, re.S)
    if not m:
        raise GenerateError(f"{name}: no `namespace {enum} {{ enum : unsigned {{ ... }} }}`")
    return set(re.findall(r"(\w+)\s*=\s*1u\s*<<", m.group(1)))


def snippets(read=read_file):
    """{file name: text} for every entry of every source; `read(path relative to ROOT)`."""
    layer_of = {fam: {} for fam in FAMILIES}  # family -> requirement -> layer index
    own = {}  # (family, function) -> (delegate, entries)
    out = {}
    for header, fam_name, prefix in SOURCES:
        fam = FAMILIES[fam_name]
        layer_names = [l for _, l in fam["layers"]]
        funcs = parse_header(header, read("include/" + header))
        if header == fam["concept_header"]:
            by_func = dict(fam["layers"])
            arch = "tests/" + fam["archetype_header"]
            bits = requirement_bits(arch, read(arch), fam["req_enum"])
            for func, _, entries in funcs:
                if func not in by_func:
                    raise GenerateError(f"{header}: require_{func} has no archetype layer in generate.py")
                for req, _ in entries:
                    if req not in bits:
                        raise GenerateError(f"{header}: require_{func} checks `{req}`, but {arch} has no "
                                            f"`{fam['req_enum']}::{req}` bit to remove it with")
                    layer_of[fam_name][req] = layer_names.index(by_func[func])
        for func, delegate, entries in funcs:
            own[(fam_name, func)] = (delegate, entries)

        def needed(func):
            if (fam_name, func) not in own:
                raise GenerateError(f"{header}: delegates to require_{func}, which no header of the "
                                    f"family read before it defines")
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
                if name in out:
                    raise GenerateError(f"{header}: require_{func} checks `{req}` twice")
                out[name] = render(header, fam, layer_names[level], func, req, message, extra)
    return out


def render(header, fam, layer, func, req, message, extra):
    bits = [fam["bit"].format(name=r) for r in extra]
    kept = "0u" if not bits else " | ".join(bits)
    what = (f"the archetype of layer `{layer}` with requirement `{req}` removed" if not extra else
            f"an archetype of layer `{layer}` that provides only what require_{func} checks, "
            f"without `{req}`")
    lines = [
        f"// GENERATED at build time by tests/compile_fail/generate.py from include/{header}.",
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


def unread_tables():
    """Headers under include/ that use the requirement-check macro but are not in SOURCES."""
    known = {h for h, _, _ in SOURCES} | {CHECK_MACRO_HEADER}
    found = []
    for dirpath, _, names in os.walk(os.path.join(ROOT, "include")):
        for n in names:
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, os.path.join(ROOT, "include")).replace(os.sep, "/")
            if n.endswith(".hpp") and rel not in known:
                with open(path, encoding="utf-8") as f:
                    if "NEURONRW_REQUIREMENT_CHECK(" in f.read():
                        found.append(rel)
    return sorted(found)


# Broken tables the generator must refuse (--verify): (what is wrong, the file it replaces,
# its text, a word the error must contain). If one is accepted, a header written that way would
# silently lose its tests.
CHAIN = "template <class G>\nconstexpr bool require_read_ir() {{\n  if constexpr (false) {{}}\n{}  else return true;\n}}\n"
BROKEN_TABLES = [
    ("a header without a require_* function", "include/neuronrw/concepts/ir.hpp",
     "#pragma once\nint nothing_here;\n", "no `constexpr bool require_*()`"),
    ("a condition that is not one named concept", "include/neuronrw/concepts/ir.hpp",
     CHAIN.format('  NEURONRW_IR_CHECK(concepts_detail::has_kind<G> || true, "kind")\n'),
     "not a named requirement concept"),
    ("a message that is not a string literal", "include/neuronrw/concepts/ir.hpp",
     CHAIN.format("  NEURONRW_IR_CHECK(concepts_detail::has_kind<G>, KIND_MESSAGE)\n"), "not a string literal"),
    ("an entry outside a require_* function the generator reads", "include/neuronrw/concepts/ir.hpp",
     CHAIN.format('  NEURONRW_IR_CHECK(concepts_detail::has_kind<G>, "kind")\n') +
     'template <class G>\nconsteval bool require_other() {\n  if constexpr (false) {}\n'
     '  NEURONRW_IR_CHECK(concepts_detail::has_users<G>, "users")\n  else return true;\n}\n',
     "only 1 lie in"),
    ("a require_* function with no entry", "include/neuronrw/concepts/ir.hpp",
     "template <class G>\nconstexpr bool require_read_ir() {\n  return true;\n}\n", "has no NEURONRW_*_CHECK entry"),
    ("a requirement the archetype has no bit for", "include/neuronrw/concepts/ir.hpp",
     CHAIN.format('  NEURONRW_IR_CHECK(concepts_detail::has_teleport<G>, "teleport")\n'), "no `ir_req::has_teleport` bit"),
    ("an algorithm requirement no concept checks", "include/neuronrw/algorithms/ancestry.hpp",
     CHAIN.format('  NEURONRW_ANCESTRY_CHECK(ancestry_detail::has_magic<G>, "magic")\n').replace("read_ir", "magic_ir"),
     "which no require_* of"),
]


def verify():
    """The test: 0 when the headers give a full set of snippets and broken tables are refused."""
    failures = []
    try:
        made = snippets()
    except GenerateError as e:
        failures.append(f"a message table cannot be turned into snippets: {e}")
        made = {}
    if not failures and not made:
        failures.append("the headers gave no snippet at all")
    for header, _, prefix in SOURCES:
        if made and not any(n.startswith(prefix + "_") for n in made):
            failures.append(f"include/{header} gave no snippet")
    for rel in unread_tables():
        failures.append(f"include/{rel} uses NEURONRW_REQUIREMENT_CHECK but is not in generate.py's SOURCES: "
                        "its messages get no compile-fail test")
    for what, replaced, text, expected in BROKEN_TABLES:
        try:
            snippets(lambda rel, replaced=replaced, text=text: text if rel == replaced else read_file(rel))
            failures.append(f"self-test: {what} was accepted")
        except GenerateError as e:
            if expected not in str(e):
                failures.append(f"self-test: {what} was refused for another reason: {e}")
    for f in failures:
        print(f"generate.py --verify: {f}")
    if failures:
        return 1
    per_source = ", ".join(f"{sum(n.startswith(p + '_') for n in made)} from include/{h}" for h, _, p in SOURCES)
    print(f"{len(made)} snippets ({per_source}); {len(BROKEN_TABLES)} broken tables refused")
    return 0


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "--sources":
        print("\n".join(source_files()))
        return 0
    if mode == "--verify":
        return verify()
    try:
        if mode == "--list":
            given = sorted(os.path.realpath(p) for p in argv[2:])
            wanted = sorted(os.path.realpath(os.path.join(ROOT, p)) for p in source_files())
            if given and given != wanted:
                raise GenerateError(f"--list was given {given}, but the generator reads {wanted}")
            print("\n".join(sorted(snippets())))
            return 0
        if mode == "--out-dir" and len(argv) == 3:
            os.makedirs(argv[2], exist_ok=True)
            for n, text in snippets().items():
                with open(os.path.join(argv[2], n), "w", encoding="utf-8") as f:
                    f.write(text)
            return 0
    except GenerateError as e:
        print(f"generate.py: {e}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
