// Tests for examples/neuronrw-opt/plan_json.hpp and json_writer.hpp: the exact JSON of the dry
// runs' plans (docs/plan-format.md) on small inputs parsed from text — ScheduleFusion (a cluster
// with a move, every refusal code), FusionToComposite (conversions, skipped functions and names,
// refusals), MaterializeCommDomainScopes (device ranges, scopes, a refused plan) — and the string
// escaping and layout of the writer. plan_json_test.py validates the plans of every test input
// against docs/plan-schema.json; this file pins the text.
#include <string>
#include <string_view>
#include <utility>

#include <doctest/doctest.h>

#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "plan_json.hpp"

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
namespace host = neuronrw::host;
using neuronrw_opt::json_quote;
using neuronrw_opt::json_value;

ref::module parse_mlir(std::string_view text, std::string_view file) {
  auto parsed = ref::parse(text, file);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error.str());
  auto errors = ref::verify(*parsed.value);
  REQUIRE_MESSAGE(errors.empty(), (errors.empty() ? std::string() : errors[0].str()));
  return std::move(*parsed.value);
}

host::program parse_host(std::string_view text, std::string_view file) {
  auto parsed = host::parse_program(text, file);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error.str());
  return std::move(*parsed.value);
}

/// The document's last member, `"refusals": [...]`, with its indentation, up to the closing `}`.
std::string refusals_of(const std::string& doc) {
  const auto at = doc.find("  \"refusals\": [");
  REQUIRE(at != std::string::npos);
  return doc.substr(at);
}

// A cluster with a carried op, a refusal naming that cluster, a refusal in a second function, a
// skipped decomposition.
constexpr std::string_view schedule_input = R"mlir(func.func @a(%w: tensor<4xf32>, %x: tensor<16xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<16xf32>) {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %y = "mhlo.add"(%g, %x) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
  %r2 = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
  return %r, %r2, %y : tensor<4xf32>, tensor<4xf32>, tensor<16xf32>
}
func.func private @hilo.FusedComposite.0(%p: tensor<16xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
  %s = "mhlo.reduce_scatter"(%p) : (tensor<16xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @b(%x: tensor<16xf32>) -> tensor<4xf32> {
  %r = "mhlo.reduce_scatter"(%x) : (tensor<16xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir";

}  // namespace

TEST_CASE("json_quote: quotes, backslashes and control characters escaped, UTF-8 passed through") {
  CHECK(json_quote("") == R"("")");
  CHECK(json_quote("plain text / slash") == R"("plain text / slash")");
  CHECK(json_quote("say \"hi\"") == R"("say \"hi\"")");
  CHECK(json_quote("C:\\dir\\f.mlir") == R"("C:\\dir\\f.mlir")");
  CHECK(json_quote("a\nb\tc\rd") == R"("a\u000ab\u0009c\u000dd")");
  CHECK(json_quote(std::string_view("\0\x01\x1f\x20\x7f", 5)) == "\"\\u0000\\u0001\\u001f \x7f\"");
  CHECK(json_quote("\b\f") == R"("\u0008\u000c")");
  // Two-, three- and four-byte UTF-8: é, €, 𝄞 (U+1D11E).
  CHECK(json_quote("\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E") == "\"\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E\"");
}

TEST_CASE("json_quote: every byte that starts no valid UTF-8 sequence becomes U+FFFD") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(json_quote("\x80") == "\"" + r + "\"");                   // a lone continuation byte
  CHECK(json_quote("a\xC0\x80z") == "\"a" + r + r + "z\"");       // overlong NUL: C0 is never valid
  CHECK(json_quote("\xE2\x82") == "\"" + r + r + "\"");           // truncated €
  CHECK(json_quote("\xED\xA0\x80") == "\"" + r + r + r + "\"");   // a UTF-16 surrogate (U+D800)
  CHECK(json_quote("\xE0\x80\xAF") == "\"" + r + r + r + "\"");   // overlong three-byte form
  CHECK(json_quote("\xF0\x8F\xBF\xBF") == "\"" + r + r + r + r + "\"");  // overlong four-byte form
  CHECK(json_quote("\xF4\x90\x80\x80") == "\"" + r + r + r + r + "\"");  // above U+10FFFF
  CHECK(json_quote("\xF5\x80") == "\"" + r + r + "\"");           // F5 is never a lead byte
  CHECK(json_quote("\xFF\"") == "\"" + r + "\\\"\"");             // resumes at the next byte
  CHECK(json_quote("\xF4\x8F\xBF\xBF") == "\"\xF4\x8F\xBF\xBF\"");  // U+10FFFF itself is valid
}

TEST_CASE("json_value: keys in insertion order, scalar-only containers inline, others one member per line") {
  json_value doc = json_value::object();
  doc.set("z", 1);
  doc.set("a", json_value::array().push(-2).push(true).push(nullptr).push("s"));
  doc.set("empty_array", json_value::array());
  doc.set("empty_object", json_value::object());
  json_value inner = json_value::object();
  inner.set("flat", json_value::object().set("k", std::size_t{18446744073709551615u}).set("e", json_value::array()));
  inner.set("nested", json_value::array().push(json_value::array().push(1).push(2)).push(json_value::array()));
  doc.set("inner", std::move(inner));
  CHECK(doc.dump() == R"json({
  "z": 1,
  "a": [-2, true, null, "s"],
  "empty_array": [],
  "empty_object": {},
  "inner": {
    "flat": {"k": 18446744073709551615, "e": []},
    "nested": [
      [1, 2],
      []
    ]
  }
}
)json");
  CHECK(json_value::array().dump() == "[]\n");
  // The document itself is never on one line, even when it could be.
  CHECK(json_value::object().set("a", 1).set("b", json_value::array()).dump() == "{\n  \"a\": 1,\n  \"b\": []\n}\n");
  CHECK(json_value("x\ny").dump() == "\"x\\u000ay\"\n");
}

TEST_CASE("schedule-fusion: the whole document of a plan with a cluster, moves and refusals") {
  // The file name needs escaping too, and keeps its UTF-8.
  const std::string file = "dir/\xC3\xBC \"q\".mlir";
  const auto m = parse_mlir(schedule_input, file);
  const auto plan = nr::plan_schedule_fusion(m);
  CHECK(neuronrw_opt::schedule_fusion_plan_json(m, plan, file) == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "schedule-fusion",
  "file": "dir/ü \"q\".mlir",
  "pattern": {"fusion_kind": "ScheduleFusion", "producer_kind": "all_gather", "consumer_kind": "reduce_scatter", "budget": 100, "group_op": "mhlo.fusion", "terminator": "mhlo.return"},
  "emit_composites": false,
  "candidates": 3,
  "functions": ["a", "b"],
  "skipped_functions": [
    {"function": "hilo.FusedComposite.0", "attribute": "genComposite"}
  ],
  "clusters": [
    {
      "index": 0,
      "candidate": 0,
      "function": "a",
      "ops": [
        {
          "name": "mhlo.all_gather",
          "result": "%g",
          "loc": {"file": "dir/ü \"q\".mlir", "line": 2, "col": 3}
        },
        {
          "name": "mhlo.reduce_scatter",
          "result": "%r",
          "loc": {"file": "dir/ü \"q\".mlir", "line": 4, "col": 3}
        }
      ],
      "carried": [
        {
          "name": "mhlo.add",
          "result": "%y",
          "loc": {"file": "dir/ü \"q\".mlir", "line": 3, "col": 3}
        }
      ],
      "moves": [
        {
          "op": {
            "name": "mhlo.add",
            "result": "%y",
            "loc": {"file": "dir/ü \"q\".mlir", "line": 3, "col": 3}
          },
          "position": "after",
          "anchor": {
            "name": "mhlo.reduce_scatter",
            "result": "%r",
            "loc": {"file": "dir/ü \"q\".mlir", "line": 4, "col": 3}
          }
        }
      ],
      "live_ins": ["%w"],
      "live_outs": ["%g", "%r"],
      "walked": 0,
      "decomposition": null
    }
  ],
  "composite_order": [],
  "refusals": [
    {
      "code": "producer_claimed",
      "op": {
        "name": "mhlo.all_gather",
        "result": "%g",
        "loc": {"file": "dir/ü \"q\".mlir", "line": 2, "col": 3}
      },
      "message": "\"mhlo.all_gather\" (2:3) belongs to cluster 0",
      "candidate": 1,
      "function": "a",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r2",
        "loc": {"file": "dir/ü \"q\".mlir", "line": 5, "col": 3}
      },
      "cluster": 0,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "no_producer_operand",
      "op": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "dir/ü \"q\".mlir", "line": 13, "col": 3}
      },
      "message": "no operand is defined by an op of kind all_gather",
      "candidate": 2,
      "function": "b",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "dir/ü \"q\".mlir", "line": 13, "col": 3}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": null
    }
  ]
}
)json");
}

TEST_CASE("schedule-fusion: every refusal code the planner produces, with the text plan's reasons") {
  const auto m = parse_mlir(R"mlir(func.func @fused(%w: tensor<4xf32>) -> tensor<4xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4xf32>):
    %g = "mhlo.all_gather"(%a) : (tensor<4xf32>) -> tensor<16xf32>
    %r = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
    "mhlo.return"(%r) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func @blocks(%w: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %l = "loop.for"(%n, %w) ({
  ^bb0(%i: index, %acc: tensor<4xf32>):
    %r = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
    "loop.yield"(%r) : (tensor<4xf32>) -> ()
  }) : (index, tensor<4xf32>) -> tensor<4xf32>
  return %l : tensor<4xf32>
}
func.func @non_convex(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<4xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @split(%w: tensor<4xf32>, %v: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g1 = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %g2 = "mhlo.all_gather"(%v) : (tensor<4xf32>) -> tensor<16xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %g1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32>
  %r1 = "mhlo.reduce_scatter"(%g1, %g2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32>
  return %r1, %r2 : tensor<4xf32>, tensor<4xf32>
}
func.func @budget(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<4xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %a = "mhlo.negate"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "mhlo.tanh"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir", "r.mlir");
  const auto plan = nr::plan_schedule_fusion(m, {.budget = 1});
  CHECK(refusals_of(neuronrw_opt::schedule_fusion_plan_json(m, plan, "r.mlir")) == R"json(  "refusals": [
    {
      "code": "already_fused",
      "op": {
        "name": "mhlo.fusion",
        "result": "%f",
        "loc": {"file": "r.mlir", "line": 2, "col": 3}
      },
      "message": "already inside \"mhlo.fusion\" (2:3)",
      "candidate": 0,
      "function": "fused",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 5, "col": 5}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "different_block",
      "op": {
        "name": "mhlo.all_gather",
        "result": "%g",
        "loc": {"file": "r.mlir", "line": 11, "col": 3}
      },
      "message": "\"mhlo.all_gather\" (11:3) is in another block",
      "candidate": 1,
      "function": "blocks",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 14, "col": 5}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "non_convex",
      "op": {
        "name": "mhlo.multiply",
        "result": "%y",
        "loc": {"file": "r.mlir", "line": 21, "col": 3}
      },
      "message": "\"mhlo.multiply\" (21:3) depends on \"mhlo.all_gather\" (20:3) and feeds \"mhlo.reduce_scatter\" (22:3)",
      "candidate": 2,
      "function": "non_convex",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 22, "col": 3}
      },
      "cluster": null,
      "path_from": {
        "name": "mhlo.all_gather",
        "result": "%g",
        "loc": {"file": "r.mlir", "line": 20, "col": 3}
      },
      "path_to": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 22, "col": 3}
      },
      "repair": null
    },
    {
      "code": "splits_cluster",
      "op": {
        "name": "mhlo.all_gather",
        "result": "%g2",
        "loc": {"file": "r.mlir", "line": 27, "col": 3}
      },
      "message": "cluster 0 uses the all_gather and feeds the reduce_scatter through \"mhlo.all_gather\" (27:3)",
      "candidate": 4,
      "function": "split",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r1",
        "loc": {"file": "r.mlir", "line": 29, "col": 3}
      },
      "cluster": 0,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "budget_exceeded",
      "op": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 36, "col": 3}
      },
      "message": "the dependence walk would visit more than 1 ops",
      "candidate": 5,
      "function": "budget",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "r.mlir", "line": 36, "col": 3}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": null
    }
  ]
}
)json");
}

TEST_CASE("schedule-fusion: composites, an unbounded budget, and a reschedule_refused refusal at an op without location") {
  auto m = parse_mlir(schedule_input, "c.mlir");
  auto plan = nr::plan_schedule_fusion_composites(std::as_const(m), {.budget = nr::unbounded_budget});
  // The reference IR's planner cannot produce reschedule_refused from a verified module (the
  // repair refuses only what verify rejects first), so the record is made here; its op was created
  // without a location or a result name, and its unit is out of range (no function).
  nr::ref_schedule_fusion_plan::refusal_record r;
  r.code = nr::schedule_refusal::reschedule_refused;
  r.repair = nr::repair_refusal::moves_terminator;
  r.candidate = 9;
  r.unit = 7;
  r.consumer = plan.clusters.at(0).consumer();
  const ref::type_ref i32[] = {m.intern_type("i32")};
  r.op = m.create_op("test.nowhere", {}, i32);
  plan.refused.push_back(r);
  CHECK(neuronrw_opt::schedule_fusion_plan_json(m, plan, "c.mlir") == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "schedule-fusion",
  "file": "c.mlir",
  "pattern": {"fusion_kind": "ScheduleFusion", "producer_kind": "all_gather", "consumer_kind": "reduce_scatter", "budget": null, "group_op": "mhlo.fusion", "terminator": "mhlo.return"},
  "emit_composites": true,
  "candidates": 4,
  "functions": ["a", "b"],
  "skipped_functions": [
    {"function": "hilo.FusedComposite.0", "attribute": "genComposite"}
  ],
  "clusters": [
    {
      "index": 0,
      "candidate": 0,
      "function": "a",
      "ops": [
        {
          "name": "mhlo.all_gather",
          "result": "%g",
          "loc": {"file": "c.mlir", "line": 2, "col": 3}
        },
        {
          "name": "mhlo.reduce_scatter",
          "result": "%r",
          "loc": {"file": "c.mlir", "line": 4, "col": 3}
        }
      ],
      "carried": [
        {
          "name": "mhlo.add",
          "result": "%y",
          "loc": {"file": "c.mlir", "line": 3, "col": 3}
        }
      ],
      "moves": [
        {
          "op": {
            "name": "mhlo.add",
            "result": "%y",
            "loc": {"file": "c.mlir", "line": 3, "col": 3}
          },
          "position": "after",
          "anchor": {
            "name": "mhlo.reduce_scatter",
            "result": "%r",
            "loc": {"file": "c.mlir", "line": 4, "col": 3}
          }
        }
      ],
      "live_ins": ["%w"],
      "live_outs": ["%g", "%r"],
      "walked": 0,
      "decomposition": "hilo.FusedComposite.1"
    }
  ],
  "composite_order": [0],
  "refusals": [
    {
      "code": "producer_claimed",
      "op": {
        "name": "mhlo.all_gather",
        "result": "%g",
        "loc": {"file": "c.mlir", "line": 2, "col": 3}
      },
      "message": "\"mhlo.all_gather\" (2:3) belongs to cluster 0",
      "candidate": 1,
      "function": "a",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r2",
        "loc": {"file": "c.mlir", "line": 5, "col": 3}
      },
      "cluster": 0,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "no_producer_operand",
      "op": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "c.mlir", "line": 13, "col": 3}
      },
      "message": "no operand is defined by an op of kind all_gather",
      "candidate": 2,
      "function": "b",
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "c.mlir", "line": 13, "col": 3}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": null
    },
    {
      "code": "reschedule_refused",
      "op": {"name": "test.nowhere", "result": null, "loc": null},
      "message": "moves_terminator at \"test.nowhere\" (?)",
      "candidate": 9,
      "function": null,
      "consumer": {
        "name": "mhlo.reduce_scatter",
        "result": "%r",
        "loc": {"file": "c.mlir", "line": 4, "col": 3}
      },
      "cluster": null,
      "path_from": null,
      "path_to": null,
      "repair": "moves_terminator"
    }
  ]
}
)json");
}

TEST_CASE("fusion-to-composite: conversions, a defaulted kind, a skipped decomposition and its taken name") {
  const auto m = parse_mlir(R"mlir(func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = "mhlo.fusion"(%a) ({
  ^bb0(%p: tensor<4xf32>):
    %n = "mhlo.negate"(%p) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%n) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  %h = "mhlo.fusion"(%f) ({
  ^bb0(%q: tensor<4xf32>):
    "mhlo.return"(%q) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %f, %h : tensor<4xf32>, tensor<4xf32>
}
func.func private @hilo.FusedComposite.0(%p: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
  return %p : tensor<4xf32>
}
)mlir", "main.mlir");
  const auto plan = nr::plan_fusion_to_composite(m);
  CHECK(neuronrw_opt::fusion_to_composite_plan_json(m, plan, "main.mlir") == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "fusion-to-composite",
  "file": "main.mlir",
  "ok": true,
  "composite_op": "stablehlo.composite",
  "skipped_functions": [
    {"function": "hilo.FusedComposite.0", "reason": "gen_composite"}
  ],
  "skipped_names": ["hilo.FusedComposite.0"],
  "conversions": [
    {
      "fusion": {
        "name": "mhlo.fusion",
        "result": "%f",
        "loc": {"file": "main.mlir", "line": 2, "col": 3}
      },
      "function": "main",
      "composite_kind": "ScheduleFusion",
      "kind_defaulted": false,
      "composite_name": "composite.Fused",
      "decomposition": "hilo.FusedComposite.1"
    },
    {
      "fusion": {
        "name": "mhlo.fusion",
        "result": "%h",
        "loc": {"file": "main.mlir", "line": 7, "col": 3}
      },
      "function": "main",
      "composite_kind": "FusedComposite",
      "kind_defaulted": true,
      "composite_name": "composite.Fused",
      "decomposition": "hilo.FusedComposite.2"
    }
  ],
  "refusals": []
}
)json");
}

TEST_CASE("fusion-to-composite: a refused plan (non_string_kind, bad_terminator, captured_value), control characters in a kind") {
  const auto m = parse_mlir(R"mlir(func.func @bad(%w: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %k = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %c = "mhlo.fusion"(%w) ({
  ^bb0(%b: tensor<4xf32>):
    %s = "mhlo.add"(%b, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"() : () -> ()
  }) {FusionKind = "ScheduleFusion\n\t\"x\""} : (tensor<4xf32>) -> tensor<4xf32>
  return %k, %c : tensor<4xf32>, tensor<4xf32>
}
)mlir", "bad.mlir");
  const auto plan = nr::plan_fusion_to_composite(m);
  CHECK(neuronrw_opt::fusion_to_composite_plan_json(m, plan, "bad.mlir") == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "fusion-to-composite",
  "file": "bad.mlir",
  "ok": false,
  "composite_op": "stablehlo.composite",
  "skipped_functions": [],
  "skipped_names": [],
  "conversions": [
    {
      "fusion": {
        "name": "mhlo.fusion",
        "result": "%k",
        "loc": {"file": "bad.mlir", "line": 2, "col": 3}
      },
      "function": "bad",
      "composite_kind": "",
      "kind_defaulted": false,
      "composite_name": "composite.Fused",
      "decomposition": "hilo.FusedComposite.0"
    },
    {
      "fusion": {
        "name": "mhlo.fusion",
        "result": "%c",
        "loc": {"file": "bad.mlir", "line": 6, "col": 3}
      },
      "function": "bad",
      "composite_kind": "ScheduleFusion\u000a\u0009\"x\"",
      "kind_defaulted": false,
      "composite_name": "composite.Fused",
      "decomposition": "hilo.FusedComposite.1"
    }
  ],
  "refusals": [
    {
      "code": "non_string_kind",
      "op": {
        "name": "mhlo.fusion",
        "result": "%k",
        "loc": {"file": "bad.mlir", "line": 2, "col": 3}
      },
      "message": "fusion attribute 'FusionKind' must be a string, e.g. FusionKind = \"ScheduleFusion\""
    },
    {
      "code": "bad_terminator",
      "op": {
        "name": "mhlo.return",
        "result": null,
        "loc": {"file": "bad.mlir", "line": 9, "col": 5}
      },
      "message": "a fusion body must end with a return of its 1 result(s), e.g. \"mhlo.return\", to become the decomposition's func.return"
    },
    {
      "code": "captured_value",
      "op": {
        "name": "mhlo.add",
        "result": "%s",
        "loc": {"file": "bad.mlir", "line": 8, "col": 5}
      },
      "message": "operand #1 uses a value defined outside the enclosing fusion, so the fusion cannot be outlined into a decomposition function"
    }
  ]
}
)json");
}

TEST_CASE("fusion-to-composite: unknown_fusion_kind carries the registry's message") {
  const auto m = parse_mlir(R"mlir(func.func @k(%w: tensor<4xf32>) -> tensor<4xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "NoSuchKind"} : (tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
)mlir", "k.mlir");
  const auto plan = nr::plan_fusion_to_composite(m, {.validate_fusion_kind = true});
  CHECK(refusals_of(neuronrw_opt::fusion_to_composite_plan_json(m, plan, "k.mlir")) == R"json(  "refusals": [
    {
      "code": "unknown_fusion_kind",
      "op": {
        "name": "mhlo.fusion",
        "result": "%f",
        "loc": {"file": "k.mlir", "line": 2, "col": 3}
      },
      "message": "Unexpected FusionOp type 'NoSuchKind'. Supported fusion types are: ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax."
    }
  ]
}
)json");
}

TEST_CASE("materialize-comm-domain-scopes: buffers, views, dispatches over rank ranges, a collective, a scope") {
  const auto p = parse_host(R"py(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32], b: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        sig_buf = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig_buf, [16], dtype=pl.FP32)
        for r in pl.range(1, 3):
            self.chip(v, v, device=r)
        self.chip(v, v, device=5)
        y = pld.tensor.allreduce(v, s)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def idle(self):
        return 0
)py", "host.py");
  const auto plan = nr::plan_comm_domain_scopes(p);
  CHECK(neuronrw_opt::comm_domain_plan_json(p, plan, "host.py") == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "materialize-comm-domain-scopes",
  "file": "host.py",
  "ok": true,
  "functions": [
    {
      "name": "main",
      "status": "materialize",
      "buffers": [
        {
          "name": "buf",
          "op": {
            "name": "pld.tensor.alloc_window_buffer",
            "result": "buf",
            "loc": {"file": "host.py", "line": 13, "col": 15}
          },
          "views": [0],
          "devices": {
            "all": false,
            "ranges": [
              [1, 2],
              [5, 5]
            ]
          },
          "scope": 0
        },
        {
          "name": "sig",
          "op": {
            "name": "pld.tensor.alloc_window_buffer",
            "result": "sig_buf",
            "loc": {"file": "host.py", "line": 15, "col": 19}
          },
          "views": [1],
          "devices": {
            "all": false,
            "ranges": [
              [1, 2],
              [5, 5]
            ]
          },
          "scope": 0
        }
      ],
      "views": [
        {
          "op": {
            "name": "pld.tensor.window",
            "result": "v",
            "loc": {"file": "host.py", "line": 14, "col": 13}
          },
          "buffer": 0
        },
        {
          "op": {
            "name": "pld.tensor.window",
            "result": "s",
            "loc": {"file": "host.py", "line": 16, "col": 13}
          },
          "buffer": 1
        }
      ],
      "dispatches": [
        {
          "callee": "chip",
          "op": {
            "name": "self.chip",
            "result": null,
            "loc": {"file": "host.py", "line": 18, "col": 13}
          },
          "devices": {
            "all": false,
            "ranges": [
              [1, 2]
            ]
          },
          "buffers": [0, 0]
        },
        {
          "callee": "chip",
          "op": {
            "name": "self.chip",
            "result": null,
            "loc": {"file": "host.py", "line": 19, "col": 9}
          },
          "devices": {
            "all": false,
            "ranges": [
              [5, 5]
            ]
          },
          "buffers": [0, 0]
        }
      ],
      "collectives": [
        {
          "op": {
            "name": "pld.tensor.allreduce",
            "result": "y",
            "loc": {"file": "host.py", "line": 20, "col": 13}
          },
          "target": 0,
          "inheritors": [1]
        }
      ],
      "scopes": [
        {
          "name": "comm_d0",
          "all_devices": false,
          "devices": [1, 2, 5],
          "slots": [0, 1]
        }
      ]
    },
    {"name": "idle", "status": "no_allocs", "buffers": [], "views": [], "dispatches": [], "collectives": [], "scopes": []}
  ],
  "refusals": [],
  "remarks": [],
  "unmodeled": []
}
)json");
}

TEST_CASE("materialize-comm-domain-scopes: a refused plan names the expression at fault and where the error is reported") {
  const auto p = parse_host(R"py(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Bad:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(0, 8, 2):
            self.chip(v, device=r)
)py", "bad.py");
  const auto plan = nr::plan_comm_domain_scopes(p);
  REQUIRE_FALSE(plan.ok());
  CHECK(neuronrw_opt::comm_domain_plan_json(p, plan, "bad.py") == R"json({
  "format": "neuronrw-plan",
  "version": 1,
  "pass": "materialize-comm-domain-scopes",
  "file": "bad.py",
  "ok": false,
  "functions": [
    {
      "name": "main",
      "status": "failed",
      "buffers": [
        {
          "name": "buf",
          "op": {
            "name": "pld.tensor.alloc_window_buffer",
            "result": "buf",
            "loc": {"file": "bad.py", "line": 13, "col": 15}
          },
          "views": [0],
          "devices": {"all": false, "ranges": []},
          "scope": null
        }
      ],
      "views": [
        {
          "op": {
            "name": "pld.tensor.window",
            "result": "v",
            "loc": {"file": "bad.py", "line": 14, "col": 13}
          },
          "buffer": 0
        }
      ],
      "dispatches": [],
      "collectives": [],
      "scopes": []
    }
  ],
  "refusals": [
    {
      "code": "non_unit_step",
      "op": {
        "name": "2",
        "result": null,
        "loc": {"file": "bad.py", "line": 15, "col": 33}
      },
      "message": "MaterializeCommDomainScopes: device=r over a non-unit-step loop is not supported (step=2)",
      "loc": {"file": "bad.py", "line": 16, "col": 13}
    }
  ],
  "remarks": [],
  "unmodeled": []
}
)json");
}

TEST_CASE("plan_json_enums: every spelling, in enumerator order") {
  CHECK(neuronrw_opt::plan_json_enums() == R"json({
  "schedule_refusal": ["no_producer_operand", "already_fused", "producer_claimed", "different_block", "budget_exceeded", "non_convex", "splits_cluster", "reschedule_refused"],
  "repair_refusal": ["none", "different_blocks", "wrong_order", "moves_terminator", "after_terminator", "slice_feeds_range"],
  "move_position": ["before", "after"],
  "f2c_problem_code": ["unknown_fusion_kind", "non_string_kind", "no_body", "bad_terminator", "region_arguments", "captured_value"],
  "f2c_skip_reason": ["gen_composite"],
  "comm_domain_refusal_code": ["bad_alloc_call", "unsupported_device", "non_unit_step", "collective_in_loop", "bad_collective_call", "no_coverage_to_share", "dead_allocation", "unconsumed_allocation", "untyped_view", "too_many_devices", "too_many_scopes", "duplicate_name", "bad_arithmetic", "unmodeled_comm_api"],
  "comm_domain_status": ["materialize", "no_allocs", "already_materialized", "failed"],
  "allreduce_signal_refusal_code": ["bad_arity", "implicit_in_loop", "nested", "bad_core_num"],
  "allreduce_signal_form": ["assign", "expr_stmt", "return"]
}
)json");
}
