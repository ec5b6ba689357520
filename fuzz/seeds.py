#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora from the repository's test and example inputs.

    fuzz/seeds.py OUTDIR            writes OUTDIR/<target>/ for every target
    fuzz/seeds.py OUTDIR TARGET...  only those targets

Reference IR seeds: every *.mlir under tests/ and examples/ (a file with `// -----` separators,
the driver's --split-input-file, also gives one seed per chunk); for ref_roundtrip, passes and
dot also every op of the syntax table (include/neuronrw/ir/ref/syntax/op_table.hpp) in the
generic form, with its declared operands, results, attributes and regions and bare
(table_texts). Host-program seeds: every *.py under tests/ and examples/ holding `@pl.program` or `@pl.jit`. Targets that read an option byte first
(docs/reliability.md §"Fuzzing") get each text under more than one byte, so every option is in
the corpus. verify_diagnostics and split_input: the inputs of the lit tests (tests/lit) that
hold expectations or split markers, files and split-file parts, behind the option byte their
kind needs (a host program's bit). Seeds are named by content hash (as libFuzzer names its corpus files), so reruns
give the same directory. Prints one line per target: its seed count.
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEARCH = ["tests", "examples"]
SPLIT = re.compile(rb"^// -----\s*$", re.M)


def texts(pattern, keep):
    out = []
    for top in SEARCH:
        for path in sorted((ROOT / top).rglob(pattern)):
            data = path.read_bytes()
            if not keep(data):
                continue
            out.append(data)
            chunks = SPLIT.split(data)
            if len(chunks) > 1:
                out.extend(c for c in chunks if c.strip())
    return out


def mlir_texts():
    return texts("*.mlir", lambda d: True)


TABLE_ENTRY = re.compile(r'\{("(?:[^"\\]|\\.)*"(?:\s*,?\s*"(?:[^"\\]|\\.)*")*)\}')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
TABLE_ATTR = re.compile(r'([A-Za-z_]+)(\??):\s*([^,=]*?)\s*(?:=\s*[^,]*)?$')
# One value of each attribute kind of the syntax table (ir/ref/syntax/op_syntax.hpp's notation).
TABLE_VALUE = {"bool": "true", "i32": "1 : i32", "i64": "1 : i64", "i64s": "array<i64: 0>",
               "i64elems": "dense<0> : tensor<1xi64>", "bools": "array<i1: false>", "str": '"s"', "sym": "@f",
               "symname": '"m"', "any": "1 : i64"}


def table_op(name, operands, results, attrs, regions, bare):
    """One op of the syntax table in the generic form: each operand and result group with one
    value (two for a variadic one), one value of each declared attribute, a region per declared
    region; `bare`: no operands, two results, no attributes, the shape few custom forms carry."""
    def count(decls):
        return sum(2 if d.endswith("*") else 1 for d in decls.split(",") if d.strip())
    n_ops, n_res = (0, 2) if bare else (count(operands), count(results))
    values = []
    for decl in ([] if bare else re.split(r",\s*(?=[A-Za-z_]+\??:)", attrs)):
        m = TABLE_ATTR.match(decl.strip())
        if not m:
            continue
        kind = m.group(3).split()
        if kind and kind[0] in ("enum", "ienum") and len(kind) >= 3:
            value = f"#{kind[1]}<{kind[2]} EQ>"
        elif kind and kind[0] == "wrap" and len(kind) >= 2:
            # `#d.name` takes `<...>`; `#d<name` (an attribute of the dialect's own syntax) ends with `>`
            value = kind[1] + (" []>" if "<" in kind[1] else "<@m, [{}]>")
        else:
            value = TABLE_VALUE.get(kind[0] if kind else "any", "1 : i64")
        values.append(f"{m.group(1)} = {value}")
    lhs = "" if n_res == 0 else ("%r = " if n_res == 1 else f"%r:{n_res} = ")
    region = '{\n      "stablehlo.return"(%arg0) : (tensor<2xf32>) -> ()\n    }'
    n_regions = 0 if bare else count(regions)
    return (f'    {lhs}"{name}"({", ".join(["%arg0"] * n_ops)})'
            + (f" ({', '.join([region] * n_regions)})" if n_regions else "")
            + (f" {{{', '.join(values)}}}" if values else "")
            + f' : ({", ".join(["tensor<2xf32>"] * n_ops)}) -> ({", ".join(["tensor<2xf32>"] * n_res)})\n')


def table_fields(entry):
    """The fields of one table entry's text: its string literals, adjacent ones (no comma
    between them) joined as C++ joins them."""
    fields, end = [], None
    for m in STRING.finditer(entry):
        if end is not None and "," not in entry[end:m.start()]:
            fields[-1] += m.group(1)
        else:
            fields.append(m.group(1))
        end = m.end()
    return fields


def table_texts():
    """Every op of the reference IR's syntax table (include/neuronrw/ir/ref/syntax/op_table.hpp)
    in a function of its own, generic, twice: with the declared operands, results, attributes
    and regions, and bare; so the printers of every custom form, and their fallbacks to the
    generic form, are in the corpus from the start."""
    table = (ROOT / "include" / "neuronrw" / "ir" / "ref" / "syntax" / "op_table.hpp").read_text()
    out = []
    for m in TABLE_ENTRY.finditer(table):
        fields = table_fields(m.group(1))
        if len(fields) < 6 or "." not in fields[0]:
            continue
        for bare in (False, True):
            out.append(("module {\n  func.func @f(%arg0: tensor<2xf32>) {\n"
                        + table_op(*fields[:5], bare)
                        + "    return\n  }\n  func.func private @g()\n}\n").encode())
    return out


def host_texts():
    return texts("*.py", lambda d: b"@pl.program" in d or b"@pl.jit" in d)


PIPELINE = re.compile(rb"(?:builtin\.module|host\.program)\([^'\"\n]*\)")
FLAG = re.compile(rb"'--(schedule-fusion|schedule-fusion-composites|fusion-to-composite|validate-kinds|"
                  rb"materialize-comm-domain-scopes|synthesize-allreduce-signals)=([^'\n]*)'")
# neuronrw-opt's passes in registration order (examples/neuronrw-opt/registry.hpp's builtin_passes).
PASSES = [b"schedule-fusion", b"schedule-fusion-composites", b"fusion-to-composite", b"validate-kinds",
          b"materialize-comm-domain-scopes", b"synthesize-allreduce-signals"]


def pipeline_seeds():
    """Pipelines and pass-flag option texts written in the tests and docs, each with its option
    byte (fuzz_pipeline.cpp): 0 for a pipeline, (pass index << 2) | 1 (| 2 for commas) for a flag."""
    out = set()
    for top in SEARCH + ["docs"]:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or path.suffix not in (".mlir", ".test", ".py", ".md", ".txt"):
                continue
            data = path.read_bytes()
            for m in PIPELINE.finditer(data):
                out.add(b"\x00" + m.group(0))
            for m in FLAG.finditer(data):
                i = PASSES.index(m.group(1))
                out.add(bytes([(i << 2) | 1]) + m.group(2))
                out.add(bytes([(i << 2) | 3]) + m.group(2))
    # The red team's value with both quote kinds, on a flag and in a pipeline.
    out.add(b"\x03fusion-kind={a\"b'c}")
    out.add(b"\x00builtin.module(schedule-fusion{fusion-kind={a\"b'c} budget=3})")
    return sorted(out)


PART = re.compile(rb"^(?:#|//)--- (\S+)[ \t]*$", re.M)


def lit_inputs(want):
    """(host, text) for every input of the lit tests under tests/lit that holds `want`: each .mlir
    and .py file whole, and each split-file part (`#--- NAME`) of a .test file; host when the file
    or part is a .py."""
    out = []
    for path in sorted((ROOT / "tests" / "lit").rglob("*")):
        if path.suffix not in (".mlir", ".py", ".test") or not path.is_file():
            continue
        data = path.read_bytes()
        parts = [(path.suffix == ".py", data)]
        if path.suffix == ".test":
            pieces = PART.split(data)  # [before, name1, text1, name2, text2, ...]
            parts = [(pieces[i].endswith(b".py"), pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)]
        out.extend((host, text) for host, text in parts if want in text)
    return out


def verify_texts():
    """Behind their option byte: 2 for a host program, and each also with 1 (only-expected)."""
    return [bytes([(2 if host else 0) | only]) + t for host, t in lit_inputs(b"expected-") for only in (0, 1)]


def split_texts():
    """Behind their option byte: 1 for a host program."""
    return [bytes([1 if host else 0]) + t for host, t in lit_inputs(b"-----")]


# target -> (texts, option bytes each text is written with: (index, text) -> list of bytes;
# None: the target reads no option byte)
TARGETS = {
    # bit 1 drops locations, 2 numbers values, 4 prints no locations, 8 prints generic, 16 custom
    "ref_roundtrip": (lambda: mlir_texts() + table_texts(), lambda i: [0, 1 + 2 * (i % 3), 8 + 2 * (i % 2) if i % 2 else 16]),
    "host_roundtrip": (host_texts, None),
    # bits 0-2 pick the pipeline: two per text, so each pipeline sees every kind of input
    "passes": (lambda: mlir_texts() + table_texts(), lambda i: [i % 8, (i + 3) % 8]),
    # bit 1 renames scopes, 2 lowers max_listed_devices
    "comm_domain": (host_texts, lambda i: [0, 1 + (i % 3)]),
    # the option byte is part of each seed (pipeline_seeds)
    "pipeline": (pipeline_seeds, None),
    # bits 0-1: no plan, the plan before, the plan after apply; bit 2 an escaped FusionKind
    "dot": (lambda: mlir_texts() + table_texts(), lambda i: [i % 4, 4 | ((i + 2) % 4)]),


    # the lit tests' --verify-diagnostics and --split-input-file inputs, each already behind its
    # option byte (verify_texts, split_texts)
    "verify_diagnostics": (verify_texts, None),
    "split_input": (split_texts, None),
}


def build(outdir, target):
    source, options = TARGETS[target]
    d = outdir / target
    d.mkdir(parents=True, exist_ok=True)
    seeds = set()
    for i, text in enumerate(source()):
        for prefix in ([b""] if options is None else [bytes([o]) for o in options(i)]):
            seeds.add(prefix + text)
    for s in sorted(seeds):
        (d / hashlib.sha1(s).hexdigest()).write_bytes(s)
    print(f"{target}: {len(seeds)} seeds in {d}")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    outdir = pathlib.Path(argv[1])
    targets = argv[2:] or list(TARGETS)
    for t in targets:
        if t not in TARGETS:
            print(f"seeds.py: unknown target '{t}' (targets: {' '.join(TARGETS)})", file=sys.stderr)
            return 2
    for t in targets:
        build(outdir, t)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
