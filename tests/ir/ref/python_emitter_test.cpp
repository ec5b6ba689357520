// Tests for neuronrw/ir/ref/python_emitter.hpp and ir/ref/fusion_to_composite.hpp: the consumer of
// FusionToComposite (the Python-like emitter text, dispatch on CompositeKind through
// composite_op_registry, the fatal NCC_ISPP054 default) and the two kind validators with the
// original compiler's exact messages (docs/fusion-to-composite.md, docs/sources.md).
//
// Inputs are MLIR text; lowered modules come from run_fusion_to_composite, so every test also
// exercises the pass → consumer handoff. Outputs are compared byte for byte.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/python_emitter.hpp>

#include <doctest/doctest.h>

#include "support/mlir_opt.hpp"
#include "support/files.hpp"
#include "support/parse.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace {

using namespace neuronrw;

using neuronrw::testing::join;
using neuronrw::testing::parse_ok;
using neuronrw::testing::parse_verified;

/// The text is Python-like by design; it is also valid Python syntax, which python3's `ast`
/// checks when python3 is on the PATH (a note says when it is not).
void check_python_syntax(const std::string& text) {
  static const bool have_python = std::system("python3 -c pass >/dev/null 2>&1") == 0;
  if (!have_python) {
    static bool noted = false;
    if (!noted) MESSAGE("python3 not found; skipping the Python syntax checks");
    noted = true;
    return;
  }
  static int counter = 0;
  namespace fs = std::filesystem;
  auto file = fs::temp_directory_path() /
              ("neuronrw_emit_py_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".py");
  {
    std::ofstream f(file);
    f << text;
  }
  const std::string cmd = "python3 -c \"import ast, sys; ast.parse(open(sys.argv[1]).read())\" '" +
                          file.string() + "' >/dev/null 2>&1";
  INFO(text);
  CHECK(std::system(cmd.c_str()) == 0);
  fs::remove(file);
}

/// Emits `m`; checks success, determinism and Python syntax, and returns the text.
std::string emit_ok(const ref::module& m) {
  std::string out;
  auto errs = emit_python(m, out);
  INFO(join(errs));
  REQUIRE(errs.empty());
  std::string again;
  REQUIRE(emit_python(m, again).empty());
  CHECK(again == out);
  check_python_syntax(out);
  return out;
}

using neuronrw::testing::check_mlir_opt;

/// Parses, lowers with FusionToComposite (must succeed and verify), emits.
std::string lower_and_emit(std::string_view input) {
  auto m = parse_verified(input);
  auto errs = run_fusion_to_composite(m);
  INFO(join(errs));
  REQUIRE(errs.empty());
  REQUIRE(join(ref::verify(m)).empty());
  check_mlir_opt(ref::print(m));
  CHECK(join(validate_composite_kinds(m)).empty());
  return emit_ok(m);
}

/// The emitter fails with exactly `expected` and leaves `out` untouched.
void check_fatal(const ref::module& m, std::string_view expected) {
  std::string out = "untouched";
  auto errs = emit_python(m, out);
  CHECK(join(errs) == expected);
  CHECK(out == "untouched");
}

/// One function with one fusion of `kind` ("" = no FusionKind) over a negate.
std::string one_fusion(std::string_view kind) {
  std::string attr = kind.empty() ? std::string() : " {FusionKind = \"" + std::string(kind) + "\"}";
  return R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %n = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%n) : (tensor<4xf32>) -> ()
  }))" + attr + R"( : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";
}

// ------------------------------------------------------------------------ the seven kinds

TEST_CASE("ScheduleFusion prints its body ops transparently, in body order") {
  CHECK(lower_and_emit(one_fusion("ScheduleFusion")) ==
        R"(def f(x):  # (tensor<4xf32>) -> tensor<4xf32>
    # begin ScheduleFusion @hilo.FusedComposite.0 (bespoke, transparent)
    n = mhlo.negate(x)  # tensor<4xf32>
    v0 = n  # end ScheduleFusion @hilo.FusedComposite.0
    return v0
)");
}

TEST_CASE("MulRedSqrt and DotLogistic have bespoke emitters") {
  CHECK(lower_and_emit(one_fusion("MulRedSqrt")) ==
        R"(def f(x):  # (tensor<4xf32>) -> tensor<4xf32>
    v0 = bespoke.MulRedSqrt(x, decomposition='hilo.FusedComposite.0')  # tensor<4xf32>
    return v0
)");
  CHECK(lower_and_emit(one_fusion("DotLogistic")) ==
        R"(def f(x):  # (tensor<4xf32>) -> tensor<4xf32>
    v0 = bespoke.DotLogistic(x, decomposition='hilo.FusedComposite.0')  # tensor<4xf32>
    return v0
)");
}

TEST_CASE("Expm1, Log1p and Elementwise share the arbitrary emitter with kind Elementwise") {
  for (std::string_view kind : {"Expm1", "Log1p", "Elementwise"}) {
    CAPTURE(kind);
    CHECK(lower_and_emit(one_fusion(kind)) ==
          R"(def f(x):  # (tensor<4xf32>) -> tensor<4xf32>
    def hilo_FusedComposite_0(a):  # arbitrary 'Elementwise' body of @hilo.FusedComposite.0
        n = mhlo.negate(a)  # tensor<4xf32>
        return n
    v0 = arbitrary('Elementwise', hilo_FusedComposite_0, x, composite_kind=')" +
              std::string(kind) + R"(')  # tensor<4xf32>
    return v0
)");
  }
}

TEST_CASE("DotSoftmax uses the arbitrary emitter with its own kind") {
  CHECK(lower_and_emit(one_fusion("DotSoftmax")) ==
        R"(def f(x):  # (tensor<4xf32>) -> tensor<4xf32>
    def hilo_FusedComposite_0(a):  # arbitrary 'DotSoftmax' body of @hilo.FusedComposite.0
        n = mhlo.negate(a)  # tensor<4xf32>
        return n
    v0 = arbitrary('DotSoftmax', hilo_FusedComposite_0, x, composite_kind='DotSoftmax')  # tensor<4xf32>
    return v0
)");
}

// ------------------------------------------------------------------------ the fatal default

constexpr std::string_view supported =
    "Supported kinds are: ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, Elementwise, and "
    "DotSoftmax.";

TEST_CASE("CompositeKind FusedComposite (a fusion without FusionKind) is fatal: NCC_ISPP054") {
  auto m = parse_verified(one_fusion(""));
  REQUIRE(run_fusion_to_composite(m).empty());
  check_fatal(m, "t.mlir:2:3: error: NCC_ISPP054: 'stablehlo.composite' op (decomposition "
                 "@hilo.FusedComposite.0): Unexpected CompositeOp kind 'FusedComposite'. " +
                     std::string(supported) + "\n");
}

TEST_CASE("fatal diagnostics: no partial output, also from inside a transparent body") {
  SUBCASE("an unknown kind nested in a ScheduleFusion body, after text was produced") {
    auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "mhlo.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "mhlo.fusion"(%y) ({
  ^bb0(%a: tensor<4xf32>):
    %n = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "mhlo.fusion"(%n) ({
    ^bb0(%b: tensor<4xf32>):
      "mhlo.return"(%b) : (tensor<4xf32>) -> ()
    }) {FusionKind = "RmsNorm"} : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
    REQUIRE(run_fusion_to_composite(m).empty());
    check_fatal(m, "t.mlir:6:5: error: NCC_ISPP054: 'stablehlo.composite' op (decomposition "
                   "@hilo.FusedComposite.0): Unexpected CompositeOp kind 'RmsNorm'. " +
                       std::string(supported) + "\n");
  }
  SUBCASE("a composite without CompositeKind") {
    auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.composite"(%x) {decomposition = @d, name = "composite.Fused"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @d(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)");
    check_fatal(m, "t.mlir:2:3: error: NCC_ISPP054: 'stablehlo.composite' op (decomposition @d) has no "
                   "string attribute 'CompositeKind'\n");
  }
  SUBCASE("a transparent composite whose decomposition is missing (module does not verify)") {
    auto m = parse_ok(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.composite"(%x) {CompositeKind = "ScheduleFusion", decomposition = @nope} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
    check_fatal(m, "t.mlir:2:3: error: 'stablehlo.composite' op (decomposition @nope): CompositeKind "
                   "'ScheduleFusion' needs the decomposition body, but @nope is not a function with a "
                   "body\n");
  }
  SUBCASE("a decomposition that uses itself") {
    auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.composite"(%x) {CompositeKind = "ScheduleFusion", decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @d(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true} {
  %0 = "stablehlo.composite"(%a) {CompositeKind = "Log1p", decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
    check_fatal(m, "t.mlir:6:3: error: 'stablehlo.composite' op (decomposition @d): the decomposition "
                   "uses itself, directly or through other composites\n");
  }
  SUBCASE("a decomposition whose signature does not match the composite") {
    auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.composite"(%x) {CompositeKind = "DotSoftmax", decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @d() -> tensor<4xf32> {
  %0 = "mhlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
    check_fatal(m, "t.mlir:2:3: error: 'stablehlo.composite' op (decomposition @d): the decomposition "
                   "takes 0 arguments but the composite has 1 operands\n");
  }
}

// ------------------------------------------------------------------------ a whole model

TEST_CASE("all seven kinds in one lowered model, with nesting") {
  const std::string text = lower_and_emit(R"(func.func @model(%w: tensor<4xf32>, %x: tensor<16xf32>) -> (tensor<4xf32>, tensor<16xf32>) {
  %s:2 = "mhlo.fusion"(%w, %x) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<16xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4xf32>) -> tensor<16xf32>
    %d = "mhlo.fusion"(%g, %b) ({
    ^bb0(%p: tensor<16xf32>, %q: tensor<16xf32>):
      %dot = "mhlo.dot"(%p, %q) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
      %sig = "mhlo.logistic"(%dot) : (tensor<16xf32>) -> tensor<16xf32>
      "mhlo.return"(%sig) : (tensor<16xf32>) -> ()
    }) {FusionKind = "DotLogistic"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %rs = "mhlo.reduce_scatter"(%d) {scatter_dimension = 0 : i64} : (tensor<16xf32>) -> tensor<4xf32>
    "mhlo.return"(%rs, %g) : (tensor<4xf32>, tensor<16xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>, tensor<16xf32>) -> (tensor<4xf32>, tensor<16xf32>)
  %n = "mhlo.fusion"(%s#1, %x) ({
  ^bb0(%a: tensor<16xf32>, %b: tensor<16xf32>):
    %m = "mhlo.multiply"(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %q = "mhlo.sqrt"(%m) : (tensor<16xf32>) -> tensor<16xf32>
    "mhlo.return"(%q) : (tensor<16xf32>) -> ()
  }) {FusionKind = "MulRedSqrt"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %e = "mhlo.fusion"(%n) ({
  ^bb0(%a: tensor<16xf32>):
    %t = "mhlo.exponential_minus_one"(%a) : (tensor<16xf32>) -> tensor<16xf32>
    "mhlo.return"(%t) : (tensor<16xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<16xf32>) -> tensor<16xf32>
  %l = "mhlo.fusion"(%e) ({
  ^bb0(%a: tensor<16xf32>):
    %t = "mhlo.log_plus_one"(%a) : (tensor<16xf32>) -> tensor<16xf32>
    "mhlo.return"(%t) : (tensor<16xf32>) -> ()
  }) {FusionKind = "Log1p"} : (tensor<16xf32>) -> tensor<16xf32>
  %el = "mhlo.fusion"(%l, %e) ({
  ^bb0(%a: tensor<16xf32>, %b: tensor<16xf32>):
    %t = "mhlo.add"(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    "mhlo.return"(%t) : (tensor<16xf32>) -> ()
  }) {FusionKind = "Elementwise"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %sm = "mhlo.fusion"(%el, %s#1) ({
  ^bb0(%a: tensor<16xf32>, %b: tensor<16xf32>):
    %t = "mhlo.dot"(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %u = "mhlo.softmax"(%t) : (tensor<16xf32>) -> tensor<16xf32>
    "mhlo.return"(%u) : (tensor<16xf32>) -> ()
  }) {FusionKind = "DotSoftmax"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %s#0, %sm : tensor<4xf32>, tensor<16xf32>
}
)");
  CHECK(text == R"(def model(w, x):  # (tensor<4xf32>, tensor<16xf32>) -> (tensor<4xf32>, tensor<16xf32>)
    # begin ScheduleFusion @hilo.FusedComposite.1 (bespoke, transparent)
    g = mhlo.all_gather(w, all_gather_dimension='0 : i64')  # tensor<16xf32>
    d = bespoke.DotLogistic(g, x, decomposition='hilo.FusedComposite.0')  # tensor<16xf32>
    rs = mhlo.reduce_scatter(d, scatter_dimension='0 : i64')  # tensor<4xf32>
    s_0, s_1 = rs, g  # end ScheduleFusion @hilo.FusedComposite.1
    n = bespoke.MulRedSqrt(s_1, x, decomposition='hilo.FusedComposite.2')  # tensor<16xf32>
    def hilo_FusedComposite_3(a):  # arbitrary 'Elementwise' body of @hilo.FusedComposite.3
        t = mhlo.exponential_minus_one(a)  # tensor<16xf32>
        return t
    e = arbitrary('Elementwise', hilo_FusedComposite_3, n, composite_kind='Expm1')  # tensor<16xf32>
    def hilo_FusedComposite_4(a_1):  # arbitrary 'Elementwise' body of @hilo.FusedComposite.4
        t_1 = mhlo.log_plus_one(a_1)  # tensor<16xf32>
        return t_1
    l = arbitrary('Elementwise', hilo_FusedComposite_4, e, composite_kind='Log1p')  # tensor<16xf32>
    def hilo_FusedComposite_5(a_2, b):  # arbitrary 'Elementwise' body of @hilo.FusedComposite.5
        t_2 = mhlo.add(a_2, b)  # tensor<16xf32>
        return t_2
    el = arbitrary('Elementwise', hilo_FusedComposite_5, l, e, composite_kind='Elementwise')  # tensor<16xf32>
    def hilo_FusedComposite_6(a_3, b_1):  # arbitrary 'DotSoftmax' body of @hilo.FusedComposite.6
        t_3 = mhlo.dot(a_3, b_1)  # tensor<16xf32>
        u = mhlo.softmax(t_3)  # tensor<16xf32>
        return u
    sm = arbitrary('DotSoftmax', hilo_FusedComposite_6, el, s_1, composite_kind='DotSoftmax')  # tensor<16xf32>
    return s_0, sm
)");
}

// ------------------------------------------------------------------------ ordinary ops

TEST_CASE("ordinary ops: regions, attributes, odd names, declarations") {
  auto m = parse_verified(R"(func.func @"my fn"(%mhlo: tensor<4xf32>, %0: i1) -> tensor<4xf32> {
  %r = "test.if"(%0, %mhlo) ({
  ^bb0(%in: tensor<4xf32>):
    "mhlo.return"(%in) : (tensor<4xf32>) -> ()
  }) {flag, mhlo.sharding = "{replicated}", note = "it's \"x\""} : (i1, tensor<4xf32>) -> tensor<4xf32>
  "test.empty"() ({
  }) : () -> ()
  %c = "func.call"(%r) {callee = @ext} : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func private @helper() {
  return
}
)");
  CHECK(emit_ok(m) == R"(def my_fn(mhlo_1, a0):  # (tensor<4xf32>, i1) -> tensor<4xf32>
    def region(in_):  # region of 'test.if'
        return in_
    r = op('test.if', a0, mhlo_1, flag=True, note='"it\'s \\"x\\""', **{'mhlo.sharding': '"{replicated}"'}, region=region)  # tensor<4xf32>
    def region_1():  # region of 'test.empty'
        pass
    test.empty(region=region_1)
    c = func.call(r, callee='@ext')  # tensor<4xf32>
    return c

def ext(arg0): ...  # private declaration (tensor<4xf32>) -> tensor<4xf32>

def helper():  # private () -> ()
    return
)");
}

// ------------------------------------------------------------------------ the validators

TEST_CASE("validators: every fusion and composite kind checked, with the seed's messages") {
  auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.fusion"(%a) ({
    ^bb0(%b: tensor<4xf32>):
      "mhlo.return"(%b) : (tensor<4xf32>) -> ()
    }) {FusionKind = "Nested"} : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Outer"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.fusion"(%0) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "mhlo.fusion"(%2) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "stablehlo.composite"(%3) {CompositeKind = "DotSoftmax", decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "stablehlo.composite"(%4) {CompositeKind = "FusedComposite", decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "stablehlo.composite"(%5) {decomposition = @d} : (tensor<4xf32>) -> tensor<4xf32>
  return %6 : tensor<4xf32>
}
func.func private @d(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.composite"(%a) {CompositeKind = "Expm1 ", decomposition = @e} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @e(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)");
  const std::string fusion_list =
      "Supported fusion types are: ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, "
      "DotSoftmax.\n";
  CHECK(join(validate_fusion_kinds(m)) ==
        "t.mlir:2:3: error: Unexpected FusionOp type 'Outer'. " + fusion_list +
            "t.mlir:4:5: error: Unexpected FusionOp type 'Nested'. " + fusion_list);
  const std::string composite_list = std::string(supported) + "\n";
  CHECK(join(validate_composite_kinds(m)) ==
        "t.mlir:19:3: error: Unexpected CompositeOp kind 'FusedComposite'. " + composite_list +
            "t.mlir:20:3: error: Unexpected CompositeOp kind ''. " + composite_list +
            "t.mlir:24:3: error: Unexpected CompositeOp kind 'Expm1 '. " + composite_list);
  SUBCASE("the pass validates with the same registry when asked") {
    CHECK(join(run_fusion_to_composite(m, {.validate_fusion_kind = true})) ==
          "t.mlir:4:5: error: Unexpected FusionOp type 'Nested'. " + fusion_list +
              "t.mlir:2:3: error: Unexpected FusionOp type 'Outer'. " + fusion_list);
  }
  SUBCASE("a clean lowered module passes both") {
    auto ok = parse_verified(one_fusion("DotLogistic"));
    CHECK(validate_fusion_kinds(ok).empty());
    REQUIRE(run_fusion_to_composite(ok).empty());
    CHECK(validate_fusion_kinds(ok).empty());
    CHECK(validate_composite_kinds(ok).empty());
  }
}

}  // namespace
