// The pl._dump round trip of SPEC 6: for every self-contained program p, parse(print(p)) is
// structurally equal to p, with the same structural hash, and no pass is re-run — checked on every
// corpus program and example before and after MaterializeCommDomainScopes, on explicit scope
// metadata, on WindowBuffers sharing a base, and on IR built by hand that the plain syntax cannot
// express.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Every input program: tests/corpus/host/*.py (inputs and goldens) and examples/host/*.py.
std::vector<std::filesystem::path> programs() {
  std::vector<std::filesystem::path> out;
  const char* corpus = std::getenv("NEURONRW_CORPUS_DIR");
  const char* tests = std::getenv("NEURONRW_TESTS_DIR");
  for (const auto& dir : {corpus ? std::filesystem::path(corpus) / "host" : std::filesystem::path(),
                          tests ? std::filesystem::path(tests) / ".." / "examples" / "host" : std::filesystem::path()}) {
    if (dir.empty() || !std::filesystem::is_directory(dir)) continue;
    for (auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".py") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// parse(print(p)) == p (structure and hash), printing twice gives the same bytes, and the
/// second print is a fixed point.
void check_roundtrip(const program& p, const std::string& what) {
  INFO(what);
  const std::string text = print_program(p);
  CHECK(print_program(p) == text);
  auto r = parse_program(text, "printed.py");
  INFO(text);
  INFO(r.error.str());
  REQUIRE(r.ok());
  CHECK(structural_equal(p, *r.value));
  CHECK(structural_hash(p) == structural_hash(*r.value));
  CHECK(print_program(*r.value) == text);
}

TEST_CASE("every corpus program and example round-trips before and after the pass") {
  const auto files = programs();
  REQUIRE_MESSAGE(files.size() >= 30, "set NEURONRW_CORPUS_DIR and NEURONRW_TESTS_DIR (meson test does)");
  int materialized = 0;
  for (const auto& path : files) {
    auto r = parse_program(read_file(path), path.filename().string());
    INFO(path.string() << ": " << r.error.str());
    REQUIRE(r.ok());
    program& p = *r.value;
    check_roundtrip(p, path.filename().string() + " before the pass");
    const program before = clone(p);
    const diagnostics errs = materialize_comm_domain_scopes(p);
    if (!errs.empty()) {
      CHECK(structural_equal(before, p));  // an error changes nothing
      continue;
    }
    if (!structural_equal(before, p)) ++materialized;
    check_roundtrip(p, path.filename().string() + " after the pass");
  }
  CHECK(materialized >= 20);
}

TEST_CASE("after the pass, the parsed program shares WindowBuffers exactly like the materialized one") {
  auto r = parse_program(
      "@pl.program\nclass P:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a):\n        return a\n\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        buf = pld.tensor.alloc_window_buffer(64, name=\"buf\")\n"
      "        v = pld.tensor.window(buf, [16], dtype=pl.FP32)\n"
      "        u = pld.tensor.window(buf, [4, 4], dtype=pl.FP32)\n"
      "        self.chip(v, device=0)\n"
      "        self.chip(u, device=1)\n",
      "t.py");
  REQUIRE(r.ok());
  REQUIRE(materialize_comm_domain_scopes(*r.value).empty());
  auto q = parse_program(print_program(*r.value), "t.py");
  REQUIRE(q.ok());
  const stmt& scope = *q.value->functions[1]->body[0];
  REQUIRE(scope.kind == stmt_kind::comm_domain_scope);
  const var* v = scope.body[1]->target.get();
  const var* u = scope.body[2]->target.get();
  REQUIRE(v->type.window);
  CHECK(v->type.window == u->type.window);                        // one object for both views
  CHECK(scope.body[1]->value->call->type.window == v->type.window);     // and for their defining calls
  CHECK(scope.scope->slots.size() == 1);
  CHECK(scope.scope->slots[0] == v->type.window);                        // and for the scope slot
  CHECK(v->type.window->base == scope.body[0]->target.get());
  CHECK(v->type.window->size.get() != scope.body[0]->value->args[0].get());  // a separate field
}

TEST_CASE("explicit scope metadata round-trips: name, devices, attributes, load/store flags") {
  const std::string text =
      "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\nclass M:\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self, n: pl.Scalar[pl.INDEX]):\n"
      "        pl._dump.window_buffer(\"b_window\", base=\"b\", size=128, load_from_host=False, store_to_host=True)\n"
      "        pl._dump.window_buffer(\"a_window\", base=\"a\", size=n, load_from_host=True, store_to_host=False)\n"
      "        with pl._dump.comm_domain(name=\"tp_group\", devices=[4, 0, 2], slots=[pl._dump.window_ref(\"b_window\"), "
      "pl._dump.window_ref(\"a_window\")], attrs={\"priority\": -1, \"tag\": \"tp\", \"sync\": True, \"hint\": pl.FP32}):\n"
      "            a = pld.tensor.alloc_window_buffer(n, name=\"a\")\n"
      "            b = pld.tensor.alloc_window_buffer(128, name=\"b\")\n"
      "            x: pld.DistributedTensor[[n], pl.FP32, pl._dump.window_ref(\"a_window\")] = a\n";
  auto r = parse_program(text, "m.py");
  INFO(r.error.str());
  REQUIRE(r.ok());
  CHECK(print_program(*r.value) == text);
  check_roundtrip(*r.value, "scope metadata");
  const stmt& s = *r.value->functions[0]->body[0];
  CHECK(s.scope->name == "tp_group");
  CHECK(s.scope->devices == std::vector<std::int64_t>{4, 0, 2});  // kept as written, not re-sorted
  REQUIRE(s.scope->attrs.size() == 4);
  CHECK(s.scope->attrs[0].value->value == -1);
  CHECK(s.scope->slots[1]->load_from_host);
  CHECK(s.scope->slots[0]->store_to_host);
  CHECK(s.scope->slots[1]->size->ref == r.value->functions[0]->params[0].get());
  // The pass leaves a materialized function alone, so the metadata survives it too.
  const program before = clone(*r.value);
  CHECK(materialize_comm_domain_scopes(*r.value).empty());
  CHECK(structural_equal(before, *r.value));
}

TEST_CASE("shared-base windows: distinct objects on one base get buf_window, buf_window_1 and print identically twice") {
  auto r = parse_program(
      "@pl.program\nclass S:\n"
      "    @pl.function\n"
      "    def f(self):\n"
      "        pl._dump.window_buffer(\"first\", base=\"buf\", size=8, load_from_host=False, store_to_host=False)\n"
      "        pl._dump.window_buffer(\"second\", base=\"buf\", size=8, load_from_host=False, store_to_host=False)\n"
      "        pl._dump.window_buffer(\"third\", base=\"buf\", size=16, load_from_host=False, store_to_host=False)\n"
      "        buf = pld.tensor.alloc_window_buffer(8, name=\"buf\")\n"
      "        x: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"second\")] = buf\n"
      "        y: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"first\")] = buf\n"
      "        z: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"second\")] = buf\n"
      "        w: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"third\")] = buf\n",
      "s.py");
  REQUIRE(r.ok());
  const std::string once = print_program(*r.value);
  const std::string twice = print_program(*r.value);
  CHECK(once == twice);
  // Labels come from the base name, numbered in order of first use; "first" was never used first.
  CHECK(once.find("pl._dump.window_buffer(\"buf_window\", base=\"buf\", size=8,") != std::string::npos);
  CHECK(once.find("pl._dump.window_buffer(\"buf_window_1\", base=\"buf\", size=8,") != std::string::npos);
  CHECK(once.find("pl._dump.window_buffer(\"buf_window_2\", base=\"buf\", size=16,") != std::string::npos);
  CHECK(once.find("x: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"buf_window\")]") != std::string::npos);
  CHECK(once.find("y: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"buf_window_1\")]") != std::string::npos);
  CHECK(once.find("z: pld.DistributedTensor[[2], pl.FP32, pl._dump.window_ref(\"buf_window\")]") != std::string::npos);
  check_roundtrip(*r.value, "shared base");
  // A copy prints byte-identically although every pointer differs.
  CHECK(print_program(clone(*r.value)) == once);
}

TEST_CASE("IR built by hand that the plain syntax cannot express round-trips through pl._dump forms") {
  program p;
  p.name = "Odd";
  auto chip = std::make_unique<function>();
  chip->name = "chip";
  chip->level = "CHIP";
  chip->role = "Orchestrator";
  auto pa = make_var("a", type::distributed({{4, nullptr}}, "FP32"));
  chip->return_type = type::distributed({{4, nullptr}}, "FP32");
  var* a = pa.get();
  chip->params.push_back(std::move(pa));
  std::vector<expr_ptr> rv;
  rv.push_back(make_var_ref(a));
  chip->body.push_back(make_return(std::move(rv)));
  p.functions.push_back(std::move(chip));

  auto f = std::make_unique<function>();
  f->name = "main";
  f->level = "HOST";
  f->role = "Orchestrator";
  auto n = make_var("n", type::scalar("INDEX"));
  var* pn = n.get();
  f->body.push_back(make_assign(std::move(n), make_int(4)));
  // An allocation without a name (printed without one: the parser never invents it), a window call whose recorded type differs from the derived one,
  // a function call carrying a kwarg named "device" and an attribute before device=, an op named
  // like no dotted path, a symbol that is not one, and a loop variable with its own type.
  auto alloc = make_call(callee_kind::op, "pld.tensor.alloc_window_buffer", {});
  alloc->args.push_back(make_int(64));
  alloc->call->type = type::ptr();
  auto b = make_var("b", type::ptr());
  var* pb = b.get();
  f->body.push_back(make_assign(std::move(b), std::move(alloc)));
  auto win = std::make_shared<window_buffer>();
  win->base = pb;
  win->size = make_var_ref(pn);
  auto wc = make_call(callee_kind::op, "pld.tensor.window", {});
  wc->args.push_back(make_var_ref(pb));
  std::vector<expr_ptr> dims;
  dims.push_back(make_var_ref(pn));
  wc->args.push_back(make_list(std::move(dims)));
  wc->call->kwargs.push_back(make_keyword("dtype", make_symbol("pl.FP32")));
  wc->call->type = type::distributed({{0, pn}}, "FP32", win);
  auto v = make_var("v", type::distributed({{0, pn}}, "FP32", win));
  var* pv = v.get();
  f->body.push_back(make_assign(std::move(v), std::move(wc)));
  auto call = make_call(callee_kind::function, "chip", {});
  call->args.push_back(make_var_ref(pv));
  call->call->kwargs.push_back(make_keyword("device", make_int(5)));
  call->call->attrs.push_back(make_keyword("prio", make_int(1)));
  call->call->attrs.push_back(make_keyword("device", make_int(0)));
  auto lv = make_var("r", type::unknown());
  std::vector<stmt_ptr> loop_body;
  loop_body.push_back(make_expr_stmt(std::move(call)));
  auto odd = make_call(callee_kind::op, "weird op", {});
  odd->args.push_back(make_symbol("NotDotted"));
  odd->call->type = type::tensor({{-1, nullptr}}, "INT8");
  loop_body.push_back(make_expr_stmt(std::move(odd)));
  f->body.push_back(make_for(std::move(lv), make_int(3), make_var_ref(pn), make_int(-2), std::move(loop_body)));
  f->body.push_back(make_scope("comm_d0", {}, {win}, {}, {}));
  p.functions.push_back(std::move(f));

  check_roundtrip(p, "hand-built");
  const std::string text = print_program(p);
  INFO(text);
  CHECK(text.find("b = pld.tensor.alloc_window_buffer(64)\n") != std::string::npos);  // no name: none invented
  CHECK(text.find("pl._dump.call(self.chip, [v], pl.UnknownType, kwargs={\"device\": 5}, attrs={\"prio\": 1, "
                  "\"device\": 0})") != std::string::npos);
  CHECK(text.find("for r in pl.range(3, n, -2, var_type=pl.UnknownType):") != std::string::npos);
  CHECK(text.find("pl._dump.call(\"weird op\", [pl._dump.symbol(\"NotDotted\")], pl.Tensor[[-1], pl.INT8])") !=
        std::string::npos);
}

}  // namespace
