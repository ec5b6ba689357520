// Tests for neuronrw/ir/host/ir.hpp and traits.hpp: building programs, type queries, the type
// the IR derives for calls, deep copies that keep WindowBuffer sharing, and the host-concept
// mapping.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/traits.hpp>

#include <doctest/doctest.h>

#include <concepts>
#include <memory>
#include <ranges>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

static_assert(host_program<program>);
static_assert(rewritable_host_program<program>);
static_assert(require_rewritable_host_program<program>());
static_assert(std::ranges::forward_range<ptr_range<stmt>>);
static_assert(std::same_as<std::ranges::range_value_t<ptr_range<function>>, function*>);

std::vector<keyword> kws(std::string name, expr_ptr value) {
  std::vector<keyword> out;
  out.push_back(make_keyword(std::move(name), std::move(value)));
  return out;
}
std::vector<expr_ptr> exprs(expr_ptr a, expr_ptr b = nullptr) {
  std::vector<expr_ptr> out;
  out.push_back(std::move(a));
  if (b) out.push_back(std::move(b));
  return out;
}

/// main(): buf = alloc(64, name="buf"); v = window(buf, [16], dtype=pl.FP32); w = window(...)
struct two_views {
  program p;
  function* f = nullptr;
  var* buf = nullptr;
  var* v = nullptr;
  var* w = nullptr;
  window_ptr shared;

  two_views() {
    auto fn = std::make_unique<function>();
    fn->name = "main";
    fn->level = "HOST";
    fn->role = "Orchestrator";
    f = fn.get();
    auto alloc = make_call(callee_kind::op, "pld.tensor.alloc_window_buffer", exprs(make_int(64)),
                           kws("name", make_str("buf")));
    alloc->call->type = infer_call_type(*alloc);
    auto bv = make_var("buf", alloc->call->type);
    buf = bv.get();
    fn->body.push_back(make_assign(std::move(bv), std::move(alloc)));
    for (var** out : {&v, &w}) {
      auto c = make_call(callee_kind::op, "pld.tensor.window", exprs(make_var_ref(buf), make_list(exprs(make_int(16)))),
                         kws("dtype", make_symbol("pl.FP32")));
      c->call->type = infer_call_type(*c);
      auto vv = make_var(out == &v ? "v" : "w", c->call->type);
      *out = vv.get();
      fn->body.push_back(make_assign(std::move(vv), std::move(c)));
    }
    auto wb = std::make_shared<window_buffer>();
    wb->base = buf;
    wb->size = make_int(64);
    shared = wb;
    v->type.window = shared;
    w->type.window = shared;
    p.functions.push_back(std::move(fn));
  }
};

TEST_CASE("infer_call_type follows the ops of SPEC 6") {
  auto alloc = make_call(callee_kind::op, "pld.tensor.alloc_window_buffer", exprs(make_int(8)));
  CHECK(same_type(infer_call_type(*alloc), type::ptr()));
  auto ws = make_call(callee_kind::op, "pld.system.world_size", {});
  CHECK(same_type(infer_call_type(*ws), type::scalar("INDEX")));

  auto n = make_var("n", type::scalar("INDEX"));
  auto win = make_call(callee_kind::op, "pld.tensor.window",
                       exprs(make_none(), make_list(exprs(make_int(4), make_var_ref(n.get())))),
                       kws("dtype", make_symbol("pl.BF16")));
  const type t = infer_call_type(*win);
  REQUIRE(t.kind == type_kind::distributed_tensor);
  CHECK(t.dtype == "BF16");
  REQUIRE(t.shape.size() == 2);
  CHECK(t.shape[0].value == 4);
  CHECK(t.shape[1].sym == n.get());
  CHECK(t.window == nullptr);

  // Without a usable dtype or shape nothing is known.
  auto no_dtype = make_call(callee_kind::op, "pld.tensor.window", exprs(make_none(), make_list(exprs(make_int(4)))));
  CHECK(infer_call_type(*no_dtype).kind == type_kind::unknown);
  auto bad_dtype = make_call(callee_kind::op, "pld.tensor.window", exprs(make_none(), make_list(exprs(make_int(4)))),
                             kws("dtype", make_symbol("pl.a.b")));
  CHECK(infer_call_type(*bad_dtype).kind == type_kind::unknown);

  // Collectives return the in-place buffer's type: argument 0, or the target (argument 1).
  auto x = make_var("x", type::tensor({{8, nullptr}}, "FP32"));
  auto y = make_var("y", type::distributed({{2, nullptr}}, "INT8"));
  auto ar = make_call(callee_kind::op, "pld.tensor.allreduce", exprs(make_var_ref(x.get()), make_var_ref(y.get())));
  CHECK(same_type(infer_call_type(*ar), x->type));
  auto ag = make_call(callee_kind::op, "pld.tensor.allgather", exprs(make_var_ref(x.get()), make_var_ref(y.get())));
  CHECK(same_type(infer_call_type(*ag), y->type));
  auto fn = make_call(callee_kind::function, "chip", exprs(make_var_ref(x.get())));
  CHECK(infer_call_type(*fn).kind == type_kind::unknown);
  auto other = make_call(callee_kind::op, "pld.tensor.something", {});
  CHECK(infer_call_type(*other).kind == type_kind::unknown);
}

TEST_CASE("same_type compares variables and WindowBuffers by identity") {
  auto a = make_var("n");
  auto b = make_var("n");
  CHECK(same_type(type::tensor({{0, a.get()}}, "FP32"), type::tensor({{0, a.get()}}, "FP32")));
  CHECK_FALSE(same_type(type::tensor({{0, a.get()}}, "FP32"), type::tensor({{0, b.get()}}, "FP32")));
  CHECK_FALSE(same_type(type::tensor({{4, nullptr}}, "FP32"), type::tensor({{4, nullptr}}, "FP16")));
  CHECK_FALSE(same_type(type::tensor({{4, nullptr}}, "FP32"), type::distributed({{4, nullptr}}, "FP32")));
  auto w1 = std::make_shared<window_buffer>();
  auto w2 = std::make_shared<window_buffer>();
  CHECK_FALSE(same_type(type::distributed({}, "FP32", w1), type::distributed({}, "FP32", w2)));
  CHECK(same_type_but_window(type::distributed({}, "FP32", w1), type::distributed({}, "FP32", w2)));
  CHECK(same_type(type_of(*make_int(3)), type::scalar("INDEX")));
  CHECK(same_type(type_of(*make_bool(true)), type::scalar("BOOL")));
  CHECK(type_of(*make_str("s")).kind == type_kind::unknown);
}

TEST_CASE("clone is deep, keeps WindowBuffer sharing and is structurally equal") {
  two_views t;
  program c = clone(t.p);
  CHECK(structural_equal(t.p, c));
  CHECK(structural_hash(t.p) == structural_hash(c));
  const function& cf = *c.functions[0];
  var* cv = cf.body[1]->target.get();
  var* cw = cf.body[2]->target.get();
  var* cbuf = cf.body[0]->target.get();
  CHECK(cv != t.v);
  REQUIRE(cv->type.window);
  CHECK(cv->type.window == cw->type.window);  // still one object for both views
  CHECK(cv->type.window != t.shared);         // but a new one
  CHECK(cv->type.window->base == cbuf);       // whose base is the copy's variable
  CHECK(cf.body[1]->value->args[0]->ref == cbuf);

  // Independent: changing the copy leaves the original alone.
  cf.body[1]->target->name = "renamed";
  cf.body[1]->value->args[1]->args[0]->value = 99;
  CHECK(t.v->name == "v");
  CHECK_FALSE(structural_equal(t.p, c));
}

TEST_CASE("clone copies what only calls and scopes own: keywords, attributes, result types, scope metadata") {
  two_views t;
  // The views' WindowBuffer gets a size that is itself a call, a dispatch gets an attribute, and
  // the whole body goes into a comm-domain scope with a device list, a slot and an attribute.
  auto size = make_call(callee_kind::op, "pld.system.world_size", {});
  size->call->type = infer_call_type(*size);
  auto wb = std::make_shared<window_buffer>();
  wb->base = t.buf;
  wb->size = std::move(size);
  t.v->type.window = wb;
  t.w->type.window = wb;
  for (std::size_t i : {1, 2}) t.f->body[i]->value->call->type.window = wb;  // as the pass leaves them
  t.f->body.push_back(make_expr_stmt(
      make_call(callee_kind::function, "chip", exprs(make_var_ref(t.v)), {}, kws("device", make_int(1)))));
  auto scope = make_scope("tp", {0, 1}, {wb}, kws("tag", make_str("tp")), std::move(t.f->body));
  t.f->body.clear();
  t.f->body.push_back(std::move(scope));

  program c = clone(t.p);
  CHECK(structural_equal(t.p, c));
  const stmt& os = *t.f->body[0];
  stmt& cs = *c.functions[0]->body[0];
  REQUIRE(cs.scope);
  CHECK(cs.scope != os.scope);
  CHECK(cs.scope->name == "tp");
  CHECK(cs.scope->devices == std::vector<std::int64_t>{0, 1});
  REQUIRE(cs.scope->slots.size() == 1);
  CHECK(cs.scope->slots[0] != wb);
  CHECK(cs.scope->slots[0] == cs.body[1]->target->type.window);        // the copy's one WindowBuffer
  CHECK(cs.scope->slots[0] == cs.body[1]->value->call->type.window);   // in the call's result type too
  CHECK(cs.scope->slots[0]->base == cs.body[0]->target.get());
  const expr& csize = *cs.scope->slots[0]->size;
  REQUIRE(csize.call);
  CHECK(csize.call != wb->size->call);
  CHECK(csize.text == "pld.system.world_size");
  CHECK(csize.call->type.kind == type_kind::scalar);
  REQUIRE(cs.scope->attrs.size() == 1);
  CHECK(cs.scope->attrs[0].value != os.scope->attrs[0].value);
  expr& view = *cs.body[1]->value;
  REQUIRE(view.call);
  CHECK(view.call != os.body[1]->value->call);
  REQUIRE(view.call->kwargs.size() == 1);
  CHECK(view.call->kwargs[0].value->text == "pl.FP32");
  expr& dispatch = *cs.body[3]->value;
  REQUIRE(dispatch.call);
  CHECK(dispatch.callee == callee_kind::function);
  REQUIRE(dispatch.call->attrs.size() == 1);
  CHECK(dispatch.call->attrs[0].value->value == 1);

  // Independent: changing each out-of-line part of the copy leaves the original alone.
  cs.scope->devices.push_back(5);
  cs.scope->attrs[0].value->text = "other";
  view.call->kwargs[0].value->text = "pl.FP16";
  view.call->type.dtype = "FP16";
  dispatch.call->attrs[0].value->value = 7;
  CHECK(os.scope->devices == std::vector<std::int64_t>{0, 1});
  CHECK(os.scope->attrs[0].value->text == "tp");
  CHECK(os.body[1]->value->call->kwargs[0].value->text == "pl.FP32");
  CHECK(os.body[1]->value->call->type.dtype == "FP32");
  CHECK(os.body[3]->value->call->attrs[0].value->value == 1);
  CHECK_FALSE(structural_equal(t.p, c));
}

TEST_CASE("host_traits maps the reference IR onto the host concept") {
  two_views t;
  using tr = host_traits<program>;
  std::vector<function*> fns;
  for (function* f : tr::functions(t.p)) fns.push_back(f);
  REQUIRE(fns.size() == 1);
  CHECK(tr::function_name(t.p, fns[0]) == "main");
  CHECK(tr::level(t.p, fns[0]) == "HOST");
  CHECK(tr::role(t.p, fns[0]) == "Orchestrator");
  auto body = tr::body(t.p, fns[0]);
  CHECK(body.size() == 3);
  stmt* s0 = *body.begin();
  CHECK(tr::stmt_kind(t.p, s0) == host_stmt_kind::assign);
  CHECK(tr::assign_target(t.p, s0) == t.buf);
  expr* call = tr::assign_value(t.p, s0);
  CHECK(tr::expr_kind(t.p, call) == host_expr_kind::call);
  CHECK(tr::callee_kind(t.p, call) == host_callee_kind::op);
  CHECK(tr::callee_name(t.p, call) == "pld.tensor.alloc_window_buffer");
  auto name = tr::keyword_arg(t.p, call, "name");
  REQUIRE(name);
  CHECK(tr::string_value(t.p, *name) == std::optional<std::string_view>("buf"));
  CHECK_FALSE(tr::keyword_arg(t.p, call, "size"));
  CHECK_FALSE(tr::call_attr(t.p, call, "device"));
  CHECK(tr::operands(t.p, s0).size() == 1);
  CHECK(tr::can_carry_window(t.p, t.v));
  CHECK_FALSE(tr::can_carry_window(t.p, t.buf));

  // A for loop exposes its bounds as operands, in order.
  auto lv = make_var("r", type::scalar("INDEX"));
  var* r = lv.get();
  auto loop = make_for(std::move(lv), make_int(1), make_int(4), make_int(1), {});
  CHECK(tr::loop_var(t.p, loop.get()) == r);
  CHECK(tr::operands(t.p, loop.get()).size() == 3);
  CHECK(tr::int_value(t.p, tr::loop_stop(t.p, loop.get())) == 4);
  // A node holds a variable or a constant in one place: each query answers for its own kind only.
  expr* size_arg = call->args[0].get();                     // the integer 64
  expr* view_base = fns[0]->body[1]->value->args[0].get();  // a reference to buf
  CHECK(tr::referenced_var(t.p, size_arg) == nullptr);
  CHECK(tr::referenced_var(t.p, view_base) == t.buf);
  CHECK(tr::int_value(t.p, view_base) == 0);
  CHECK(tr::int_value(t.p, size_arg) == 64);

  // Rewriting: a WindowBuffer keeps its own copy of the size, wrap_body nests the body.
  auto wb = tr::make_window_buffer(t.p, {t.buf, call->args[0].get(), false, true, {2, 3}});
  CHECK(wb->base == t.buf);
  REQUIRE(wb->size);
  CHECK(wb->size.get() != call->args[0].get());
  CHECK(wb->size->value == 64);
  CHECK(wb->store_to_host);
  CHECK(wb->loc == source_loc{2, 3});
  tr::attach_window(t.p, t.v, fns[0]->body[1]->value.get(), wb);
  CHECK(t.v->type.window == wb);
  CHECK(fns[0]->body[1]->value->call->type.window == wb);  // the defining call follows the variable
  const std::int64_t devices[] = {0, 1};
  const window_ptr slots[] = {wb};
  tr::wrap_body(t.p, fns[0], {"comm_d0", devices, slots, {4, 5}});
  REQUIRE(fns[0]->body.size() == 1);
  const stmt& scope = *fns[0]->body[0];
  CHECK(scope.kind == stmt_kind::comm_domain_scope);
  CHECK(scope.scope->name == "comm_d0");
  CHECK(scope.loc == source_loc{4, 5});
  CHECK(scope.scope->devices == std::vector<std::int64_t>{0, 1});
  CHECK(scope.body.size() == 3);
  CHECK(scope.body[1]->target.get() == t.v);  // nodes moved, handles still valid
}

TEST_CASE("attach_window leaves a call whose type disagrees with the view alone") {
  two_views t;
  auto wb = std::make_shared<window_buffer>();
  expr* call = t.p.functions[0]->body[1]->value.get();
  call->call->type = type::distributed({{8, nullptr}}, "FP32");  // the call says [8], the variable [16]
  host_traits<program>::attach_window(t.p, t.v, call, wb);
  CHECK(t.v->type.window == wb);
  CHECK(call->call->type.window == nullptr);
}

TEST_CASE("window_buffer is named after its base") {
  two_views t;
  CHECK(t.shared->name() == "buf");
  window_buffer unbased;
  CHECK(unbased.name().empty());
  CHECK(t.p.find_function("main") == t.f);
  CHECK(t.p.find_function("nope") == nullptr);
}


// ------------------------------------------------------------------------- the constructs pypto's DSL added

TEST_CASE("a function type implies a level and a role; an explicit one wins") {
  struct row {
    std::string_view type, level, role;
  };
  const row table[] = {{"Orchestration", "CHIP", "Orchestrator"}, {"Graph", "CHIP", "Orchestrator"},
                       {"InCore", "CHIP_DIE", "SubWorker"},       {"AIC", "AIC", "SubWorker"},
                       {"AIV", "AIV", "SubWorker"},               {"Group", "CORE_GROUP", "SubWorker"},
                       {"Opaque", "", ""},                         {"", "", ""}};
  for (const row& r : table) {
    const std::string_view t = r.type, level = r.level, role = r.role;
    CAPTURE(t);
    CHECK(implied_level(t) == level);
    CHECK(implied_role(t) == role);
    function f;
    f.type = std::string(t);
    CHECK(effective_level(f) == level);
    CHECK(effective_role(f) == role);
    f.level = "HOST";
    f.role = "Worker";
    CHECK(effective_level(f) == "HOST");  // the decorator's own
    CHECK(effective_role(f) == "Worker");
  }
  // host_traits reports the effective ones, and the type as written (F1).
  program p;
  auto f = std::make_unique<function>();
  f->name = "orch";
  f->type = "Orchestration";
  p.functions.push_back(std::move(f));
  using tr = host_traits<program>;
  function* h = p.functions[0].get();
  CHECK(tr::level(p, h) == "CHIP");
  CHECK(tr::role(p, h) == "Orchestrator");
  CHECK(tr::function_type(p, h) == "Orchestration");
}

TEST_CASE("arithmetic nodes: make_arith, op_of, type_of, and the host concept's binary()") {
  auto x = make_var("x", type::scalar("INDEX"));
  auto sum = make_arith(arith_op::add, make_var_ref(x.get()), make_int(2));
  CHECK(sum->kind == expr_kind::arith);
  CHECK(op_of(*sum) == arith_op::add);
  CHECK(sum->args.size() == 2);
  CHECK(sum->flags == 0);
  CHECK(same_type(type_of(*sum), type::scalar("INDEX")));
  auto neg = make_arith(arith_op::neg, make_var_ref(x.get()), make_int(7));  // rhs of neg is dropped
  CHECK(neg->args.size() == 1);
  auto t = make_tuple(exprs(make_int(1), make_var_ref(x.get())));
  CHECK(t->kind == expr_kind::tuple);
  CHECK(type_of(*t).kind == type_kind::unknown);

  program p;
  using tr = host_traits<program>;
  CHECK(tr::expr_kind(p, sum.get()) == host_expr_kind::binary);
  const auto b = tr::binary(p, sum.get());
  CHECK(b.op == host_binary_op::add);
  CHECK(b.lhs == sum->args[0].get());
  CHECK(b.rhs == sum->args[1].get());
  const auto n = tr::binary(p, neg.get());
  CHECK(n.op == host_binary_op::neg);
  CHECK(n.rhs == nullptr);
  for (int op = 0; op <= static_cast<int>(arith_op::neg); ++op)  // the two enums agree
    CHECK(static_cast<int>(tr::binary(p, make_arith(static_cast<arith_op>(op), make_int(1), make_int(2)).get()).op) == op);
  CHECK(tr::expr_kind(p, t.get()) == host_expr_kind::other);
}

TEST_CASE("ops: spellings, known-but-unmodelled ops, dtype byte sizes") {
  CHECK(ops::canonical("pld.window") == ops::window);
  CHECK(ops::canonical("pld.get_comm_ctx") == "pld.system.get_comm_ctx");
  CHECK(ops::canonical("pld.nranks") == "pld.system.nranks");
  CHECK(ops::canonical("pld.rank") == "pld.system.rank");
  CHECK(ops::canonical("pld.remote_load") == "pld.tile.remote_load");
  CHECK(ops::canonical("pld.tensor.window") == ops::window);
  CHECK(ops::canonical("pld.other") == "pld.other");
  for (std::string_view op : {"pld.rank", "pld.system.rank", "pld.tensor.allreduce", "pld.window"}) {
    CAPTURE(op);
    CHECK(ops::modeled(op));
    CHECK(ops::known(op));
  }
  for (std::string_view op : ops::other_ops) {
    CAPTURE(op);
    CHECK_FALSE(ops::modeled(op));
    CHECK(ops::known(op));
  }
  CHECK_FALSE(ops::known("pld.tensor.frobnicate"));
  CHECK_FALSE(ops::known("pl.add"));
  CHECK(ops::dtype_bytes("FP32") == 4);
  CHECK(ops::dtype_bytes("BF16") == 2);
  CHECK(ops::dtype_bytes("INT8") == 1);
  CHECK(ops::dtype_bytes("INT64") == 8);
  CHECK(ops::dtype_bytes("INDEX") == 8);
  CHECK(ops::dtype_bytes("INT4") == 0);  // no whole byte
  CHECK(ops::dtype_bytes("Tensor") == 0);
  static_assert(ops::dtype_bytes("FP16") == 2);
}

TEST_CASE("infer_call_type: window dimensions that are integer expressions; same_type over them and tuples") {
  auto n = make_var("n", type::scalar("INDEX"));
  auto buf = make_var("buf", type::ptr());
  std::vector<expr_ptr> dims;
  dims.push_back(make_call(callee_kind::op, std::string(ops::world_size), {}));
  dims.push_back(make_arith(arith_op::mul, make_var_ref(n.get()), make_int(2)));
  dims.push_back(make_var_ref(n.get()));
  dims.push_back(make_int(4));
  auto spelled = make_int(64);
  spelled->text = "SIZE";
  dims.push_back(std::move(spelled));
  auto w = make_call(callee_kind::op, std::string(ops::window), exprs(make_var_ref(buf.get()), make_list(std::move(dims))),
                     kws("dtype", make_symbol("pl.FP32")));
  const type t = infer_call_type(*w);
  CHECK(t.kind == type_kind::distributed_tensor);
  REQUIRE(t.shape.size() == 5);
  REQUIRE(t.shape[0].e);
  CHECK(t.shape[0].e->text == ops::world_size);
  CHECK(t.shape[0].e.get() != w->args[1]->args[0].get());  // a copy the type shares
  REQUIRE(t.shape[1].e);
  CHECK(t.shape[1].e->kind == expr_kind::arith);
  CHECK(t.shape[2].sym == n.get());
  CHECK_FALSE(t.shape[3].e);
  CHECK(t.shape[3].value == 4);
  REQUIRE(t.shape[4].e);  // a spelled constant stays spelled
  CHECK(t.shape[4].e->text == "SIZE");
  CHECK(same_type(t, infer_call_type(*w)));  // equal expressions, not equal pointers
  type u = t;
  u.shape[1].e = shared_copy(*make_arith(arith_op::mul, make_int(2), make_var_ref(n.get())));
  CHECK_FALSE(same_type(t, u));
  u.shape[1] = dim{2, nullptr};
  CHECK_FALSE(same_type(t, u));
  const type tup = type::tuple({type::ptr(), type::scalar("INDEX")});
  CHECK(same_type(tup, type::tuple({type::ptr(), type::scalar("INDEX")})));
  CHECK_FALSE(same_type(tup, type::tuple({type::scalar("INDEX"), type::ptr()})));
  CHECK_FALSE(same_type(tup, type::tuple({type::ptr()})));
  CHECK_FALSE(same_type(tup, type::ptr()));
}

TEST_CASE("clone copies constants, imports, function types, directions, tuple types, expression dims and flags") {
  program p;
  p.imports.push_back({"pypto.language.distributed", "", "dist"});
  p.constants.push_back({"SIZE", make_int(256), 256, {3, 1}});
  p.constants.push_back({"HALF", make_arith(arith_op::floordiv, make_int(256), make_int(2)), 128, {4, 1}});
  p.constants[1].value->args[0]->text = "SIZE";
  auto f = std::make_unique<function>();
  f->name = "f";
  f->type = "Orchestration";
  auto n = make_var("n", type::scalar("INDEX"));
  var* pn = n.get();
  f->params.push_back(std::move(n));
  auto shared = shared_copy(*make_arith(arith_op::mul, make_var_ref(pn), make_int(2)));
  f->params.push_back(make_var("o", type::tensor({{0, nullptr, shared}}, "FP32")));
  f->directions = {param_direction::in, param_direction::out};
  f->return_type = type::tuple({type::tensor({{0, nullptr, shared}}, "FP32"), type::ptr()});
  auto paren = make_arith(arith_op::neg, make_var_ref(pn), nullptr);
  paren->flags = expr_flags::parenthesized;
  f->body.push_back(make_return(exprs(make_tuple(exprs(std::move(paren))))));
  p.functions.push_back(std::move(f));

  const program c = clone(p);
  CHECK(structural_equal(p, c));
  CHECK(structural_hash(p) == structural_hash(c));
  REQUIRE(c.imports.size() == 1);
  CHECK(c.imports[0].alias == "dist");
  REQUIRE(c.constants.size() == 2);
  CHECK(c.constants[1].name == "HALF");
  CHECK(c.constants[1].evaluated == 128);
  CHECK(c.constants[1].loc == source_loc{4, 1});
  CHECK(c.constants[1].value.get() != p.constants[1].value.get());
  CHECK(c.constants[1].value->args[0]->text == "SIZE");
  CHECK(op_of(*c.constants[1].value) == arith_op::floordiv);
  const function& cf = *c.functions[0];
  CHECK(cf.type == "Orchestration");
  CHECK(cf.directions == std::vector<param_direction>{param_direction::in, param_direction::out});
  // Expression dimensions are copied and refer to the copy's variables.
  const dim& d = cf.params[1]->type.shape[0];
  REQUIRE(d.e);
  CHECK(d.e != shared);
  CHECK(d.e->args[0]->ref == cf.params[0].get());
  REQUIRE(cf.return_type);
  REQUIRE(cf.return_type->elements.size() == 2);
  CHECK(cf.return_type->elements[0].shape[0].e->args[0]->ref == cf.params[0].get());
  const expr& ret = *cf.body[0]->values[0];
  CHECK(ret.kind == expr_kind::tuple);
  CHECK(ret.args[0]->flags == expr_flags::parenthesized);
  CHECK(op_of(*ret.args[0]) == arith_op::neg);
  CHECK(ret.args[0]->args[0]->ref == cf.params[0].get());
}

}  // namespace
