// Tests of neuronrw/ir/ref/parse.hpp: malformed inputs with their exact diagnostics, and the
// tricky corners of the accepted syntax.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace ref = neuronrw::ref;

namespace {

struct bad_case {
  std::string_view input;
  std::string_view expected;  // the full diagnostic for file "t.mlir"
};

// Each malformed input with its exact diagnostic (position of the offending token, 1-based).
const bad_case bad_cases[] = {
    // lexical
    {"\"a.b\"() {s = \"abc} : () -> ()\n", "t.mlir:1:14: error: unterminated string literal"},
    {"\"a.b\"() {s = \"a\\qc\"} : () -> ()\n", "t.mlir:1:16: error: unknown escape in string literal"},
    {"\"a.b\"() {s = tensor<4xf32} : () -> ()\n", "t.mlir:1:20: error: unbalanced '<' (no matching '>')"},
    {"\"a.b\"() : () -> tensor<4xf32\n", "t.mlir:1:23: error: unbalanced '<' (no matching '>')"},
    {"\"a.b\"() {a = [1, 2)} : () -> ()\n", "t.mlir:1:14: error: unbalanced '[' (no matching ']')"},
    {"\"a.b\"() : () -> i32 loc(\"x\":1:2\n", "t.mlir:1:24: error: unbalanced '(' (no matching ')')"},
    {"\"a.b\"() {a = 1, a = 2} : () -> ()\n", "t.mlir:1:17: error: duplicate key 'a' in dictionary attribute"},
    {"\"a.b\"() {a = } : () -> ()\n", "t.mlir:1:14: error: expected attribute value"},
    // op syntax
    {"\"a.b\"() {x = 1}\n", "t.mlir:2:1: error: expected ':' followed by operation type"},
    {"\"a.b\"() : (i32 -> ()\n", "t.mlir:1:16: error: expected ',' or ')' in type list"},
    {"\"a.b\"() : () i32\n", "t.mlir:1:14: error: expected '->' in function type"},
    {"\"a.b\"(%x : () -> ()\n", "t.mlir:1:10: error: expected ',' or ')' in operand list"},
    {"%x = \"a.b\"(%a, %a) : (i32) -> i32\n", "t.mlir:1:22: error: expected 2 operand types but had 1"},
    {"%x:2 = \"a.b\"() : () -> i32\n", "t.mlir:1:1: error: operation defines 1 results but was provided 2 to bind"},
    {"%x, %y = \"a.b\"() : () -> (i32, i32, i32)\n",
     "t.mlir:1:1: error: operation defines 3 results but was provided 2 to bind"},
    {"%x:0 = \"a.b\"() : () -> ()\n", "t.mlir:1:4: error: expected named operation to have at least 1 result"},
    {"%x \"a.b\"() : () -> i32\n", "t.mlir:1:4: error: expected '=' after the result names"},
    {"%x = \"\"() : () -> i32\n", "t.mlir:1:6: error: expected a non-empty operation name"},
    // SSA
    {"%x = \"a.b\"() : () -> i32\n%y = \"a.c\"(%z) : (i32) -> i32\n",
     "t.mlir:2:12: error: use of undeclared SSA value name '%z'"},
    {"%x = \"a.b\"() : () -> i32\n%x = \"a.b\"() : () -> i32\n", "t.mlir:2:1: error: redefinition of SSA value '%x'"},
    {"%a, %a = \"a.b\"() : () -> (i32, i32)\n", "t.mlir:1:5: error: redefinition of SSA value '%a'"},
    {"func.func @f(%a: i32) -> i32 {\n  %x = \"a.b\"(%a) : (i64) -> i32\n  return %x : i32\n}\n",
     "t.mlir:2:14: error: use of value '%a' expects different type than prior uses: 'i64' vs 'i32'"},
    {"func.func @f() {\n  \"a.c\"(%x) : (i64) -> ()\n  %x = \"a.b\"() : () -> i32\n  return\n}\n",
     "t.mlir:2:9: error: use of value '%x' expects different type than prior uses: 'i64' vs 'i32'"},
    {"%x:2 = \"a.b\"() : () -> (i32, i32)\n\"a.c\"(%x#2) : (i32) -> ()\n",
     "t.mlir:2:7: error: reference to invalid result number"},
    {"\"a.r\"() ({\n  %in = \"a.b\"() : () -> i32\n}) : () -> ()\n\"a.c\"(%in) : (i32) -> ()\n",
     "t.mlir:4:7: error: use of undeclared SSA value name '%in'"},
    {"func.func @f() {\n  %x = \"a.b\"() : () -> i32\n  return\n}\nfunc.func @g() {\n  \"a.c\"(%x) : (i32) -> ()\n  "
     "return\n}\n",
     "t.mlir:6:9: error: use of undeclared SSA value name '%x'"},
    // regions and blocks
    {"\"a.b\"() ({\n}, ) : () -> ()\n", "t.mlir:2:3: error: expected '{' to begin a region"},
    {"\"a.b\"() ({\n} {\n}) : () -> ()\n", "t.mlir:2:2: error: expected ')' to end region list"},
    {"\"a.b\"() ({\n}, {\n  \"x.y\"() : () -> ()\n^bb1:\n}) : () -> ()\n",
     "t.mlir:4:1: error: the reference IR supports at most one block per region"},
    {"\"a.b\"()[^bb1] : () -> ()\n", "t.mlir:1:8: error: successors are not supported by the reference IR"},
    {"\"a.b\"() ({\n^bb0:\n  \"x.y\"() : () -> ()\n^bb1:\n  \"x.y\"() : () -> ()\n}) : () -> ()\n",
     "t.mlir:4:1: error: the reference IR supports at most one block per region"},
    {"\"a.b\"() ({\n^bb0(%a i32):\n}) : () -> ()\n", "t.mlir:2:9: error: expected ':' and type for SSA operand"},
    {"module {\n  \"a.b\"() : () -> ()\n", "t.mlir:3:1: error: missing '}' to close the '{' at 1:8"},
    {"\"a.b\"() ({\n  \"a.b\"() ({\n", "t.mlir:3:1: error: missing '}' to close the '{' at 2:12"},
    // top level
    {"foo bar\n",
     "t.mlir:1:1: error: custom op 'foo' is not supported by the reference IR (write it in the generic form)"},
    {"}\n", "t.mlir:1:1: error: unexpected '}' at top level"},
    {"module {\n}\n\"a.b\"() : () -> ()\n", "t.mlir:3:1: error: unexpected '\"' after the module"},
    {"\"a.b\"() : () -> ()\nmodule {\n}\n", "t.mlir:2:1: error: nested modules are not supported by the reference IR"},
    {"#map = \n", "t.mlir:1:8: error: expected a value in alias definition"},
    {"#map affine_map<(d0) -> (d0)>\n", "t.mlir:1:6: error: expected '=' in alias definition"},
    // functions
    {"func.func @f(%a i32) {\n  return\n}\n", "t.mlir:1:17: error: expected ':'"},
    {"func.func f() {\n  return\n}\n", "t.mlir:1:11: error: expected valid '@'-identifier for symbol name"},
    {"func.func private @d(i32, %a: i32)\n", "t.mlir:1:27: error: expected type instead of SSA identifier"},
    {"func.func @f(i32) {\n  return\n}\n", "t.mlir:1:19: error: a function body needs named arguments ('%name: type')"},
    {"func.func @f() -> (i32 {\n", "t.mlir:1:24: error: unbalanced '{' (no matching '}')"},
    {"func.func @f() {\n  %x = return\n}\n", "t.mlir:2:3: error: cannot name an operation with no results"},
    {"func.func @f() {\n  return %a, %a : i32\n}\n", "t.mlir:2:19: error: expected 2 types after ':' but had 1"},
    {"func.func @f() {\n  \"a.r\"() ({\n    return\n  }) : () -> ()\n}\n",
     "t.mlir:3:5: error: 'return' needs the 'func.' prefix outside a function body"},
    {"func.func @f() {\n  func.func @g() {\n  }\n}\n", "t.mlir:2:3: error: 'func.func' is only supported at module level"},
    {"func.func @f() {\n  %r = call f() : () -> i32\n}\n", "t.mlir:2:13: error: expected symbol reference to the callee"},
    {"\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\"}> ({\n^bb0(%a: i64):\n  \"func.return\"() : () "
     "-> ()\n}) : () -> ()\n",
     "t.mlir:2:6: error: type of entry block argument #0 ('i64') does not match the function type ('i32')"},
    {"\"func.func\"() <{sym_name = \"f\"}> ({\n}) : () -> ()\n",
     "t.mlir:1:1: error: 'func.func' requires a 'function_type'"},
    {"\"func.call\"() : () -> ()\n", "t.mlir:1:1: error: 'func.call' requires a 'callee' symbol reference"},
    {"\"func.call\"() <{callee = @f x}> : () -> ()\n", "t.mlir:1:29: error: unexpected text after the symbol reference"},
    {"\"func.func\"() <{function_type = () -> (), sym_name = \"f\", sym_visibility = \"open\"}> ({\n}) : () -> ()\n",
     "t.mlir:1:76: error: 'sym_visibility' must be \"private\", \"nested\" or \"public\""},
    // the inherent attributes of func.func, func.call and builtin.module, as MLIR reads them
    {"func.func @f() attributes {x, sym_visibility = \"private\"} {\n  return\n}\n",
     "t.mlir:1:16: error: custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be "
     "specified in the explicit attribute dictionary"},
    {"func.func @f() attributes {sym_name = \"g\"} {\n  return\n}\n",
     "t.mlir:1:16: error: custom op 'func.func' 'sym_name' is an inferred attribute and should not be specified "
     "in the explicit attribute dictionary"},
    {"func.func private @d() attributes {function_type = () -> ()}\n",
     "t.mlir:1:24: error: custom op 'func.func' 'function_type' is an inferred attribute and should not be "
     "specified in the explicit attribute dictionary"},
    {"func.func private @d(i32 {x.a}) attributes {arg_attrs = [{x.b}]}\n",
     "t.mlir:1:1: error: custom op 'func.func' attribute 'arg_attrs' occurs more than once in the attribute list"},
    {"func.func private @d() -> (i32 {x.a}) attributes {res_attrs = 1}\n",
     "t.mlir:1:1: error: custom op 'func.func' attribute 'res_attrs' occurs more than once in the attribute list"},
    {"func.func private @d(i32) attributes {arg_attrs = []}\n",
     "t.mlir:1:1: error: 'func.func' op expects argument attribute array to have the same number of elements as "
     "the number of function arguments, got 0, but expected 1"},
    {"\"func.func\"() <{function_type = () -> i32, sym_name = \"f\", res_attrs = [{}, {}]}> ({\n}) : () -> ()\n",
     "t.mlir:1:1: error: 'func.func' op expects result attribute array to have the same number of elements as the "
     "number of function results, got 2, but expected 1"},
    {"func.func private @d(i32) attributes {arg_attrs = [1]}\n",
     "t.mlir:1:52: error: expected a dictionary in 'arg_attrs'"},
    {"\"func.func\"() <{function_type = () -> (), sym_name = \"f\", no_inline = 1}> ({\n}) : () -> ()\n",
     "t.mlir:1:71: error: 'func.func' op attribute 'no_inline' failed to satisfy constraint: unit attribute"},
    {"func.func @f() {\n  call @f::@g() : () -> ()\n  return\n}\n",
     "t.mlir:2:8: error: 'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference "
     "attribute"},
    {"func.func @f() {\n  call @f() {callee = @f::@g} : () -> ()\n  return\n}\n",
     "t.mlir:2:23: error: 'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference "
     "attribute"},
    {"\"func.call\"() <{callee = @f::@g}> : () -> ()\n",
     "t.mlir:1:26: error: 'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference "
     "attribute"},
    {"\"func.call\"() {callee = @f, no_inline = 0 : i1} : () -> ()\n",
     "t.mlir:1:41: error: 'func.call' op attribute 'no_inline' failed to satisfy constraint: unit attribute"},
    {"\"builtin.module\"() ({\n}) : () -> ()\n",
     "t.mlir:1:1: error: 'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 "
     "blocks"},
    {"module attributes {sym_name = 1} {\n}\n", "t.mlir:1:31: error: expected a string for 'sym_name'"},
    {"module {\n  builtin.module {\n  }\n}\n", "t.mlir:2:3: error: nested modules are not supported by the reference IR"},
    {"\"a.b\"() {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7, a3} : () -> ()\n",
     "t.mlir:1:82: error: duplicate key 'a3' in dictionary attribute"},
    {"arith.cmpi slt, %a, %b : i32\n",
     "t.mlir:1:1: error: custom op 'arith.cmpi' is not supported by the reference IR (write it in the generic "
     "form)"},
};

ref::parse_result parse_ok(std::string_view text) {
  auto r = ref::parse(text, "t.mlir");
  INFO(r.error.str());
  REQUIRE(r.ok());
  return r;
}

}  // namespace

TEST_CASE("malformed inputs give their exact diagnostic and no module") {
  CHECK(std::size(bad_cases) >= 15);
  for (const auto& c : bad_cases) {
    CAPTURE(c.input);
    auto r = ref::parse(c.input, "t.mlir");
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.value.has_value());
    CHECK(r.error.str() == c.expected);
  }
}

TEST_CASE("the default file name is <input>") {
  auto r = ref::parse("}");
  CHECK(r.error.str() == "<input>:1:1: error: unexpected '}' at top level");
  CHECK(r.error.file == "<input>");
  CHECK(r.error.loc == neuronrw::source_loc{1, 1});
}

TEST_CASE("first_line numbers the text's lines from a later line of a file; columns stay") {
  // A --split-input-file chunk is parsed where it stands: its errors and its ops' locations carry
  // the whole file's line numbers, with no padding in front of it.
  const std::string chunk = "func.func @f() {\n  %0 = \"foo.bar\"( : () -> i32\n}\n";
  auto r = ref::parse(chunk, "t.mlir", ref::parse_options{.first_line = 41});
  CHECK(r.error.str() == "t.mlir:42:19: error: expected SSA operand");
  CHECK(ref::parse(chunk, "t.mlir", ref::parse_options{.first_line = 0}).error.loc == neuronrw::source_loc{2, 19});
  CHECK(ref::parse(chunk, "t.mlir").error.loc == neuronrw::source_loc{2, 19});

  auto ok = ref::parse("\n\n  \"a.b\"() : () -> ()\n", "t.mlir", ref::parse_options{.first_line = 100000});
  REQUIRE(ok.ok());
  const auto& m = *ok.value;
  const auto op = m.front(m.body());
  CHECK(m.loc(op) == neuronrw::source_loc{100002, 3});
  // An error that names another position names it with the file's line too.
  auto open = ref::parse("func.func @f() {\n", "t.mlir", ref::parse_options{.first_line = 7});
  CHECK(open.error.str() == "t.mlir:8:1: error: missing '}' to close the '{' at 7:16");
}

TEST_CASE("nesting is capped instead of recursing without bound") {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "\"a.b\"() ({\n";
  auto r = ref::parse(deep, "t.mlir");
  CHECK(r.error.str() == "t.mlir:257:10: error: regions are nested too deeply (limit 256)");

  std::string brackets = "\"a.b\"() {x = ";
  brackets += std::string(100000, '[');
  r = ref::parse(brackets, "t.mlir");
  CHECK(r.error.str() == "t.mlir:1:270: error: brackets are nested too deeply (limit 256)");

  auto shallow = ref::parse(deep, "t.mlir", ref::parse_options{.max_nesting = 8});
  CHECK(shallow.error.str() == "t.mlir:9:10: error: regions are nested too deeply (limit 8)");
}

TEST_CASE("an empty input is an empty module") {
  auto r = parse_ok("");
  CHECK(r.value->empty(r.value->body()));
  CHECK(ref::print(*r.value) == "module {\n}\n");
  CHECK(ref::print(*parse_ok("  // only a comment\n").value) == "module {\n}\n");
}

TEST_CASE("'->' inside '<>' does not close it; '>' inside '()' is a comparison") {
  auto r = parse_ok(
      "\"a.b\"() {m = affine_map<(d0, d1) -> (d1, d0)>, s = affine_set<(d0) : (d0 - 1 >= 0)>} : () -> ()\n");
  auto& m = *r.value;
  auto op = m.front(m.body());
  REQUIRE(m.attributes(op).size() == 2);
  CHECK(m.attributes(op)[0].value == "affine_map<(d0, d1) -> (d1, d0)>");
  CHECK(m.attributes(op)[1].value == "affine_set<(d0) : (d0 - 1 >= 0)>");
}

TEST_CASE("strings may hold any bracket, quote escape or comment marker") {
  auto r = parse_ok(
      "\"a.b\"() {s = \"(([{<\\\"}>> -> // \\\\\", t = [\"}\", \"]\"]} : () -> !x.t<\"<)\">\n");
  auto& m = *r.value;
  auto op = m.front(m.body());
  CHECK(m.attributes(op)[0].value == "\"(([{<\\\"}>> -> // \\\\\"");
  CHECK(m.attributes(op)[1].value == "[\"}\", \"]\"]");
  CHECK(m.type_text(m.result(op, 0)) == "!x.t<\"<)\">");
}

TEST_CASE("loc(...) is kept on ops, block arguments, functions and the module, or dropped") {
  const std::string_view text =
      "#loc = loc(\"a.py\":1:2)\n"
      "module {\n"
      "  func.func @f(%a: i32 loc(\"a.py\":3:4)) -> i32 {\n"
      "    %b = \"x.y\"(%a) : (i32) -> i32 loc(fused[#loc, \"b\"(\"c\":5:6)])\n"
      "    return %b : i32 loc(#loc)\n"
      "  } loc(#loc)\n"
      "} loc(unknown)\n";
  auto r = parse_ok(text);
  auto& m = *r.value;
  auto f = ref::lookup_function(m, "f");
  REQUIRE(f.valid());
  CHECK(m.loc_text(f) == "loc(#loc)");
  CHECK(m.arg_loc_text(m.arguments(m.region_block(f))[0]) == "loc(\"a.py\":3:4)");
  auto b = m.front(m.region_block(f));
  CHECK(m.loc_text(b) == "loc(fused[#loc, \"b\"(\"c\":5:6)])");
  CHECK(m.loc(b) == neuronrw::source_loc{4, 5});
  CHECK(m.module_loc_text == "loc(unknown)");
  REQUIRE(m.alias_definitions.size() == 1);
  CHECK(ref::print(m) == text);

  auto dropped = ref::parse(text, "t.mlir", ref::parse_options{.keep_locations = false});
  REQUIRE(dropped.ok());
  CHECK(ref::print(*dropped.value) ==
        "module {\n"
        "  func.func @f(%a: i32) -> i32 {\n"
        "    %b = \"x.y\"(%a) : (i32) -> i32\n"
        "    return %b : i32\n"
        "  }\n"
        "}\n");
}

TEST_CASE("the data model: functions, calls, returns, results, hints and source positions") {
  auto r = parse_ok(
      "func.func private @d(i32 {x.a}, f32) -> (i32 {x.r}, f32)\n"
      "func.func @f(%a: i32, %b: f32) -> (i32, f32) attributes {k = 1 : i64, u} {\n"
      "  %p, %q:2 = \"x.y\"(%a) <{prop = 1}> : (i32) -> (i32, f32, f32)\n"
      "  %r:2 = call @d(%a, %q#1) {x.t} : (i32, f32) -> (i32, f32)\n"
      "  return %r#0, %q : i32, f32\n"
      "}\n");
  auto& m = *r.value;
  auto fs = ref::functions(m);
  REQUIRE(fs.size() == 2);
  const auto& d = m.function(fs[0]);
  CHECK(d.sym_name == "d");
  CHECK(d.visibility == "private");
  CHECK(d.declaration);
  CHECK_FALSE(m.has_region(fs[0]));
  REQUIRE(d.decl_arg_types.size() == 2);
  CHECK(m.type_text(d.decl_arg_types[1]) == "f32");
  CHECK(d.arg_attrs == std::vector<std::string>{"{x.a}", ""});
  CHECK(d.result_attrs == std::vector<std::string>{"{x.r}", ""});

  const auto f = fs[1];
  CHECK_FALSE(m.function(f).declaration);
  CHECK(m.attributes(f) == std::vector<ref::attribute>{{"k", "1 : i64"}, {"u", ""}});
  const auto args = m.arguments(m.region_block(f));
  REQUIRE(args.size() == 2);
  CHECK(m.arg_name_hint(args[1]) == "b");

  auto y = m.front(m.region_block(f));
  CHECK(m.name(y) == "x.y");
  CHECK(m.num_results(y) == 3);
  CHECK(m.name_hint(y) == "p");
  CHECK(m.properties_text(y) == "{prop = 1}");
  CHECK(m.loc(y) == neuronrw::source_loc{3, 3});

  auto call = m.next_op(y);
  CHECK(m.name(call) == "func.call");
  CHECK(m.attributes(call) == std::vector<ref::attribute>{{"callee", "@d"}, {"x.t", ""}});
  CHECK(m.operand(call, 1) == m.result(y, 2));  // %q#1 is the third result of the merged group

  auto ret = m.next_op(call);
  CHECK(m.name(ret) == "func.return");
  CHECK(m.operand(ret, 0) == m.result(call, 0));
  CHECK(m.operand(ret, 1) == m.result(y, 1));
  CHECK(m.loc(ret) == neuronrw::source_loc{5, 3});
}

TEST_CASE("visibility is kept as written, `public` included, in both forms") {
  // mlir-opt 22 prints an explicit `public` back (it stores sym_visibility = "public"), as JAX
  // writes every entry function; only an absent visibility prints nothing.
  auto r = parse_ok(
      "func.func public @a() {\n  return\n}\n"
      "func.func @b() {\n  return\n}\n"
      "func.func private @c()\n"
      "func.func nested @d()\n"
      "\"func.func\"() <{function_type = () -> (), sym_name = \"e\", sym_visibility = \"public\"}> ({\n"
      "  \"func.return\"() : () -> ()\n"
      "}) : () -> ()\n"
      "\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n"
      "  \"func.return\"() : () -> ()\n"
      "}) {sym_visibility = \"nested\"} : () -> ()\n");
  auto& m = *r.value;
  auto fs = ref::functions(m);
  REQUIRE(fs.size() == 6);
  std::vector<std::string> vis;
  for (auto f : fs) vis.push_back(m.function(f).visibility);
  CHECK(vis == std::vector<std::string>{"public", "", "private", "nested", "public", "nested"});
  CHECK(ref::print(m) ==
        "module {\n"
        "  func.func public @a() {\n    return\n  }\n"
        "  func.func @b() {\n    return\n  }\n"
        "  func.func private @c()\n"
        "  func.func nested @d()\n"
        "  func.func public @e() {\n    return\n  }\n"
        "  func.func nested @f() {\n    return\n  }\n"
        "}\n");
}

TEST_CASE("a region with one empty block stays apart from a region with no block") {
  // MLIR keeps `({ ^bb0: })` (one empty block) and `({ })` (no block) apart, and mlir-opt
  // prints them differently; the label of a block that has ops or arguments changes nothing.
  auto r = parse_ok(
      "func.func @f() {\n"
      "  %0 = \"x.one_empty_block\"() ({\n  ^bb0:\n  }) : () -> i32\n"
      "  \"x.no_block\"() ({\n  }) : () -> ()\n"
      "  \"x.labelled\"() ({\n  ^bb0:\n    \"x.yield\"() : () -> ()\n  }) : () -> ()\n"
      "  \"x.unbound_result\"() ({\n  ^bb0:\n  }) : () -> i32\n"
      "  return\n"
      "}\n");
  auto& m = *r.value;
  const auto f = ref::functions(m)[0];
  std::vector<bool> explicit_blocks;
  for (auto o : m.ops(m.region_block(f)))
    if (m.has_region(o)) explicit_blocks.push_back(m.explicit_block(m.region_block(o)));
  CHECK(explicit_blocks == std::vector<bool>{true, false, true, true});
  CHECK(ref::print(m) ==
        "module {\n"
        "  func.func @f() {\n"
        "    %0 = \"x.one_empty_block\"() ({\n    ^bb0:\n    }) : () -> i32\n"
        "    \"x.no_block\"() ({\n    }) : () -> ()\n"
        "    \"x.labelled\"() ({\n      \"x.yield\"() : () -> ()\n    }) : () -> ()\n"
        "    %1 = \"x.unbound_result\"() ({\n    ^bb0:\n    }) : () -> i32\n"
        "    return\n"
        "  }\n"
        "}\n");
  // Emptying a labelled block by moving its op out prints the empty block, as MLIR would.
  const auto labelled = m.next_op(m.next_op(m.front(m.region_block(f))));
  REQUIRE(m.name(labelled) == "x.labelled");
  m.erase_op(m.front(m.region_block(labelled)));
  CHECK(ref::print(m).find("\"x.labelled\"() ({\n    ^bb0:\n    })") != std::string::npos);
}

TEST_CASE("the file metadata dictionary (resource blobs) is kept and printed after the module") {
  // mlir-opt keeps `{-# dialect_resources: ... #-}` and prints it after the module; the blob
  // is what `dense_resource<weights>` means, so dropping it would change the module.
  auto r = parse_ok(
      "{-#\n  dialect_resources: {\n    builtin: {\n      weights: \"0x040000000000803F\"\n    }\n  }\n#-}\n"
      "\"x.c\"() {v = dense_resource<weights> : tensor<1xf32>} : () -> ()\n");
  const std::string printed =
      "module {\n  \"x.c\"() {v = dense_resource<weights> : tensor<1xf32>} : () -> ()\n}\n"
      "{-#\n  dialect_resources: { builtin: { weights: \"0x040000000000803F\" } }\n#-}\n";
  CHECK(r.value->file_metadata == "dialect_resources: { builtin: { weights: \"0x040000000000803F\" } }");
  CHECK(ref::print(*r.value) == printed);
  CHECK(ref::print(*parse_ok(printed).value) == printed);
  // A '#-}' inside a string does not end it; a missing end and a second dictionary are errors.
  CHECK(parse_ok("module {\n}\n{-# x: {k: \"#-}\"} #-}\n").value->file_metadata == "x: {k: \"#-}\"}");
  auto open = ref::parse("module {\n}\n{-# x: {k: \"v\"}\n", "t.mlir");
  REQUIRE_FALSE(open.ok());
  CHECK(open.error.str() == "t.mlir:3:1: error: expected '#-}' to end the file metadata dictionary");
  auto twice = ref::parse("{-# a: {} #-}\nmodule {\n}\n{-# b: {} #-}\n", "t.mlir");
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error.str() ==
        "t.mlir:4:1: error: a second file metadata dictionary ('{-# ... #-}') is not supported by the reference IR");
}

TEST_CASE("generic func forms give the same module as the pretty forms") {
  auto generic = parse_ok(
      "\"builtin.module\"() <{sym_name = \"m\"}> ({\n"
      "  \"func.func\"() <{arg_attrs = [{x.a}, {}], function_type = (i32, f32) -> i32, res_attrs = [{x.r}], "
      "sym_name = \"f\", sym_visibility = \"nested\"}> ({\n"
      "  ^bb0(%arg0: i32, %arg1: f32):\n"
      "    %0 = \"func.call\"(%arg0) <{callee = @g}> : (i32) -> i32\n"
      "    \"func.return\"(%0) : (i32) -> ()\n"
      "  }) {x.attr = 2} : () -> ()\n"
      "  \"func.func\"() <{function_type = (i32) -> i32, sym_name = \"g\", sym_visibility = \"private\"}> ({\n"
      "  }) : () -> ()\n"
      "}) {x.m} : () -> ()\n");
  const std::string pretty =
      "module @m attributes {x.m} {\n"
      "  func.func nested @f(%arg0: i32 {x.a}, %arg1: f32) -> (i32 {x.r}) attributes {x.attr = 2} {\n"
      "    %0 = call @g(%arg0) : (i32) -> i32\n"
      "    return %0 : i32\n"
      "  }\n"
      "  func.func private @g(i32) -> i32\n"
      "}\n";
  CHECK(ref::print(*generic.value) == pretty);
  CHECK(ref::print(*parse_ok(pretty).value) == pretty);
}

TEST_CASE("inherent attributes are read where MLIR reads them, in every form") {
  // MLIR 22 (mlir-opt's behaviour, each case checked against it): in the generic form an
  // inherent attribute may be a property or sit in the attribute dictionary, the property wins,
  // and a property the op does not have is dropped; a pretty func.func takes arg_attrs /
  // res_attrs from `attributes {...}` when its signature writes no dictionary, and drops an
  // inherent attribute of the wrong kind there; a pretty call's `{callee = @g}` names the
  // callee; a module's `sym_name` attribute names it.
  SUBCASE("generic func.func") {
    auto r = parse_ok(
        "\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\", x = 1, arg_attrs = [{x.c}]}> ({\n"
        "^bb0(%a: i32):\n  \"func.return\"() : () -> ()\n"
        "}) {sym_name = \"g\", sym_visibility = \"private\", arg_attrs = [{x.b}], no_inline, y} : () -> ()\n");
    auto& m = *r.value;
    const auto& f = m.function(ref::functions(m)[0]);
    CHECK(f.sym_name == "f");
    CHECK(f.visibility == "private");
    CHECK(f.arg_attrs == std::vector<std::string>{"{x.c}"});
    CHECK(ref::print(m) ==
          "module {\n  func.func private @f(%a: i32 {x.c}) attributes {no_inline, y} {\n    return\n  }\n}\n");
  }
  SUBCASE("pretty func.func") {
    auto r = parse_ok(
        "func.func @f(%a: i32 {}) -> (i32 {}) attributes {arg_attrs = [{x.b}], res_attrs = [{x.r}], z} {\n"
        "  return %a : i32\n}\n"
        "func.func private @g(i32) attributes {arg_attrs = 3, no_inline = 1, y, no_inline2 = 1}\n"
        "func.func private @h() attributes {arg_attrs = [], res_attrs = [], no_inline = unit}\n");
    auto& m = *r.value;
    const auto fs = ref::functions(m);
    CHECK(m.function(fs[0]).arg_attrs == std::vector<std::string>{"{x.b}"});
    CHECK(m.function(fs[0]).result_attrs == std::vector<std::string>{"{x.r}"});
    CHECK(ref::print(m) ==
          "module {\n"
          "  func.func @f(%a: i32 {x.b}) -> (i32 {x.r}) attributes {z} {\n    return %a : i32\n  }\n"
          "  func.func private @g(i32) attributes {y, no_inline2 = 1}\n"
          "  func.func private @h() attributes {no_inline = unit}\n"
          "}\n");
  }
  SUBCASE("func.call") {
    auto r = parse_ok(
        "func.func @f() {\n"
        "  call @f() {callee = @g, no_inline} : () -> ()\n"
        "  \"func.call\"() <{callee = @g, x = 1, arg_attrs = []}> {callee = \"not a symbol\", y} : () -> ()\n"
        "  return\n}\n"
        "func.func @g() {\n  return\n}\n");
    CHECK(ref::print(*r.value) ==
          "module {\n"
          "  func.func @f() {\n"
          "    call @g() {no_inline} : () -> ()\n"
          "    call @g() {y, arg_attrs = []} : () -> ()\n"
          "    return\n  }\n"
          "  func.func @g() {\n    return\n  }\n"
          "}\n");
  }
  SUBCASE("builtin.module") {
    CHECK(ref::print(*parse_ok("builtin.module @m attributes {x.a} {\n}\n").value) ==
          "module @m attributes {x.a} {\n}\n");
    auto renamed = parse_ok("module @m attributes {sym_name = \"n\", x.a} {\n}\n");
    CHECK(renamed.value->sym_name == "n");
    CHECK(ref::print(*renamed.value) == "module @n attributes {x.a} {\n}\n");
    auto generic = parse_ok(
        "\"builtin.module\"() <{sym_name = \"m\", sym_visibility = \"private\", x = 1}> ({\n^bb0:\n"
        "}) {sym_name = \"n\", x.y = 1} : () -> ()\n");
    CHECK(generic.value->sym_name == "m");
    CHECK(ref::print(*generic.value) == "module @m attributes {x.y = 1, sym_visibility = \"private\"} {\n}\n");
  }
}

TEST_CASE("bare top-level ops form an implicit module; aliases may follow the module") {
  auto r = parse_ok("%c = \"x.c\"() : () -> i32\n\"x.use\"(%c) : (i32) -> ()\n");
  CHECK(ref::print(*r.value) ==
        "module {\n  %c = \"x.c\"() : () -> i32\n  \"x.use\"(%c) : (i32) -> ()\n}\n");
  auto after = parse_ok("module {\n  \"x.a\"() : () -> () loc(#loc)\n} loc(#loc)\n#loc = loc(\"f\":1:1)\n");
  CHECK(after.value->alias_definitions == std::vector<std::string>{"#loc = loc(\"f\":1:1)"});
}

TEST_CASE("forward references inside a region resolve; unnamed results are allowed") {
  auto r = parse_ok(
      "\"x.graph\"() ({\n"
      "  \"x.use\"(%v#1) : (f32) -> ()\n"
      "  %v:2 = \"x.def\"() : () -> (i32, f32)\n"
      "}) : () -> ()\n"
      "\"x.unnamed\"() ({\n"
      "}) : () -> (i32, i32)\n");
  auto& m = *r.value;
  auto graph = m.front(m.body());
  auto use = m.front(m.region_block(graph));
  auto def = m.next_op(use);
  CHECK(m.operand(use, 0) == m.result(def, 1));
  auto unnamed = m.next_op(graph);
  CHECK(m.num_results(unnamed) == 2);
  CHECK(m.has_region(unnamed));
  CHECK(ref::print(m) ==
        "module {\n"
        "  \"x.graph\"() ({\n"
        "    \"x.use\"(%v#1) : (f32) -> ()\n"
        "    %v:2 = \"x.def\"() : () -> (i32, f32)\n"
        "  }) : () -> ()\n"
        "  %0:2 = \"x.unnamed\"() ({\n"
        "  }) : () -> (i32, i32)\n"
        "}\n");
}

TEST_CASE("an op with several regions: one block each, in order, each its own scope") {
  // stablehlo.while (cond, body), stablehlo.if (two branches), stablehlo.case (any number): the
  // names of one region are not seen in the next, so each may define %x again; a region may
  // hold no block; each region may take block arguments of its own.
  auto r = parse_ok(
      "func.func @f(%a: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {\n"
      "  %0 = \"stablehlo.while\"(%a) ({\n"
      "  ^bb0(%x: tensor<i32>):\n"
      "    %c = \"stablehlo.compare\"(%x, %a) : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
      "  }, {\n"
      "  ^bb0(%x: tensor<i32>):\n"
      "    %c = \"stablehlo.add\"(%x, %x) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
      "    \"stablehlo.return\"(%c) : (tensor<i32>) -> ()\n"
      "  }) : (tensor<i32>) -> tensor<i32>\n"
      "  %1 = \"stablehlo.case\"(%0) ({\n"
      "    \"stablehlo.return\"(%0) : (tensor<i32>) -> ()\n"
      "  }, {\n"
      "  }, {\n"
      "  ^bb0:\n"
      "  }) : (tensor<i32>) -> tensor<i32>\n"
      "  return %1 : tensor<i32>\n"
      "}\n");
  auto& m = *r.value;
  const auto body = m.region_block(ref::functions(m)[0]);
  const auto w = m.front(body), c = m.next_op(w);
  REQUIRE(m.num_regions(w) == 2);
  REQUIRE(m.num_regions(c) == 3);
  const auto cond = m.region_blocks(w)[0], loop = m.region_blocks(w)[1];
  CHECK(m.region_block(w) == cond);
  CHECK(m.parent_op_of_block(cond) == w);
  CHECK(m.parent_op_of_block(loop) == w);
  CHECK(m.name(m.front(cond)) == "stablehlo.compare");
  CHECK(m.name(m.front(loop)) == "stablehlo.add");
  // Each region's %x is its own block argument; %a from the function is seen in both.
  CHECK(m.operand(m.front(cond), 0) == m.arguments(cond)[0]);
  CHECK(m.operand(m.front(loop), 0) == m.arguments(loop)[0]);
  CHECK(m.operand(m.front(cond), 1) == m.arguments(body)[0]);
  const auto branches = m.region_blocks(c);
  CHECK(m.size(branches[0]) == 1);
  CHECK((m.empty(branches[1]) && !m.explicit_block(branches[1])));
  CHECK((m.empty(branches[2]) && m.explicit_block(branches[2])));
  // Printed as mlir-opt prints it (numbered, each region from the same counters).
  ref::print_options numbered;
  numbered.use_name_hints = false;
  CHECK(ref::print(m, numbered) ==
        "module {\n"
        "  func.func @f(%arg0: tensor<i32>, %arg1: tensor<i1>) -> tensor<i32> {\n"
        "    %0 = \"stablehlo.while\"(%arg0) ({\n"
        "    ^bb0(%arg2: tensor<i32>):\n"
        "      %2 = \"stablehlo.compare\"(%arg2, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "      \"stablehlo.return\"(%2) : (tensor<i1>) -> ()\n"
        "    }, {\n"
        "    ^bb0(%arg2: tensor<i32>):\n"
        "      %2 = \"stablehlo.add\"(%arg2, %arg2) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
        "      \"stablehlo.return\"(%2) : (tensor<i32>) -> ()\n"
        "    }) : (tensor<i32>) -> tensor<i32>\n"
        "    %1 = \"stablehlo.case\"(%0) ({\n"
        "      \"stablehlo.return\"(%0) : (tensor<i32>) -> ()\n"
        "    }, {\n"
        "    }, {\n"
        "    ^bb0:\n"
        "    }) : (tensor<i32>) -> tensor<i32>\n"
        "    return %1 : tensor<i32>\n"
        "  }\n"
        "}\n");
}

TEST_CASE("a name of one region is not seen in its sibling") {
  auto r = ref::parse(
      "\"x.two\"() ({\n  %v = \"x.a\"() : () -> i32\n  \"x.yield\"() : () -> ()\n}, {\n"
      "  \"x.use\"(%v) : (i32) -> ()\n  \"x.yield\"() : () -> ()\n}) : () -> ()\n",
      "t.mlir");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.str() == "t.mlir:5:11: error: use of undeclared SSA value name '%v'");
}

TEST_CASE("names defined in a closed region may be defined again, as mlir-opt prints them") {
  const std::string body =
      "  \"x.r\"() ({\n    %3 = \"x.a\"() : () -> i32\n  }) : () -> ()\n"
      "  \"x.r\"() ({\n    %3 = \"x.a\"() : () -> i32\n  }) : () -> ()\n"
      "  %3 = \"x.b\"() : () -> i32\n";
  auto r = parse_ok(body);
  // A name is free again once its region is closed, so the text prints back unchanged.
  CHECK(ref::print(*r.value) == "module {\n" + body + "}\n");
  // A name visible from the enclosing region is not reused inside a nested one.
  auto shadow = parse_ok(
      "%x = \"x.b\"() : () -> i32\n"
      "\"x.r\"() ({\n  %y = \"x.a\"(%x) : (i32) -> i32\n}) : () -> ()\n");
  auto& m = *shadow.value;
  const auto r_op = *std::next(m.ops(m.body()).begin());
  m.set_name_hint(*m.ops(m.region_block(r_op)).begin(), "x");
  CHECK(ref::print(m) ==
        "module {\n  %x = \"x.b\"() : () -> i32\n"
        "  \"x.r\"() ({\n    %x_1 = \"x.a\"(%x) : (i32) -> i32\n  }) : () -> ()\n}\n");
}

TEST_CASE("attribute and type text is stored trimmed, with comments and line breaks folded") {
  auto r = parse_ok(
      "\"x.y\"() {a = [1, // one\n      2],\n  b = \"x//y\"  } : () -> tensor<4x\n  f32>\n");
  auto& m = *r.value;
  auto op = m.front(m.body());
  CHECK(m.attributes(op)[0].value == "[1, 2]");
  CHECK(m.attributes(op)[1].value == "\"x//y\"");
  CHECK(m.type_text(m.result(op, 0)) == "tensor<4x f32>");
}

namespace {
/// `text` (written with "\n") with every line end replaced by `nl`.
std::string with_line_ends(std::string_view text, std::string_view nl) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += nl;
    else out += c;
  }
  return out;
}
}  // namespace

TEST_CASE("\"\\n\", \"\\r\\n\" and a lone \"\\r\" are each one line end: comments, aliases, locations") {
  const std::string text =
      "// a comment\n"
      "func.func @f(%a: i32) -> i32 { // after the signature\n"
      "  %0 = \"x.y\"(%a) {k = [1, // one\n"
      "      2]} : (i32) -> i32 // after the op\n"
      "  return %0 : i32\n"
      "}\n"
      "#a = \"value\" // after the alias\n";
  const std::string printed =
      "#a = \"value\"\n"
      "module {\n"
      "  func.func @f(%a: i32) -> i32 {\n"
      "    %0 = \"x.y\"(%a) {k = [1, 2]} : (i32) -> i32\n"
      "    return %0 : i32\n"
      "  }\n"
      "}\n";
  for (std::string_view nl : {"\n", "\r\n", "\r"}) {
    CAPTURE(nl.size());
    auto r = parse_ok(with_line_ends(text, nl));
    CHECK(ref::print(*r.value) == printed);
    const auto& m = *r.value;
    auto f = m.front(m.body());
    auto op = m.front(m.region_block(f));
    CHECK(m.loc(op) == neuronrw::source_loc{3, 3});
    CHECK(m.loc(m.next_op(op)) == neuronrw::source_loc{5, 3});
    auto bad = ref::parse(with_line_ends(text.substr(0, text.find("  return")) + "  return %z : i32\n}\n", nl), "t.mlir");
    CHECK(bad.error.str() == "t.mlir:5:10: error: use of undeclared SSA value name '%z'");
  }
  // A lone "\r" ends a comment: before, it ran to the end of the input, leaving an empty module.
  auto r = parse_ok("// comment\r\"x.y\"() : () -> ()\r");
  CHECK(ref::print(*r.value) == "module {\n  \"x.y\"() : () -> ()\n}\n");
}
