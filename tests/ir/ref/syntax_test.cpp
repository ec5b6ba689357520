// Tests of ir/ref/syntax/: the op-syntax table (op_table.hpp), its compiler (op_syntax.hpp) and
// the interpreter that reads (op_reader.hpp) and prints (op_printer.hpp) ops in their dialect's
// custom form, through ref::parse and ref::print.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "support/files.hpp"
#include "support/parse.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/syntax/op_table.hpp>
#include <neuronrw/ir/ref/verify.hpp>

namespace ref = neuronrw::ref;
namespace fs = std::filesystem;

namespace {

using neuronrw::testing::corpus_dir;
using neuronrw::testing::parse_ok;
using neuronrw::testing::read_file;
/// The text without its leading `//` comment lines (the printer does not keep comments).
std::string without_header_comments(const std::string& text) {
  std::size_t at = 0;
  while (text.compare(at, 2, "//") == 0) at = text.find('\n', at) + 1;
  return text.substr(at);
}
std::string parse_error(std::string_view text) {
  auto r = ref::parse(text, "t.mlir");
  REQUIRE_FALSE(r.ok());
  return r.error.str();
}
std::string text_of(const ref::module& m, ref::op_forms forms = ref::op_forms::as_read, bool hints = true) {
  return ref::print(m, ref::print_options{.use_name_hints = hints, .forms = forms});
}
/// One function around `body` (arguments %a: tensor<4xf32>, %b: tensor<4xf32>).
std::string in_function(std::string_view body) {
  return "module {\n  func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n" + std::string(body) + "    return\n  }\n}\n";
}
ref::op_ref first_op_named(const ref::module& m, std::string_view name) {
  ref::op_ref found;
  auto visit = [&](auto&& self, ref::block_ref b) -> void {
    for (auto o : m.ops(b)) {
      if (!found.valid() && m.name(o) == name) found = o;
      if (m.is_function(o)) {
        if (m.has_region(o) && !m.function(o).declaration) self(self, m.region_block(o));
        continue;
      }
      for (const auto r : m.region_blocks(o)) self(self, r);
    }
  };
  visit(visit, m.body());
  return found;
}

}  // namespace

TEST_CASE("every entry of the syntax table compiles") {
  CHECK(ref::op_syntax_table().size() == ref::op_syntax_declarations().size());
  for (const auto& s : ref::op_syntax_table()) {
    CAPTURE(s.name);
    CHECK(s.error.empty());
  }
}

TEST_CASE("every op of the StableHLO specification has an entry, and so do the deprecated ones, CHLO's and Shardy's") {
  // The specification's op list (docs/spec.md, "Ops") and its "Deprecated Operations".
  static constexpr std::string_view spec[] = {
      "abs", "add", "after_all", "all_gather", "all_reduce", "all_to_all", "and", "async_done", "async_start",
      "atan2", "batch_norm_grad", "batch_norm_inference", "batch_norm_training", "bitcast_convert",
      "broadcast_in_dim", "case", "cbrt", "ceil", "cholesky", "clamp", "collective_broadcast",
      "collective_permute", "collective_reduce", "compare", "complex", "composite", "concatenate", "constant",
      "convert", "convolution", "cosine", "count_leading_zeros", "custom_call", "divide", "dot_general",
      "dynamic_broadcast_in_dim", "dynamic_conv", "dynamic_gather", "dynamic_iota", "dynamic_pad",
      "dynamic_reshape", "dynamic_slice", "dynamic_update_slice", "exponential", "exponential_minus_one", "fft",
      "floor", "gather", "get_dimension_size", "get_tuple_element", "if", "imag", "infeed", "iota", "is_finite",
      "log", "log_plus_one", "logistic", "map", "maximum", "minimum", "multiply", "negate", "not",
      "optimization_barrier", "or", "outfeed", "pad", "partition_id", "popcnt", "power", "real", "recv", "reduce",
      "reduce_precision", "reduce_scatter", "reduce_window", "remainder", "replica_id", "reshape", "reverse",
      "rng", "rng_bit_generator", "round_nearest_afz", "round_nearest_even", "rsqrt", "scatter", "select",
      "select_and_scatter", "send", "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign",
      "sine", "slice", "sort", "sqrt", "subtract", "tan", "tanh", "transpose", "triangular_solve", "tuple",
      "uniform_dequantize", "uniform_quantize", "while", "xor",
      // deprecated, still printed by exporters
      "broadcast", "create_token", "cross-replica-sum", "dot", "einsum", "torch_index_select", "unary_einsum"};
  for (auto op : spec) {
    const std::string name = "stablehlo." + std::string(op);
    CAPTURE(name);
    CHECK(ref::find_op_syntax(name) != nullptr);
  }
  CHECK(ref::find_op_syntax("stablehlo.no_such_op") == nullptr);
  // Every op of Shardy's ops.td.
  for (auto op : {"sdy.mesh", "sdy.sharding_constraint", "sdy.reshard", "sdy.return", "sdy.manual_computation",
                  "sdy.sharding_group", "sdy.constant", "sdy.data_flow_edge", "sdy.propagation_barrier",
                  "sdy.named_computation", "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all",
                  "sdy.collective_permute", "sdy.all_reduce", "sdy.reduce_scatter", "sdy.sharded_to_unreduced",
                  "sdy.replicated_to_unreduced", "sdy.func_data_flow_edge"}) {
    CAPTURE(op);
    CHECK(ref::find_op_syntax(op) != nullptr);
  }
  // Every op of StableHLO's ChloOps.td.
  for (auto op : {"broadcast_add", "broadcast_atan2", "broadcast_divide", "broadcast_maximum", "broadcast_minimum",
                  "broadcast_multiply", "broadcast_next_after", "broadcast_polygamma", "broadcast_power",
                  "broadcast_remainder", "broadcast_shift_left", "broadcast_shift_right_arithmetic",
                  "broadcast_shift_right_logical", "broadcast_subtract", "broadcast_zeta", "broadcast_and",
                  "broadcast_or", "broadcast_xor", "next_after", "polygamma", "zeta", "broadcast_complex",
                  "_asin_acos_kernel", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj",
                  "cosh", "sinh", "tan", "constant", "constant_like", "digamma", "erf", "erf_inv", "erfc", "is_inf",
                  "is_neg_inf", "is_pos_inf", "lgamma", "square", "broadcast_compare", "broadcast_select",
                  "ragged_dot", "top_k", "scan", "mulhi"}) {
    const std::string name = "chlo." + std::string(op);
    CAPTURE(name);
    CHECK(ref::find_op_syntax(name) != nullptr);
  }
  // MHLO's namesakes as XLA prints them.
  for (auto op : {"add", "all_gather", "reduce_scatter", "while", "reduce", "fusion", "dot_general", "compare"}) {
    const std::string name = "mhlo." + std::string(op);
    CAPTURE(name);
    CHECK(ref::find_op_syntax(name) != nullptr);
  }
}

TEST_CASE("a malformed declaration is reported with the op and the place") {
  struct bad {
    ref::op_syntax_decl decl;
    std::string error;
  };
  const bad cases[] = {
      {{"t.a", "x", "r", "", "", "$x `,` $y attr-dict"}, "t.a: format: unknown name $y at offset 7"},
      {{"t.b", "x", "r", "", "", "$x `, attr-dict"}, "t.b: format: unterminated literal at offset 3"},
      {{"t.c", "x?", "r", "", "", "($x)? attr-dict"}, "t.c: format: optional group without an anchor at offset 5"},
      {{"t.d", "x", "r", "", "", "$x frobnicate"}, "t.d: format: unknown directive 'frobnicate' at offset 13"},
      {{"t.e", "", "r", "k: float", "", "$k attr-dict"}, "t.e: attribute k: unknown spelling 'float'"},
      {{"t.f", "", "r", "k: enum stablehlo", "", "$k"}, "t.f: attribute k: expected 'enum DIALECT MNEMONIC'"},
      {{"t.g", "x?, y*", "r", "", "", "operands attr-dict"}, "t.g: an optional operand group next to another variadic one"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.decl.name);
    CHECK(ref::compile_op_syntax(c.decl).error == c.error);
  }
}

TEST_CASE("spacing is decided as MLIR's generated printers decide it") {
  // `(` after a value: no space; `,` never; `=` and keywords always; nothing after `[` or `(`.
  const auto s = ref::compile_op_syntax(
      {"t.s", "x, y", "r", "d: i64", "", "$x `[` $d `]` `,` $y `(` `)` `dim` `=` $d attr-dict `:` type($r)"});
  REQUIRE(s.error.empty());
  std::vector<bool> spaces;
  for (const auto& e : s.format) spaces.push_back(e.space_before);
  //                             $x    [      $d     ]      ,      $y    (      )      dim   =     $d    attr  :     type
  CHECK(spaces == std::vector<bool>{true, false, false, false, false, true, false, false, true, true, true, false, true, true});
}

TEST_CASE("the sample modules of every custom form print back unchanged") {
  std::set<std::string> custom;
  for (const char* file : {"ops.mlir", "mhlo_ops.mlir", "chlo_ops.mlir", "sdy_ops.mlir", "arith_ops.mlir"}) {
    CAPTURE(file);
    const auto text = read_file(corpus_dir() / "stablehlo" / file);
    REQUIRE(!text.empty());
    const auto m = parse_ok(text);
    CHECK(ref::verify(m).empty());
    CHECK(text_of(m) == without_header_comments(text));
    // Every op of the table with a custom form is in one of them, in that form.
    auto visit = [&](auto&& self, ref::block_ref b) -> void {
      for (auto o : m.ops(b)) {
        if (ref::form_of(m.syntax_form(o)) == ref::syntax_form::custom) custom.insert(std::string(m.name(o)));
        if (m.is_function(o)) {
          if (m.has_region(o) && !m.function(o).declaration) self(self, m.region_block(o));
          continue;
        }
        for (const auto r : m.region_blocks(o)) self(self, r);
      }
    };
    visit(visit, m.body());
  }
  for (const auto& s : ref::op_syntax_table()) {
    if (!s.has_format) continue;
    CAPTURE(s.name);
    CHECK(custom.contains(s.name));
  }
}

TEST_CASE("pretty -> generic -> pretty and generic -> pretty -> generic are identities") {
  for (const char* file : {"ops.mlir", "mhlo_ops.mlir", "chlo_ops.mlir", "sdy_ops.mlir", "arith_ops.mlir"}) {
  CAPTURE(file);
  const auto text = without_header_comments(read_file(corpus_dir() / "stablehlo" / file));
  const auto generic = text_of(parse_ok(text), ref::op_forms::generic);
  const std::string add = std::string_view(file) == "chlo_ops.mlir"    ? "chlo.broadcast_add"
                          : std::string_view(file) == "arith_ops.mlir" ? "arith.addi"
                                                                       : "hlo.add";
  CHECK(generic.find(add + " %") == std::string::npos);
  CHECK(generic.find(add + "\"(") != std::string::npos);
  CHECK(text_of(parse_ok(generic), ref::op_forms::custom) == text);
  // mlir-opt's own numbering: the text `mlir-opt --mlir-print-op-generic` prints for it.
  const auto numbered = text_of(parse_ok(text), ref::op_forms::generic, false);
  const auto pretty_again = text_of(parse_ok(numbered), ref::op_forms::custom, false);
  CHECK(text_of(parse_ok(pretty_again), ref::op_forms::generic, false) == numbered);
  CHECK(text_of(parse_ok(numbered), ref::op_forms::generic, false) == numbered);
  }
}

TEST_CASE("arith: flags, rounding modes and boolean constants in their generic spelling") {
  const auto m = parse_ok(in_function(
      "    %0 = arith.constant true\n"
      "    %1 = arith.constant {k} 7 : i32\n"
      "    %2 = arith.muli %1, %1 overflow<nsw, nuw> : i32\n"
      "    %3 = arith.addi %2, %1 : i32\n"
      "    %4 = arith.sitofp %3 : i32 to f32\n"
      "    %5 = arith.mulf %4, %4 fastmath<fast> : f32\n"
      "    %6 = arith.truncf %5 toward_zero : f32 to f16\n"
      "    %7 = arith.trunci %3 overflow<nuw> : i32 to i8\n"));
  auto attrs_of = [&](std::string_view name) { return m.attributes(first_op_named(m, name)); };
  CHECK(attrs_of("arith.constant") == std::vector<ref::attribute>{{"value", "true"}});
  CHECK(m.type_text(m.result(first_op_named(m, "arith.constant"), 0)) == "i1");
  CHECK(attrs_of("arith.muli") == std::vector<ref::attribute>{{"overflowFlags", "#arith.overflow<nsw, nuw>"}});
  CHECK(attrs_of("arith.addi").empty());  // the default (#arith.overflow<none>) is not written
  CHECK(attrs_of("arith.sitofp").empty());
  CHECK(attrs_of("arith.mulf") == std::vector<ref::attribute>{{"fastmath", "#arith.fastmath<fast>"}});
  CHECK(attrs_of("arith.truncf") == std::vector<ref::attribute>{{"roundingmode", "3 : i32"}});
  CHECK(attrs_of("arith.trunci") == std::vector<ref::attribute>{{"overflowFlags", "#arith.overflow<nuw>"}});
  // Printed generic, the defaults of the custom form stay unwritten (mlir-opt reads them as
  // defaults); a boolean constant is MLIR's `true`, of type i1.
  const auto generic = text_of(m, ref::op_forms::generic);
  CHECK(generic.find("\"arith.constant\"() <{value = true}> : () -> i1") != std::string::npos);
  CHECK(generic.find("\"arith.addi\"(%2, %1) : (i32, i32) -> i32") != std::string::npos);
  CHECK(generic.find("\"arith.truncf\"(%5) <{roundingmode = 3 : i32}> : (f32) -> f16") != std::string::npos);
  CHECK(text_of(parse_ok(generic), ref::op_forms::custom) == text_of(m));
  // `true` followed by a type is an ordinary typed value.
  const auto typed = parse_ok(in_function("    %0 = arith.constant true : i1\n"));
  CHECK(typed.attributes(first_op_named(typed, "arith.constant")) == std::vector<ref::attribute>{{"value", "true : i1"}});
}

TEST_CASE("inherent attributes are stored in their generic spelling, as the passes see them") {
  const auto m = parse_ok(in_function(
      "    %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0], precision = [DEFAULT, HIGHEST] : "
      "(tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"
      "    %1 = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "    %2 = stablehlo.slice %a [1:3] : (tensor<4xf32>) -> tensor<2xf32>\n"
      "    %3 = stablehlo.custom_call @\"my target\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"));
  auto attrs_of = [&](std::string_view name) { return m.attributes(first_op_named(m, name)); };
  CHECK(attrs_of("stablehlo.dot_general") ==
        std::vector<ref::attribute>{
            {"dot_dimension_numbers", "#stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>"},
            {"precision_config", "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]"}});
  CHECK(attrs_of("stablehlo.compare") ==
        std::vector<ref::attribute>{{"comparison_direction", "#stablehlo<comparison_direction GE>"},
                                    {"compare_type", "#stablehlo<comparison_type FLOAT>"}});
  CHECK(attrs_of("stablehlo.slice") == std::vector<ref::attribute>{{"start_indices", "array<i64: 1>"},
                                                                   {"limit_indices", "array<i64: 3>"},
                                                                   {"strides", "array<i64: 1>"}});
  CHECK(attrs_of("stablehlo.custom_call") == std::vector<ref::attribute>{{"call_target_name", "\"my target\""}});
  // Shardy's integer enums are i32 attributes; CHLO's top_k k an i64.
  const auto m2 = parse_ok(in_function(
      "    %0 = sdy.all_reduce min {\"x\"} %a out_sharding=<@mesh, [{}]> : tensor<4xf32>\n"
      "    %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD : tensor<4xf32>\n"
      "    %2:2 = chlo.top_k(%1, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)\n"));
  CHECK(m2.attributes(first_op_named(m2, "sdy.all_reduce")) ==
        std::vector<ref::attribute>{{"reduction_axes", "#sdy<axis_ref_list{\"x\"}>"},
                                    {"reduction_op", "2 : i32"},
                                    {"out_sharding", "#sdy.sharding<@mesh, [{}]>"}});
  CHECK(m2.attributes(first_op_named(m2, "sdy.propagation_barrier")) ==
        std::vector<ref::attribute>{{"allowed_direction", "1 : i32"}});
  CHECK(m2.attributes(first_op_named(m2, "chlo.top_k")) == std::vector<ref::attribute>{{"k", "2 : i64"}});
  const auto dot = first_op_named(m, "stablehlo.dot_general");
  CHECK(m.num_operands(dot) == 2);
  CHECK(m.type_text(m.result(dot, 0)) == "tensor<f32>");
}

TEST_CASE("other spellings read, and print the way the dialect prints them") {
  const auto m = parse_ok(in_function(
      "    %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "    %1 = stablehlo.compare EQ,%a,%b,FLOAT:(tensor<4xf32>,tensor<4xf32>)->tensor<4xi1>\n"
      "    %2 = stablehlo.slice %a [ 0 : 4 : 1 ] : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %3 = stablehlo.transpose %a, dims = [0] {b = 1, a = 2} : (tensor<4xf32>) -> tensor<4xf32>\n"));
  CHECK(text_of(m) == in_function("    %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
                                "    %1 = stablehlo.compare  EQ, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
                                "    %2 = stablehlo.slice %a [0:4] : (tensor<4xf32>) -> tensor<4xf32>\n"
                                "    %3 = stablehlo.transpose %a, dims = [0] {a = 2, b = 1} : (tensor<4xf32>) -> tensor<4xf32>\n"));
}

TEST_CASE("an op whose data has no custom spelling prints generic, with its inherent attributes as properties") {
  // iota_dimension must be an i64; an i32 has no custom spelling.
  const auto m = parse_ok(in_function(
      "    %0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i32}> : () -> tensor<4xi32>\n"
      "    %1 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> {x.y = 1 : i32} : () -> tensor<4xi32>\n"));
  CHECK(text_of(m, ref::op_forms::custom) ==
        in_function("    %0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i32}> : () -> tensor<4xi32>\n"
                    "    %1 = stablehlo.iota dim = 0 {x.y = 1 : i32} : tensor<4xi32>\n"));
  CHECK(text_of(m) == in_function("    %0 = \"stablehlo.iota\"() <{iota_dimension = 0 : i32}> : () -> tensor<4xi32>\n"
                                "    %1 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> {x.y = 1 : i32} : () -> tensor<4xi32>\n"));
}

TEST_CASE("an op whose custom form would not read back prints generic") {
  // No operands where StableHLO's custom form prints a lone ','; results bound only inside an
  // optional group that is left out; constant values read from a dictionary, where the text
  // is kept as written, that the custom reader would trim or take for its `() <{value = ...}>`
  // form.
  const auto m = parse_ok(in_function(
      "    %0 = \"stablehlo.concatenate\"() {dimension = 0 : i64} : () -> tensor<2xf32>\n"
      "    %1 = \"stablehlo.concatenate\"(%a) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %2:2 = \"stablehlo.optimization_barrier\"() : () -> (tensor<f32>, tensor<i1>)\n"
      "    \"stablehlo.optimization_barrier\"() : () -> ()\n"
      "    %3 = \"stablehlo.constant\"() {value = dense<1> x  : tensor<i32>} : () -> tensor<i32>\n"
      "    %4 = \"stablehlo.constant\"() {value = (%x, k = 8) : tensor<i32>} : () -> tensor<i32>\n"));
  const std::string custom = text_of(m, ref::op_forms::custom);
  CHECK(custom == in_function(
                      "    %0 = \"stablehlo.concatenate\"() <{dimension = 0 : i64}> : () -> tensor<2xf32>\n"
                      "    %1 = stablehlo.concatenate %a, dim = 0 : (tensor<4xf32>) -> tensor<4xf32>\n"
                      "    %2:2 = \"stablehlo.optimization_barrier\"() : () -> (tensor<f32>, tensor<i1>)\n"
                      "    stablehlo.optimization_barrier()\n"
                      "    %3 = \"stablehlo.constant\"() <{value = dense<1> x  : tensor<i32>}> : () -> tensor<i32>\n"
                      "    %4 = \"stablehlo.constant\"() <{value = (%x, k = 8) : tensor<i32>}> : () -> tensor<i32>\n"));
  CHECK(text_of(parse_ok(custom), ref::op_forms::custom) == custom);
}

TEST_CASE("properties of a table op read generic: inherent ones become attributes, others stay as written") {
  const auto m = parse_ok(in_function(
      "    %0 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %1 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 0>, unknown = 1}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %2 = \"stablehlo.abs\"(%a) <{}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %3 = \"stablehlo.transpose\"(%a) {permutation = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>\n"));
  const auto t0 = first_op_named(m, "stablehlo.transpose");
  CHECK(m.attributes(t0) == std::vector<ref::attribute>{{"permutation", "array<i64: 0>"}});
  CHECK(m.properties_text(t0).empty());
  CHECK(text_of(m) == in_function(
                        "    %0 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                        "    %1 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 0>, unknown = 1}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                        "    %2 = \"stablehlo.abs\"(%a) <{}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                        "    %3 = \"stablehlo.transpose\"(%a) {permutation = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>\n"));
  // --mlir-print-op-generic keeps an inherent attribute of the old style where it was, as
  // mlir-opt (which does not know the op) keeps it.
  CHECK(text_of(m, ref::op_forms::generic, false).find(
            "%3 = \"stablehlo.transpose\"(%arg0) {permutation = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>") !=
        std::string::npos);
  // In the custom form, what can be custom is.
  CHECK(text_of(m, ref::op_forms::custom) ==
        in_function("    %0 = stablehlo.transpose %a, dims = [0] : (tensor<4xf32>) -> tensor<4xf32>\n"
                    "    %1 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 0>, unknown = 1}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                    "    %2 = \"stablehlo.abs\"(%a) <{}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                    "    %3 = stablehlo.transpose %a, dims = [0] : (tensor<4xf32>) -> tensor<4xf32>\n"));
  // An op without a custom form, read generic with its inherent attribute in the dictionary,
  // prints as its dialect prints it: the inherent attribute as a property, the rest after.
  const auto g = parse_ok(in_function(
      "    %0 = \"mhlo.set_dimension_size\"(%a, %b) {dimension = 0 : i64, x = 1} : (tensor<4xf32>, tensor<4xf32>) -> "
      "tensor<?xf32>\n"));
  CHECK(text_of(g, ref::op_forms::custom) ==
        in_function("    %0 = \"mhlo.set_dimension_size\"(%a, %b) <{dimension = 0 : i64}> {x = 1} : (tensor<4xf32>, "
                    "tensor<4xf32>) -> tensor<?xf32>\n"));
}

TEST_CASE("while: one header declares the arguments of both regions; the older `cond` indentation is kept") {
  const std::string now =
      "    %0 = stablehlo.while(%iterArg = %a) : tensor<4xf32>\n"
      "    cond {\n"
      "      %c = stablehlo.constant dense<true> : tensor<i1>\n"
      "      stablehlo.return %c : tensor<i1>\n"
      "    } do {\n"
      "      %1 = stablehlo.add %iterArg, %b : tensor<4xf32>\n"
      "      stablehlo.return %1 : tensor<4xf32>\n"
      "    }\n";
  auto m = parse_ok(in_function(now));
  CHECK(text_of(m) == in_function(now));
  const auto w = first_op_named(m, "stablehlo.while");
  REQUIRE(m.num_regions(w) == 2);
  CHECK(m.arguments(m.region_blocks(w)[0]).size() == 1);
  CHECK(m.operand(first_op_named(m, "stablehlo.add"), 0) == m.arguments(m.region_blocks(w)[1])[0]);
  std::string before = now;
  before.replace(before.find("    cond"), 8, "     cond");
  CHECK(text_of(parse_ok(in_function(before))) == in_function(before));
  // Read generic, with other names in each region: printed custom under the body's names.
  const auto generic = text_of(m, ref::op_forms::generic, false);
  CHECK(text_of(parse_ok(generic), ref::op_forms::custom).find("stablehlo.while(%arg2 = %arg0) : tensor<4xf32>\n    cond {") !=
        std::string::npos);
}

TEST_CASE("chlo.scan: StableHLO's hand-written form, stored with its segment sizes as the generic op") {
  // Spaced as written by hand (StableHLO's own tests), printed as its printer spaces it.
  const std::string printed =
      "    %0:3 = chlo.scan(%a, %b) inits (%s) dimension=0  attributes {scan_dim_size = 4 : i64} {\n"
      "    ^bb0(%x: tensor<f32>, %y: tensor<f32>, %acc: tensor<f32>):\n"
      "      %1 = stablehlo.add %acc, %x : tensor<f32>\n"
      "      stablehlo.return %1, %y, %1 : tensor<f32>, tensor<f32>, tensor<f32>\n"
      "    } : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>)\n";
  const auto wrap = [](std::string_view body) {
    return "module {\n  func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %s: tensor<f32>) {\n" + std::string(body) +
           "    return\n  }\n}\n";
  };
  auto scan = parse_ok(wrap(
      "    %0:3 = chlo.scan (%a, %b) inits(%s) dimension = 0 attributes { scan_dim_size = 4 : i64 } {\n"
      "    ^bb0(%x: tensor<f32>, %y: tensor<f32>, %acc: tensor<f32>):\n"
      "      %1 = stablehlo.add %acc, %x : tensor<f32>\n"
      "      stablehlo.return %1, %y, %1 : tensor<f32>, tensor<f32>, tensor<f32>\n"
      "    } : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>)\n"));
  CHECK(text_of(scan) == wrap(printed));
  const auto op = first_op_named(scan, "chlo.scan");
  CHECK(scan.num_operands(op) == 3);
  CHECK(scan.num_results(op) == 3);
  CHECK(scan.attributes(op) == std::vector<ref::attribute>{{"scan_dim_size", "4 : i64"},
                                                            {"dimension", "0 : i64"},
                                                            {"operandSegmentSizes", "array<i32: 2, 1>"},
                                                            {"resultSegmentSizes", "array<i32: 2, 1>"}});
  // Generic: the segment sizes and the dictionary's inherent attribute are properties, as
  // StableHLO's generic printer prints them; read back, the custom form is the same again.
  const auto generic = text_of(scan, ref::op_forms::generic, false);
  CHECK(generic.find("\"chlo.scan\"(%arg0, %arg1, %arg2) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 2, 1>, "
                     "resultSegmentSizes = array<i32: 2, 1>, scan_dim_size = 4 : i64}> ({") != std::string::npos);
  CHECK(text_of(parse_ok(generic), ref::op_forms::custom).find(
            "chlo.scan(%arg0, %arg1) inits (%arg2) dimension=0  attributes {scan_dim_size = 4 : i64} {") != std::string::npos);
  // Segment sizes that do not split the operands and results print generic.
  std::string odd = generic;
  odd.replace(odd.find("resultSegmentSizes = array<i32: 2, 1>"), 37, "resultSegmentSizes = array<i32: 1, 2>");
  CHECK(text_of(parse_ok(odd), ref::op_forms::custom).find("\"chlo.scan\"(") != std::string::npos);
  // Errors of StableHLO's parser, at the op's name.
  const std::string head = "    %0:2 = chlo.scan(%a) inits (%s) dimension=0 {\n    ^bb0(%x: tensor<f32>, %c: tensor<f32>):\n"
                           "      stablehlo.return %x, %c : tensor<f32>, tensor<f32>\n    } : ";
  CHECK(parse_error(wrap(head + "(tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>)\n")) ==
        "t.mlir:3:12: error: operand types must match the number of inputs and inits");
  CHECK(parse_error(wrap("    %0 = chlo.scan(%a) inits (%s, %s) dimension=0 {\n    } : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>\n")) ==
        "t.mlir:3:10: error: not enough result types to cover the required carries");
  CHECK(parse_error(wrap("    %0:2 = chlo.scan(%a) init (%s) dimension=0 {\n    } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n")) ==
        "t.mlir:3:26: error: expected 'inits'");
}

TEST_CASE("reduce: the compact and the reducer forms print as read; the custom form is compact where possible") {
  const std::string compact =
      "    %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n";
  const std::string reducer =
      "    %1 = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
      "     reducer(%x: tensor<f32>, %y: tensor<f32>)  {\n"
      "      %2 = stablehlo.add %x, %y : tensor<f32>\n"
      "      stablehlo.return %2 : tensor<f32>\n"
      "    }\n";
  const std::string c = "    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n";
  const auto m = parse_ok(in_function(c + compact + reducer));
  CHECK(text_of(m) == in_function(c + compact + reducer));
  const auto r = first_op_named(m, "stablehlo.reduce");
  const auto body = m.region_blocks(r)[0];
  CHECK(m.arguments(body).size() == 2);
  CHECK(m.type_text(m.arguments(body)[0]) == "tensor<f32>");
  const auto add = *m.ops(body).begin();
  CHECK(m.name(add) == "stablehlo.add");
  CHECK(m.operand(add, 1) == m.arguments(body)[1]);
  // Read in the reducer form, it stays so; read generic, it becomes compact.
  CHECK(text_of(m, ref::op_forms::custom) == text_of(m));
  const auto generic = text_of(m, ref::op_forms::generic, false);
  CHECK(generic.find("\"stablehlo.reduce\"(%arg0, %0) <{dimensions = array<i64: 0>}> ({") != std::string::npos);
  const auto pretty = text_of(parse_ok(generic), ref::op_forms::custom, false);
  CHECK(pretty.find("%2 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [0]") != std::string::npos);
  CHECK(pretty.find("reducer") == std::string::npos);
  // The compact form's body has the reduce's location (StableHLO's parser gives it that), so
  // other forms print it there; read back, the body prints compact again.
  const std::string located =
      "    %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, "
      "tensor<f32>) -> tensor<f32> loc(\"sum\")\n";
  const auto lm = parse_ok(in_function(c + located));
  CHECK(text_of(lm) == in_function(c + located));
  const auto lg = text_of(lm, ref::op_forms::generic);
  CHECK(lg.find("  ^bb0(%arg0: tensor<f32> loc(\"sum\"), %arg1: tensor<f32> loc(\"sum\")):\n"
                "      %1 = \"stablehlo.add\"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(\"sum\")\n"
                "      \"stablehlo.return\"(%1) : (tensor<f32>) -> () loc(\"sum\")\n"
                "    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32> loc(\"sum\")\n") != std::string::npos);
  CHECK(text_of(parse_ok(lg), ref::op_forms::custom) == in_function(c + located));
}

TEST_CASE("StableHLO's other spellings of one type or attribute read as StableHLO prints them") {
  // type_extensions is how bounds were once written; StableHLO prints (and compares) them as
  // #stablehlo.bounds, so the two spellings are one type.
  const auto m = parse_ok(
      "module {\n"
      "  func.func @f(%a: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) {\n"
      "    %0 = \"test.use\"(%a) : (tensor<?x4xf32, #stablehlo.type_extensions<bounds = [8,?]>>) -> i1\n"
      "    return\n"
      "  }\n"
      "}\n");
  CHECK(text_of(m).find("(tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> i1") != std::string::npos);
  // An attribute written over several lines reads as MLIR prints it, so its custom form applies.
  const auto d = parse_ok(in_function(
      "    %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<\n"
      "      lhs_contracting_dimensions = [0],\n"
      "      rhs_contracting_dimensions = [0]\n"
      "    >} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"));
  // A constant whose result type is not its value's: StableHLO's generic form after the name;
  // the value may come as a property or in the dictionary, and is the same attribute.
  const auto q = parse_ok(in_function(
      "    %0 = stablehlo.constant() {value = dense<1> : tensor<2xi8>, x = 1} : () -> tensor<2x!quant.uniform<i8:f32, 2.0:1>>\n"));
  CHECK(text_of(q) ==
        in_function("    %0 = stablehlo.constant() <{value = dense<1> : tensor<2xi8>}> {x = 1} : () -> "
                    "tensor<2x!quant.uniform<i8:f32, 2.0:1>>\n"));
  const auto* value = q.find_attribute(first_op_named(q, "stablehlo.constant"), "value");
  REQUIRE(value != nullptr);
  CHECK(value->value == "dense<1> : tensor<2xi8>");
  CHECK(text_of(d, ref::op_forms::custom) ==
        in_function("    %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> "
                    "tensor<f32>\n"));
}

TEST_CASE("a dialect attribute written in full where the format prints it stripped reads as MLIR reads it") {
  // Shardy's tests write meshes and shardings both ways; MLIR prints the stripped form.
  const auto m = parse_ok(
      "sdy.mesh @mesh = #sdy.mesh<[\"a\"=2, \"b\"=2]>\n"
      "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.sharding_constraint %a #sdy.sharding<@mesh, [{\"a\"}]> : tensor<8xf32>\n"
      "  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"b\"}]>] out_shardings=[<@mesh, [{\"b\"}]>] "
      "manual_axes=#sdy<manual_axes{\"b\"}> (%x: tensor<4xf32>) {\n"
      "    sdy.return %x : tensor<4xf32>\n"
      "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  return %1 : tensor<8xf32>\n"
      "}\n");
  CHECK(text_of(m) ==
        "module {\n"
        "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
        "  func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
        "    %0 = sdy.sharding_constraint %a <@mesh, [{\"a\"}]> : tensor<8xf32>\n"
        "    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"b\"}]>] out_shardings=[<@mesh, [{\"b\"}]>] "
        "manual_axes={\"b\"} (%x: tensor<4xf32>) {\n"
        "      sdy.return %x : tensor<4xf32>\n"
        "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "    return %1 : tensor<8xf32>\n"
        "  }\n"
        "}\n");
  CHECK(m.attributes(first_op_named(m, "sdy.mesh")).back() == ref::attribute{"mesh", "#sdy.mesh<[\"a\"=2, \"b\"=2]>"});
  // An attribute of another kind is MLIR's error, at the attribute.
  CHECK(parse_error("sdy.mesh @mesh = #sdy.sharding<@m, []>\n") ==
        "t.mlir:1:18: error: invalid kind of attribute specified for 'mesh' (expected #sdy.mesh<...>)");
  CHECK(parse_error("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
                    "  %0 = sdy.manual_computation(%a) in_shardings=[] out_shardings=[] manual_axes=#sdy<axis_ref_list{}> () {\n"
                    "    sdy.return\n  } : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n") ==
        "t.mlir:2:80: error: invalid kind of attribute specified for 'manual_axes' (expected #sdy<manual_axes ...>)");
}

TEST_CASE("a function may end with StableHLO's, MHLO's or Shardy's return, as their tools accept") {
  for (const char* ret : {"stablehlo.return", "mhlo.return", "sdy.return"}) {
    CAPTURE(ret);
    const std::string text = "module {\n  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n    " + std::string(ret) +
                             " %a : tensor<4xf32>\n  }\n}\n";
    const auto m = parse_ok(text);
    CHECK(ref::verify(m).empty());
    CHECK(text_of(m) == text);
  }
  // Another dialect's terminator (scf.yield must be in an scf op) is an error, as in mlir-opt.
  const auto bad = parse_ok("module {\n  func.func @f() {\n    \"scf.yield\"() : () -> ()\n  }\n}\n");
  const auto ds = ref::verify(bad);
  REQUIRE(ds.size() == 1);
  CHECK(ds.front().str() == "t.mlir:2:3: error: function '@f' does not end with 'func.return'");
}

TEST_CASE("bad custom syntax is a located error, and no module") {
  struct bad {
    std::string body;
    std::string error;
  };
  const bad cases[] = {
      {"    %0 = stablehlo.frobnicate %a : tensor<4xf32>\n",
       "t.mlir:3:10: error: custom op 'stablehlo.frobnicate' is not supported by the reference IR (write it in the generic form)"},
      {"    %0 = chlo.constant_like %a : tensor<4xf32>\n",
       "t.mlir:3:10: error: custom op 'chlo.constant_like' has no custom assembly form (write it in the generic form)"},
      {"    %0 = stablehlo.add %a %b : tensor<4xf32>\n", "t.mlir:3:27: error: expected ','"},
      {"    %0 = stablehlo.add %a, %b tensor<4xf32>\n", "t.mlir:3:31: error: expected ':'"},
      {"    %0 = stablehlo.add %a, %b : (tensor<4xf32>) -> tensor<4xf32>\n",
       "t.mlir:3:33: error: 2 operands present, but expected 1"},
      {"    %0 = stablehlo.transpose %a, dims = [0, x] : (tensor<4xf32>) -> tensor<4xf32>\n",
       "t.mlir:3:45: error: expected integer value"},
      {"    %0 = stablehlo.slice %a [0:4:] : (tensor<4xf32>) -> tensor<4xf32>\n",
       "t.mlir:3:34: error: expected integer value"},
      {"    %0 = stablehlo.reduce_precision %a, format = e8x3 : tensor<4xf32>\n",
       "t.mlir:3:50: error: expected exponent mantissa in format e#m#, saw e8x3"},
      {"    %0 = stablehlo.dot_general %a, %b, contracting = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n",
       "t.mlir:3:40: error: expected 'contracting_dims'"},
      {"    %0 = stablehlo.reduce(%a init: %b) applies stablehlo.subtract across dimensions = [0] : (tensor<4xf32>, "
       "tensor<4xf32>) -> tensor<f32>\n",
       "t.mlir:3:48: error: expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero "
       "region, producing single result"},
      {"    %0 = stablehlo.while(%i = %a) : tensor<4xf32>\n    cond {\n      stablehlo.return %i : tensor<4xf32>\n    }\n",
       "t.mlir:7:5: error: expected 'do'"},
      {"    %0 = stablehlo.add %a, %zz : tensor<4xf32>\n", "t.mlir:3:28: error: use of undeclared SSA value name '%zz'"},
      {"    %0 = stablehlo.constant : tensor<f32>\n", "t.mlir:3:29: error: expected attribute value"},
      {"    %0 = stablehlo.constant dense<1>, 2 : tensor<f32>\n",
       "t.mlir:3:37: error: expected ':' and the type of the constant"},
      {"    %0 = stablehlo.constant() {a = 1} : () -> tensor<f32>\n",
       "t.mlir:3:28: error: 'stablehlo.constant' op requires attribute 'value'"},
      {"    %0 = stablehlo.constant() <{value = dense<1> : tensor<i8>}> : tensor<f32>\n",
       "t.mlir:3:67: error: expected '('"},
      {"    %0 = sdy.propagation_barrier %a allowed_direction=SIDEWAYS : tensor<4xf32>\n",
       "t.mlir:3:55: error: expected one of [NONE, FORWARD, BACKWARD, BOTH] for 'allowed_direction'"},
      {"    %0 = chlo.top_k(%a, k = x) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)\n",
       "t.mlir:3:29: error: expected integer value"},
      {"    %0 = chlo.broadcast_add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>\n",
       "t.mlir:3:38: error: expected '('"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    CHECK(parse_error(in_function(c.body)) == c.error);
  }
  // An enum keyword the table does not list is kept (a newer dialect may have it).
  CHECK(text_of(parse_ok(in_function("    %0 = stablehlo.compare  XX, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"))) ==
        in_function("    %0 = stablehlo.compare  XX, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"));
}

TEST_CASE("docs/stablehlo.md lists every op of the table with its status") {
  const char* tests = std::getenv("NEURONRW_TESTS_DIR");
  const auto doc = read_file(fs::path(tests != nullptr ? tests : "tests") / ".." / "docs" / "stablehlo.md");
  REQUIRE(!doc.empty());
  for (const auto& s : ref::op_syntax_table()) {
    const std::string status = !s.special.empty() ? "hand-written" : s.has_format ? "custom" : "generic";
    const std::string row = "| `" + s.name + "` | " + status + " |";
    CAPTURE(row);
    CHECK(doc.find(row) != std::string::npos);
  }
}
