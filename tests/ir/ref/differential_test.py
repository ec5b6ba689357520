#!/usr/bin/env python3
"""Differential test of the reference IR's text against mlir-opt (LLVM 22), the way LLVM tests
its printers: for every module X of a seeded generator of random valid modules in the subset the
reference IR reads (docs/reference-ir.md, "What is read"), and for every hand-written module of
tests/corpus/exports/:

  1. mlir-opt X  ==  mlir-opt (neuronrw-opt X)                       byte for byte
  2. the same with locations: with X' = mlir-opt --mlir-print-debuginfo X (every location
     explicit, so none depends on where an op sits in which text),
     mlir-opt -d X'  ==  mlir-opt -d (neuronrw-opt X')
  3. neuronrw-opt is a fixed point on its own output: neuronrw-opt N == N for N of 1 and 2.
  4. the same as 1 and 3 on mlir-opt's generic form: with Xg = mlir-opt --mlir-print-op-generic X
     (every op generic, inherent attributes as properties, as tools print exports),
     mlir-opt Xg  ==  mlir-opt (neuronrw-opt Xg), and neuronrw-opt a fixed point on its output.

mlir-opt runs with --allow-unregistered-dialect. All modules go through each tool in one process
(--split-input-file); a module that breaks a check is reported with its seed, its index and its
text, and with both sides of the difference.

usage: differential_test.py NEURONRW_OPT MLIR_OPT [--count N] [--seed S] [--files F ...]
                            [--dir D ...] [--no-generated] [--keep FILE]
Exits 77 (meson's "skipped") with a message when mlir-opt is absent.
"""
import argparse
import difflib
import os
import random
import subprocess
import sys
import tempfile

SPLIT = "// -----"


# ----------------------------------------------------------------------------- the generator
class Gen:
    """One random module per call of module(). Everything it writes is valid for mlir-opt with
    --allow-unregistered-dialect and for the reference IR (one block per region, no successors,
    every non-empty block of an unregistered op ends with a terminator)."""

    SCALARS = ["i1", "i8", "i32", "i64", "si16", "ui8", "f16", "bf16", "f32", "f64", "index",
               "complex<f32>", "none"]

    def __init__(self, rng):
        self.r = rng
        self.in_alias = False  # an alias body may not name an alias

    @staticmethod
    def sym_string(name):
        """The string a symbol's `sym_name` holds, written as MLIR text: `s1` -> `"s1"`."""
        return name if name.startswith('"') else '"%s"' % name

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # -- strings, names
    def string_body(self):
        parts = ["a", "B", "x y", "0", "_", ".", "@sym", "{", "}", "[", "]", "<", ">", "->",
                 "(", ")", ",", "=", ":", "//not a comment", "#", "%v", "^bb", "\\\"", "\\\\",
                 "\\n", "\\t", "\\00", "\\7F", "\\FF", "\\E2\\82\\AC", "\u20ac", "\u00e9", "'"]
        return "".join(self.pick(parts) for _ in range(self.r.randint(0, 5)))

    def string(self):
        return '"' + self.string_body() + '"'

    def symbol_name(self, i):
        """The i-th symbol of a module: bare or quoted, never clashing with another index."""
        k = self.r.randint(0, 5)
        if k == 0:
            return '"sym %d"' % i
        if k == 1:
            return '"q\\22uote%d"' % i
        if k == 2:
            return "s.%d" % i
        return "s%d" % i

    def dict_key(self):
        k = self.r.randint(0, 9)
        if k == 0:
            return '"quoted key %d"' % self.r.randint(0, 9)
        if k == 1:
            return "mhlo.sharding"
        if k == 2:
            return "jax.result_info"
        if k == 3:
            return "x.y_" + str(self.r.randint(0, 9))
        return self.pick(["a", "b", "c", "key", "k_1", "value", "z9"]) + str(self.r.randint(0, 9))

    # -- types
    def scalar(self):
        return self.pick(self.SCALARS)

    def shape(self):
        return "".join(self.pick(["1", "2", "4", "?", "16", "0"]) + "x" for _ in range(self.r.randint(0, 3)))

    def type(self, depth=0):
        k = self.r.randint(0, 13)
        if k <= 3:
            return self.scalar()
        if k <= 6:
            return "tensor<%s%s>" % (self.shape(), self.pick(["f32", "i32", "bf16", "i1", "complex<f64>"]))
        if k == 7:
            return "tensor<*x%s>" % self.pick(["f32", "i8"])
        if k == 8:
            return "vector<%sxf32>" % self.pick(["4", "2x2", "[4]"])
        if k == 9:
            return "memref<%sxf32>" % self.pick(["4", "?", "2x?"])
        if k == 10 and depth < 2:
            return "tuple<%s>" % ", ".join(self.type(depth + 1) for _ in range(self.r.randint(0, 3)))
        if k == 11:
            return self.pick(["!x.tok", "!x.t<\"s p\">", "!stablehlo.token", "!x.t<4, i32>"])
        if k == 12 and depth < 2:
            return "tensor<%s%s, %s>" % (self.shape(), "f32", self.pick(['"enc"', "#x.enc<1>"]))
        return self.scalar()

    # -- attribute values
    def int_attr(self):
        v = self.pick(["0", "1", "-7", "42", "0x1F", "9223372036854775807", "-1"])
        fits = {"": True, " : i64": True, " : index": True,
                " : i32": v != "9223372036854775807", " : si32": v != "9223372036854775807",
                " : i8": v != "9223372036854775807",
                " : ui16": not v.startswith("-") and v != "9223372036854775807"}
        return v + self.pick([t for t, ok in fits.items() if ok])

    def float_attr(self):
        return self.pick(["1.5 : f32", "-0.0 : f64", "1.000000e-03 : f32", "2.0 : bf16",
                          "0x7FC00000 : f32", "0x3C00 : f16", "1.0e+10 : f64", "3.25"])

    def dense_attr(self):
        return self.pick([
            "dense<[1, 2, 3]> : tensor<3xi32>",
            "dense<1.000000e+00> : tensor<2x2xf32>",
            'dense<"0x0000803F0000803F"> : tensor<2xf32>',
            "dense<[[true, false]]> : tensor<1x2xi1>",
            "dense<> : tensor<0xi64>",
            "dense<[0.5, -2.0]> : vector<2xf64>",
            "dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>",
            'dense<["a", "b\\n"]> : tensor<2x!x.str>',
            "array<i64: 1, 2, 3>",
            "array<i32>",
            "array<f32: 1.5>",
            "dense_resource<__elided__> : tensor<4xf32>",
        ])

    def symbol_ref(self, names):
        if names and self.chance(0.6):
            root = "@" + self.pick(names)
        else:
            root = "@" + self.pick(["mesh", '"no such symbol"', "elsewhere", "x.y"])
        if self.chance(0.2):
            root += "::@" + self.pick(["inner", '"in ner"'])
        return root

    def attr(self, names, depth=0):
        k = self.r.randint(0, 16)
        if k <= 1:
            return self.int_attr()
        if k == 2:
            return self.float_attr()
        if k == 3:
            return self.pick(["true", "false", "unit"])
        if k <= 5:
            return self.string() + self.pick(["", "", " : i32", " : !x.s"])
        if k == 6:
            return self.type()
        if k == 7:
            return self.dense_attr()
        if k == 8:
            return self.symbol_ref(names)
        if k == 9 and depth < 3:
            return self.dict_text(names, depth + 1)
        if k == 10 and depth < 3:
            return "[" + ", ".join(self.attr(names, depth + 1) for _ in range(self.r.randint(0, 3))) + "]"
        if k == 11:
            return self.pick(["#x.a", "#x.a<\"s\">", "#x.enc<1, [2, 3]>",
                              "#sdy.sharding<@mesh, [{\"x\"}, {}]>",
                              "#mhlo.sharding<\"{devices=[2,1]<=[2]}\">",
                              "#x.arrow<(i32) -> i32>"])
        if k == 12:
            return self.pick(["affine_map<(d0, d1) -> (d1, d0)>", "affine_map<() -> (0)>",
                              "affine_set<(d0) : (d0 - 1 >= 0)>"])
        if k == 13 and not self.in_alias:
            return "#a%d" % self.r.randint(0, 2)  # attribute aliases, defined by module()
        if k == 14:
            return self.pick(["i32", "(i32, f32) -> tensor<4xf32>", "() -> ()"])
        if k == 15:
            return self.pick(["1 : i1", "0 : i1",  # mlir-opt: true/false
                              "distinct[0]<>", "distinct[7]<{x = 1 : i32}>"])
        return self.string()

    def dict_entries(self, names, depth=0, n=None, dialect_keys=False):
        n = self.r.randint(0, 4) if n is None else n
        keys, out = set(), []
        for _ in range(n):
            key = self.dict_key()
            if dialect_keys and "." not in key:  # argument/result attributes: dialect ones only
                key = '"x.' + key[1:] if key.startswith('"') else self.pick(["x.", "test.", "jax."]) + key
            if key in keys:
                continue
            keys.add(key)
            out.append(key if self.chance(0.12) else key + " = " + self.attr(names, depth))
        return out

    def dict_text(self, names, depth=0, n=None, dialect_keys=False):
        return "{" + ", ".join(self.dict_entries(names, depth, n, dialect_keys)) + "}"

    # -- locations
    def loc_body(self, depth=0):
        k = self.r.randint(0, 9)
        if k <= 2:
            return '"%s":%d:%d' % (self.pick(["model.py", "a/b c.py", "x\\\"y.py", ""]),
                                   self.r.randint(0, 99), self.r.randint(0, 99))
        if k == 3:
            return '"r.py":%d:%d to %s' % (self.r.randint(1, 9), self.r.randint(1, 9),
                                           self.pick([":12", "4:1", "1:2"]))
        if k == 4:
            return self.string()
        if k == 5 and depth < 2:
            return '%s(%s)' % (self.string(), self.loc_body(depth + 1))
        if k == 6 and depth < 2:
            return "callsite(%s at %s)" % (self.loc_body(depth + 1), self.loc_body(depth + 1))
        if k == 7 and depth < 2:
            meta = self.pick(["", "", '<"meta">', "<#x.m>"])
            return "fused%s[%s]" % (meta, ", ".join(self.loc_body(depth + 1)
                                                    for _ in range(self.r.randint(1, 3))))
        if k == 8:
            return "unknown"
        return "#loc%d" % self.r.randint(0, 2)  # location aliases, defined by module()

    def loc(self, p=0.4):
        return " loc(%s)" % self.loc_body() if self.chance(p) else ""

    # -- ops
    def fresh(self, st):
        st["n"] += 1
        k = self.r.randint(0, 4)
        if k == 0:
            return "%" + str(st["n"])
        if k == 1:
            return "%v" + str(st["n"]) + "_" + self.pick(["", "x", "1"])
        if k == 2:
            return "%arg" + str(st["n"] + 1000)
        return "%" + self.pick(["x", "y", "acc", "t", "$p", "a.b", "-n"]) + str(st["n"])

    def value_of(self, scope, ty, st, block_ops, indent, names):
        """A visible value of type ty, made by a new op when none is visible."""
        have = [v for v, t in scope if t == ty]
        if have and self.chance(0.8):
            return self.pick(have)
        name = self.fresh(st)
        block_ops.append("%s%s = \"x.make\"() : () -> %s%s" % (" " * indent, name, ty, self.loc(0.2)))
        scope.append((name, ty))
        return name

    def generic_op(self, scope, st, block_ops, indent, names, funcs, depth):
        r = self.r
        operands = []
        for _ in range(r.randint(0, 3)):
            if scope and self.chance(0.85):
                operands.append(self.pick(scope))
        nres = self.pick([0, 1, 1, 1, 2, 3])
        res_types = [self.type() for _ in range(nres)]
        name = self.pick(["x.op", "mhlo.add", "stablehlo.all_gather", "test.op", "x.y.z",
                          "d.\\22quoted\\22", "x.op_1"])
        text = " " * indent
        group = None
        split_names = []
        if nres and self.chance(0.08):
            pass  # results nobody names: mlir-opt numbers them all the same
        elif nres == 1:
            group = self.fresh(st)
            text += group + (":1" if self.chance(0.1) else "") + " = "
        elif nres > 1 and self.chance(0.3):
            # `%p, %q:2 = ...`: groups of one op's results, each named on its own
            sizes, left = [], nres
            while left:
                k = self.r.randint(1, left)
                sizes.append(k)
                left -= k
            parts, i = [], 0
            for k in sizes:
                g = self.fresh(st)
                parts.append(g if k == 1 else "%s:%d" % (g, k))
                for j in range(k):
                    split_names.append((g if k == 1 else "%s#%d" % (g, j), res_types[i]))
                    i += 1
            text += ", ".join(parts) + " = "
        elif nres > 1:
            group = self.fresh(st)
            text += "%s:%d = " % (group, nres)
        text += '"%s"(%s)' % (name, ", ".join(v for v, _ in operands))
        if self.chance(0.3):
            entries = self.dict_entries(names, 1, r.randint(0, 3))
            text += " <{" + ", ".join(entries) + "}>"
        elif self.chance(0.03):
            text += " <#a0>"  # properties through an alias of a dictionary
        if depth < 3 and self.chance(0.2):
            # One region mostly; two or three as stablehlo.while / if / case have, each region
            # seeing the enclosing scope but not its siblings'.
            regions = [self.region(list(scope), st, indent, names, funcs, depth + 1)
                       for _ in range(self.pick([1, 1, 1, 2, 2, 3]))]
            text += " (" + ", ".join(regions) + ")"
        if self.chance(0.5):
            text += " " + self.dict_text(names, 1)
        text += " : (%s) -> " % ", ".join(t for _, t in operands)
        if nres == 1 and not res_types[0].startswith("(") and self.chance(0.6):
            text += res_types[0]
        else:
            text += "(" + ", ".join(res_types) + ")"
        text += self.loc()
        block_ops.append(text)
        if group is not None and nres == 1:
            scope.append((group, res_types[0]))
        for i in range(nres if group is not None and nres > 1 else 0):
            scope.append(("%s#%d" % (group, i), res_types[i]))
        scope.extend(split_names)

    def call_op(self, scope, st, block_ops, indent, names, funcs, in_function_body):
        fn = self.pick(funcs)
        args = [self.value_of(scope, t, st, block_ops, indent, names) for t in fn["args"]]
        res = fn["results"]
        text = " " * indent
        group = None
        if res:
            group = self.fresh(st)
            text += group + (":%d" % len(res) if len(res) > 1 else "") + " = "
        sig_res = res[0] if len(res) == 1 and not res[0].startswith("(") and self.chance(0.5) \
            else "(" + ", ".join(res) + ")"
        sig = "(%s) -> %s" % (", ".join(fn["args"]), sig_res)
        k = self.r.randint(0, 2)
        entries = self.dict_entries(names, 1, self.r.randint(1, 2)) if self.chance(0.3) else []
        if k == 0 and in_function_body:
            text += "call @%s(%s)" % (fn["name"], ", ".join(args))
        elif k <= 1:
            text += "func.call @%s(%s)" % (fn["name"], ", ".join(args))
        else:
            props = ["callee = @" + fn["name"]]
            if self.chance(0.15):  # a property func.call does not have is dropped
                props.append(self.pick(["x_dropped = 1 : i64", "sym_name = \"c\""]))
            if self.chance(0.1):
                props.append(self.pick(["no_inline", "arg_attrs = []", "res_attrs = []"]))
            if self.chance(0.1):  # the property wins over the dictionary's callee
                entries.append(self.pick(["callee = @\"no such symbol\"", "callee = \"not a symbol\""]))
            self.r.shuffle(props)
            text += '"func.call"(%s) <{%s}>' % (", ".join(args), ", ".join(props))
        if k <= 1 and self.chance(0.1):  # the pretty form's dictionary callee names the callee
            entries.append("callee = @" + fn["name"])
        if self.chance(0.06):
            entries.append("no_inline")
        if entries:
            text += " {" + ", ".join(entries) + "}"
        text += " : " + sig + self.loc()
        block_ops.append(text)
        if len(res) == 1:
            scope.append((group, res[0]))
        for i in range(len(res) if len(res) > 1 else 0):
            scope.append(("%s#%d" % (group, i), res[i]))

    def comment(self, indent):
        return " " * indent + "// " + self.pick(["a comment", "{ ( [ <", "%x = \"y\"", "---x"])

    def ops(self, scope, st, indent, names, funcs, depth, in_function_body):
        out = []
        for _ in range(self.r.randint(0, 4)):
            if self.chance(0.05):
                out.append(self.comment(indent))
            # mlir-opt resolves a call inside an unknown op's region in that region (the op may
            # be a symbol table), the reference IR in the module: calls only in function bodies.
            if funcs and depth == 0 and self.chance(0.15):
                self.call_op(scope, st, out, indent, names, funcs, in_function_body)
            else:
                self.generic_op(scope, st, out, indent, names, funcs, depth)
        return out

    def region(self, scope, st, indent, names, funcs, depth):
        """`{ [^bb0(args):] ops terminator }` of an unregistered op (one block)."""
        k = self.r.randint(0, 9)
        if k == 0:
            return "{\n" + " " * indent + "}"
        if k == 1:
            return "{\n" + " " * indent + "^bb0:\n" + " " * indent + "}"
        lines = []
        if self.chance(0.5):
            args = []
            for _ in range(self.r.randint(0, 3)):
                n, t = self.fresh(st), self.type()
                args.append("%s: %s%s" % (n, t, self.loc(0.4)))
                scope.append((n, t))
            lines.append(" " * indent + "^bb0(" + ", ".join(args) + "):" if args else
                         " " * indent + "^bb0:")
        lines += self.ops(scope, st, indent + 2, names, funcs, depth, False)
        yields = [v for v, _ in scope[-2:]] if scope and self.chance(0.5) else []
        types = [t for _, t in scope[-2:]] if yields else []
        term = self.pick(["x.yield", "mhlo.return", "x.terminator"])
        lines.append(" " * (indent + 2) + '"%s"(%s) : (%s) -> ()%s' % (
            term, ", ".join(yields), ", ".join(types), self.loc(0.3)))
        return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"

    # -- functions
    def signature(self, i, names):
        vis = self.pick(["", "", "public ", "private ", "nested "])
        args = [self.type() for _ in range(self.r.randint(0, 3))]
        results = [self.type() for _ in range(self.r.randint(0, 2))]
        decl = self.chance(0.15)
        if decl and vis in ("", "public "):
            vis = "private "
        return {"name": names[i], "vis": vis, "args": args, "results": results, "decl": decl}

    def arg_attrs(self, names):
        if not self.chance(0.35):
            return ""
        fixed = self.pick([None, '{mhlo.sharding = "{replicated}"}', "{jax.arg_info = \"x['a']\"}",
                           "{mhlo.sharding = \"{devices=[2,1]<=[2]}\", mhlo.layout_mode = \"default\"}",
                           "{}", "{x.unit}"])
        return " " + (fixed if fixed else self.dict_text(names, 1, self.r.randint(1, 3), True))

    def function(self, fn, names, funcs):
        st = {"n": 0}
        indent = 2
        pretty = self.chance(0.8)
        head_loc = self.loc(0.3)
        fattrs = ""
        if self.chance(0.35):
            fattrs = self.pick(["{}", "{llvm.emit_c_interface}", "{sym.x = 1 : i64, x.flag}"]) \
                if self.chance(0.4) else self.dict_text(names, 1, self.r.randint(1, 3))
        res_attrs = [self.arg_attrs(names) for _ in fn["results"]]
        if not pretty:
            return self.generic_function(fn, names, funcs, fattrs, res_attrs, head_loc, st)
        arg_attrs = [self.arg_attrs(names) for _ in fn["args"]]
        # MLIR reads arg_attrs / res_attrs in `attributes {...}` when the signature writes no
        # dictionary, and drops an inherent attribute of the wrong kind there.
        inherent = []
        for key, dicts in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
            if any(d.strip() not in ("", "{}") for d in dicts):
                if self.chance(0.15):
                    inherent.append("%s = [%s]" % (key, ", ".join(d.strip() or "{}" for d in dicts)))
                    dicts[:] = [""] * len(dicts)
            elif self.chance(0.1):
                inherent.append(key + " = " + self.pick(["3", "\"x\"", "[%s]" % ", ".join("{}" for _ in dicts)]))
        if self.chance(0.08):
            inherent.append(self.pick(["no_inline", "no_inline = unit", "no_inline = 1 : i64"]))
        if inherent:
            self.r.shuffle(inherent)
            body = fattrs[1:-1].strip() if fattrs else ""
            fattrs = "{" + ", ".join(([body] if body else []) + inherent) + "}"
        scope, params = [], []
        for t, a in zip(fn["args"], arg_attrs):
            if fn["decl"]:
                params.append(t + a)
                continue
            n = self.fresh(st)
            scope.append((n, t))
            params.append("%s: %s%s%s" % (n, t, a, self.loc(0.3)))
        text = " " * indent + "func.func %s@%s(%s)" % (fn["vis"], fn["name"], ", ".join(params))
        rs = fn["results"]
        if len(rs) == 1 and not res_attrs[0] and not rs[0].startswith("(") and self.chance(0.6):
            text += " -> " + rs[0]
        elif rs or self.chance(0.2):
            text += " -> (" + ", ".join(t + a for t, a in zip(rs, res_attrs)) + ")"
        if fattrs:
            text += " attributes " + fattrs
        if fn["decl"]:
            return text + head_loc
        body = self.ops(scope, st, indent + 2, names, funcs, 0, True)
        vals = [self.value_of(scope, t, st, body, indent + 2, names) for t in rs]
        ret = " " * (indent + 2) + self.pick(["return", "func.return"])
        if vals:
            ret += " " + ", ".join(vals) + " : " + ", ".join(rs)
        body.append(ret + self.loc(0.3))
        return text + " {\n" + "\n".join(body) + "\n" + " " * indent + "}" + head_loc

    def generic_function(self, fn, names, funcs, fattrs, res_attrs, head_loc, st):
        indent = 2
        rs = fn["results"]
        ftype = "(%s) -> %s" % (", ".join(fn["args"]),
                                rs[0] if len(rs) == 1 and not rs[0].startswith("(") else "(" + ", ".join(rs) + ")")
        props = ["function_type = " + ftype, "sym_name = " + self.sym_string(fn["name"])]
        if fn["vis"]:
            props.append('sym_visibility = "%s"' % fn["vis"].strip())
        arg_dicts = [self.arg_attrs(names).strip() or "{}" for _ in fn["args"]]
        if fn["args"] and any(d != "{}" for d in arg_dicts):
            props.append("arg_attrs = [" + ", ".join(arg_dicts) + "]")
        res_dicts = [a.strip() or "{}" for a in res_attrs]
        if rs and any(d != "{}" for d in res_dicts):
            props.append("res_attrs = [" + ", ".join(res_dicts) + "]")
        self.r.shuffle(props)
        in_dict = []  # inherent attributes may also sit in the attribute dictionary
        if self.chance(0.3):
            cut = self.r.randint(0, len(props))
            props, in_dict = props[:cut], props[cut:]
        # A property wins over the dictionary's entry of the same name; a property the op does
        # not have is dropped; no_inline is an inherent unit attribute.
        shadowed = {"sym_name": 'sym_name = "shadowed"', "sym_visibility": 'sym_visibility = "private"',
                    "function_type": "function_type = (i64) -> i64", "arg_attrs": "arg_attrs = [{x.shadowed}]",
                    "res_attrs": "res_attrs = []"}
        for p in list(props):
            key = p.split(" = ")[0]
            if key in shadowed and self.chance(0.1):
                in_dict.append(shadowed[key])
        if self.chance(0.1):
            props.append(self.pick(["x_dropped = 1 : i64", "callee = @nothing", "value = unit"]))
        if self.chance(0.08):
            (props if self.chance(0.5) else in_dict).append("no_inline")
        text = " " * indent + '"func.func"() ' + ("<{" + ", ".join(props) + "}> " if props else "") + "("
        if fn["decl"]:
            text += "{\n" + " " * indent + "})"
        else:
            scope, args = [], []
            for t in fn["args"]:
                n = self.fresh(st)
                scope.append((n, t))
                args.append("%s: %s%s" % (n, t, self.loc(0.3)))
            body = ["  " + " " * indent + "^bb0(" + ", ".join(args) + "):"] if args else []
            ops = self.ops(scope, st, indent + 2, names, funcs, 0, False)
            vals = [self.value_of(scope, t, st, ops, indent + 2, names) for t in rs]
            ops.append(" " * (indent + 2) + '"func.return"(%s) : (%s) -> ()' % (", ".join(vals), ", ".join(rs)))
            text += "{\n" + "\n".join(body + ops) + "\n" + " " * indent + "})"
        extra = [e for e in fattrs[1:-1].split(", ") if e] if fattrs and "{" not in fattrs[1:-1] else []
        if fattrs and not extra and fattrs != "{}":
            extra = [fattrs[1:-1]]
        if in_dict or extra:
            text += " {" + ", ".join(in_dict + extra) + "}"
        return text + " : () -> ()" + head_loc

    # -- module
    def module(self):
        r = self.r
        nfun = r.randint(1, 4)
        names = [self.symbol_name(i) for i in range(nfun + 1)]
        funcs = [self.signature(i, names) for i in range(nfun)]
        self.in_alias = True
        a0 = "#a0 = " + self.dict_text(names, 2, 2)
        self.in_alias = False
        aliases = [a0, "#a1 = " + self.string(),
                   "#a2 = " + self.pick(["[1, 2]", "#x.a<\"s\">", "i32"]),
                   "#loc0 = loc(\"alias.py\":1:1)", "#loc1 = loc(%s)" % self.pick(['"n"', "unknown"]),
                   "#loc2 = loc(callsite(\"f\" at \"g.py\":2:3))",
                   "!t0 = tensor<4x?xf32>", "!t1 = tuple<i32, !x.tok>"]
        tops = []
        if self.chance(0.3):
            tops.append('  "x.global"() <{sym_name = %s}> : () -> ()%s' % (
                self.sym_string(names[nfun]), self.loc(0.3)))
        for fn in funcs:
            tops.append(self.function(fn, names, [f for f in funcs if f is not fn] + [fn]))
        if self.chance(0.2):
            tops.append('  "x.top"() {ref = %s} : () -> ()' % self.symbol_ref(names))
        r.shuffle(tops)
        body = "\n".join(tops)
        if self.chance(0.3):
            body = body.replace("tensor<4x?xf32>", "!t0")
        resources = None
        if self.chance(0.08):
            # a blob in the file metadata dictionary, named by dense_resource (alignment 4, then
            # two f32 ones); mlir-opt prints the blob only while something names it
            used = self.chance(0.8)
            body += '\n  %%blob = "x.const"() {value = dense_resource<%s> : tensor<2xf32>} : () -> tensor<2xf32>' % (
                "weights" if used else "__elided__")
            resources = self.pick([
                '{-#\n  dialect_resources: {\n    builtin: {\n      weights: "0x040000000000803F0000803F"\n    }\n  }\n#-}',
                '{-# dialect_resources: {builtin: {weights: "0x040000000000803F0000803F", unused: "0x0400000000000000"}} #-}'])
        head = ""
        k = r.randint(0, 9)
        mod_loc = self.loc(0.3)
        if k == 0:
            text = "\n".join(line[2:] if line.startswith("  ") else line for line in body.split("\n"))
        elif k == 1:
            # sym_name / sym_visibility as properties or attributes (the property wins); a
            # property builtin.module does not have is dropped
            props, attrs = [], []
            if self.chance(0.4):
                props.append('sym_name = "gp"')
            if self.chance(0.2):
                props.append('sym_visibility = "private"')
            if self.chance(0.2):
                props.append("x_dropped = 1 : i64")
            if self.chance(0.5):
                attrs.append('sym_name = "gm"')
            if self.chance(0.3):
                attrs.append(self.pick(["x.unit", "mhlo.num_partitions = 2 : i32", 'sym_visibility = "nested"']))
            self.r.shuffle(props)
            text = '"builtin.module"() %s({\n%s\n}) %s: () -> ()%s' % (
                "<{" + ", ".join(props) + "}> " if props else "", body,
                "{" + ", ".join(attrs) + "} " if attrs else "", mod_loc)
        else:
            head = self.pick(["module", "module", "module", "builtin.module"])
            if self.chance(0.3):
                head += " @" + self.pick(["m", "jit_main", '"my module"'])
            if self.chance(0.5):
                head += " attributes " + self.pick([
                    "{mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}",
                    "{}", "{x.unit, jax.uses_shape_polymorphism = false}",
                    "{mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\\"x\\\"=2]>}\"}}",
                    '{x.a = 1 : i32, sym_name = "renamed"}', '{sym_visibility = "private"}',
                    self.dict_text(names, 1, 2, True)])
            text = head + " {\n" + body + "\n}" + mod_loc
        pre = [a for a in aliases if self.chance(0.5)]
        # Every alias a module may use is defined before it (mlir-opt reads a location alias
        # defined after the module only where an op's own `loc(#name)` uses it; the
        # --mlir-print-debuginfo texts of check 2 put them there).
        for i in range(3):
            if ("#a%d = " % i) not in "\n".join(pre):
                pre.insert(0, aliases[i])
            if ("#loc%d = " % i) not in "\n".join(pre):
                pre.append(aliases[3 + i])
        if "!t0" in text and "!t0 = " not in "\n".join(pre):
            pre.append(aliases[6])
        post = [resources] if resources else []
        if resources and self.chance(0.3):
            pre, post = pre + post, []  # the dictionary may come anywhere at the top level
        return "\n".join(pre + [text] + post) + "\n"


# ----------------------------------------------------------------------------- running the tools
def run(cmd, text):
    p = subprocess.run(cmd, input=text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "surrogateescape")


def chunks(text):
    """Splits a --split-input-file output at its marker lines; one entry per input chunk."""
    out, cur = [], []
    for line in text.split("\n"):
        if line == SPLIT:
            out.append("\n".join(cur).strip("\n"))
            cur = []
        else:
            cur.append(line)
    out.append("\n".join(cur).strip("\n"))
    return out


class Tools:
    def __init__(self, nopt, mopt):
        self.nopt, self.mopt = nopt, mopt

    def mlir(self, modules, debuginfo=False, generic=False):
        cmd = [self.mopt, "--allow-unregistered-dialect", "--split-input-file", "--output-split-marker=" + SPLIT]
        if debuginfo:
            cmd.append("--mlir-print-debuginfo")
        if generic:
            cmd.append("--mlir-print-op-generic")
        return self.batch(cmd, modules)

    def neuronrw(self, modules):
        return self.batch([self.nopt, "--split-input-file", "--output-split-marker=" + SPLIT, "-"], modules)

    def batch(self, cmd, modules):
        """The tool's output for each module, or (None, stderr) for one it rejects. One process
        when every module passes; one per module otherwise, to say which failed and why."""
        rc, out, err = run(cmd, ("\n" + SPLIT + "\n").join(modules))
        parts = chunks(out)
        if rc == 0 and len(parts) == len(modules):
            return [(p, "") for p in parts]
        print("note: %s: %d chunks back for %d modules (exit %d); rerunning one process per module"
              % (os.path.basename(cmd[0]), len(parts), len(modules), rc), flush=True)
        single = [c for c in cmd if c not in ("--split-input-file", "--output-split-marker=" + SPLIT)]
        res = []
        for m in modules:
            rc, out, err = run(single, m)
            res.append((out.strip("\n"), "") if rc == 0 else (None, err))
        return res


def diff(a, b, la, lb):
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), la, lb, n=2))


def check_form(tools, items, refs, fail, what, name, read):
    """Checks one form of the modules: items are (index, text NAME) with refs[k] = mlir-opt's
    output for items[k] (mlir-opt reading with `read`: Tools.mlir's options). mlir-opt NAME ==
    mlir-opt (neuronrw-opt NAME), and neuronrw-opt is a fixed point on its own output."""
    prefix = what + ", " if what else ""
    ns = tools.neuronrw([x for _, x in items])
    good = []
    for (i, x), r, (n, err) in zip(items, refs, ns):
        if n is None:
            fail(i, "%sneuronrw-opt rejects %s, which mlir-opt reads:\n%s\n--- %s ---\n%s" % (prefix, name, err, name, x))
        else:
            good.append((i, x, r, n + "\n"))
    back = tools.mlir([n for _, _, _, n in good], **read)
    for (i, x, r, n), (b, err) in zip(good, back):
        if b is None:
            fail(i, "%smlir-opt rejects neuronrw-opt's output:\n%s\n--- neuronrw-opt %s ---\n%s" % (prefix, err, name, n))
        elif b != r:
            fail(i, "%smlir-opt %s != mlir-opt (neuronrw-opt %s):\n" % (prefix, name, name) +
                 diff(r or "", b, "mlir-opt " + name, "mlir-opt (neuronrw-opt %s)" % name) +
                 "--- %s ---\n%s--- neuronrw-opt %s ---\n%s" % (name, x, name, n))
    again = tools.neuronrw([n for _, _, _, n in good])
    for (i, x, r, n), (t2, err) in zip(good, again):
        if t2 is None or t2 + "\n" != n:
            fail(i, "%sneuronrw-opt is not a fixed point on its own output:\n" % prefix +
                 (err if t2 is None else diff(n, t2 + "\n", "N", "neuronrw-opt N")))


def check(tools, modules, labels, log):
    """Runs checks 1-4 on the modules; returns the number of failed modules."""
    failed = set()

    def fail(i, what):
        if i not in failed and len(failed) < 10:
            log("FAIL %s: %s\n--- module ---\n%s" % (labels[i], what, modules[i]))
        failed.add(i)

    ref = tools.mlir(modules)
    ok = []
    for i, (a, err) in enumerate(ref):
        if a is None:
            fail(i, "mlir-opt rejects a module of the subset (a generator or corpus bug):\n" + err)
        else:
            ok.append(i)
    # 1 and 3, on X itself
    check_form(tools, [(i, modules[i]) for i in ok], [ref[i][0] for i in ok], fail, "", "X", {})
    # 2 and 3 with locations, on X' = mlir-opt --mlir-print-debuginfo X read with locations;
    # 4 and 3 on mlir-opt's generic form Xg = mlir-opt --mlir-print-op-generic X
    for what, name, make, read in (("with locations", "X'", {"debuginfo": True}, {"debuginfo": True}),
                                   ("generic form", "Xg", {"generic": True}, {})):
        xs = tools.mlir([modules[i] for i in ok], **make)
        items = [(i, x + "\n") for i, (x, _) in zip(ok, xs) if x is not None]
        refs = [r for r, _ in tools.mlir([x for _, x in items], **read)]
        check_form(tools, items, refs, fail, what, name, read)
    return len(failed)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("neuronrw_opt")
    ap.add_argument("mlir_opt")
    ap.add_argument("--count", type=int, default=2000, help="generated modules (default 2000)")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--files", nargs="*", default=[], help="hand-written modules, each checked whole")
    ap.add_argument("--dir", nargs="*", default=[], help="directories whose *.mlir files are hand-written modules")
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--keep", help="write the generated modules to this file")
    a = ap.parse_args()
    if not os.path.exists(a.mlir_opt):
        print("SKIPPED: mlir-opt not found at %s (the differential test needs it as the oracle; "
              "install mlir-22-tools, or configure -Dmlir_opt=PATH)" % a.mlir_opt)
        return 77
    tools = Tools(a.neuronrw_opt, a.mlir_opt)
    modules, labels = [], []
    for d in a.dir:
        found = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mlir"))
        if not found:
            print("error: no *.mlir file in %s" % d)
            return 2
        a.files.extend(found)
    for f in a.files:
        with open(f, encoding="utf-8") as h:
            modules.append(h.read())
        labels.append(f)
    if not a.no_generated:
        rng = random.Random(a.seed)
        g = Gen(rng)
        for i in range(a.count):
            modules.append(g.module())
            labels.append("seed %d, module %d" % (a.seed, i))
    if a.keep:
        with open(a.keep, "w", encoding="utf-8") as h:
            h.write(("\n" + SPLIT + "\n").join(modules))
    nfail = check(tools, modules, labels, lambda s: print(s, flush=True))
    print("%d modules (%d hand-written, %d generated, seed %d): %d passed, %d failed" % (
        len(modules), len(a.files), len(modules) - len(a.files), a.seed, len(modules) - nfail, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
