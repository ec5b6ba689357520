// Tests of include/neuronrw/adapters/mlir/traits.hpp: every concept requirement answered by the
// MLIR adapter on real MLIR modules (func/scf registered, mhlo unregistered), the kind table, the
// mutations (group, outline, replace, erase, moves) with exact printed results, and that a
// rewriter's listener sees every change the passes make.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <mlir/AsmParser/AsmParser.h>

#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "adapters/mlir/support.hpp"

namespace {

namespace nr = neuronrw;
namespace na = neuronrw::mlir_adapter;
using traits = nr::ir_traits<na::ir>;

static_assert(nr::outlinable_ir<na::ir>);
static_assert(nr::argument_block_ir<na::ir>);
static_assert(nr::terminator_aware_ir<na::ir>);
static_assert(nr::indexed_ir<na::ir>);  // the ir numbers ops on first use (op_index)

constexpr const char* kPair = R"mlir(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.all_gather"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.negate"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.add"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "mhlo.reduce_scatter"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "mhlo.add"(%2, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
)mlir";

std::vector<mlir::Operation*> body_ops(mlir::ModuleOp m) {
  std::vector<mlir::Operation*> ops;
  auto fn = *m.getOps<mlir::func::FuncOp>().begin();
  for (auto& op : fn.getBody().front()) ops.push_back(&op);
  return ops;
}

std::vector<std::string> names(const std::vector<mlir::Operation*>& ops) {
  std::vector<std::string> r;
  for (auto* o : ops) r.push_back(o->getName().getStringRef().str());
  return r;
}

/// Counts what a rewriter's listener is told.
struct counting_listener : mlir::RewriterBase::Listener {
  int inserted = 0, modified = 0, replaced = 0, erased = 0;
  void notifyOperationInserted(mlir::Operation*, mlir::OpBuilder::InsertPoint) override { ++inserted; }
  void notifyOperationModified(mlir::Operation*) override { ++modified; }
  void notifyOperationReplaced(mlir::Operation*, mlir::ValueRange) override { ++replaced; }
  void notifyOperationErased(mlir::Operation*) override { ++erased; }
};

}  // namespace

TEST_CASE("kind table: defaults, extension, unknown names") {
  const auto t = na::kind_table::defaults();
  CHECK(t.lookup("mhlo.all_gather") == nr::kind_id_v<nr::kinds::all_gather>);
  CHECK(t.lookup("stablehlo.reduce_scatter") == nr::kind_id_v<nr::kinds::reduce_scatter>);
  CHECK(t.lookup("stablehlo.composite") == nr::kind_id_v<nr::kinds::composite>);
  CHECK(t.lookup("mhlo.fusion") == nr::kind_id_v<nr::kinds::fusion>);
  CHECK(t.lookup("func.return") == nr::kind_id_v<nr::kinds::return_>);
  CHECK(t.lookup("mhlo.get_tuple_element") == nr::kind_id_v<nr::kinds::get_tuple_element>);
  // Not dialect-blind: an unknown dialect's all_gather is not an all_gather until added.
  CHECK(t.lookup("my.all_gather") == nr::kind_id_of("my.all_gather"));
  CHECK(t.lookup("my.all_gather") != nr::kind_id_v<nr::kinds::all_gather>);
  auto u = t;
  u.add<nr::kinds::all_gather>("my.all_gather");
  CHECK(u.lookup("my.all_gather") == nr::kind_id_v<nr::kinds::all_gather>);
  CHECK(t.lookup("my.all_gather") != nr::kind_id_v<nr::kinds::all_gather>);  // a copy, t unchanged
}

TEST_CASE("read and ordered requirements on a parsed module") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kPair);
  REQUIRE(m);
  na::ir g(m->getOperation());
  auto ops = body_ops(*m);
  REQUIRE(ops.size() == 6);
  auto* ag = ops[0];
  auto* neg = ops[1];
  auto* add = ops[2];
  auto* rs = ops[3];
  auto* ret = ops[5];

  CHECK(traits::kind(g, ag) == nr::kind_id_v<nr::kinds::all_gather>);
  CHECK(traits::kind(g, rs) == nr::kind_id_v<nr::kinds::reduce_scatter>);
  CHECK(traits::kind(g, ret) == nr::kind_id_v<nr::kinds::return_>);
  CHECK(traits::kind(g, neg) == nr::kind_id_of("mhlo.negate"));

  std::vector<mlir::Value> operands(traits::operands(g, add).begin(), traits::operands(g, add).end());
  REQUIRE(operands.size() == 2);
  CHECK(traits::defining_op(g, operands[0]) == ag);
  std::vector<mlir::Operation*> users;
  for (auto* u : traits::users(g, ag->getResult(0))) users.push_back(u);
  CHECK(users == std::vector<mlir::Operation*>{rs, add});  // use-list order: latest use first
  // Block arguments: no defining op; their block is the function's entry block.
  auto arg = ag->getOperand(0);
  CHECK(traits::defining_op(g, arg) == nullptr);
  CHECK(traits::argument_block(g, arg) == ag->getBlock());
  CHECK(traits::argument_block(g, ag->getResult(0)) == nullptr);

  auto* fn = ag->getParentOp();
  CHECK(traits::parent_op(g, ag) == fn);
  CHECK(traits::parent_op(g, fn) == nullptr);  // the root's top level
  CHECK(traits::block_of(g, ag) == traits::block_of(g, rs));
  std::vector<mlir::Operation*> in_block;
  for (auto* o : traits::ops(g, ag->getBlock())) in_block.push_back(o);
  CHECK(in_block == ops);
  CHECK(traits::is_before_in_block(g, ag, rs));
  CHECK_FALSE(traits::is_before_in_block(g, rs, ag));
  CHECK(traits::next_op(g, ag) == neg);
  CHECK(traits::prev_op(g, ag) == nullptr);
  CHECK(traits::next_op(g, ret) == nullptr);
  std::vector<mlir::Block*> fn_blocks;
  for (auto* b : traits::regions(g, fn)) fn_blocks.push_back(b);
  CHECK(fn_blocks == std::vector<mlir::Block*>{ag->getBlock()});
  CHECK(traits::regions(g, ag).begin() == traits::regions(g, ag).end());

  CHECK(traits::is_terminator(g, ret));  // registered: from the IsTerminator trait
  CHECK_FALSE(traits::is_terminator(g, add));
  auto fns = traits::functions(g);
  CHECK(fns == std::vector<mlir::Operation*>{fn});
  CHECK(traits::has_symbol(g, "f"));
  CHECK_FALSE(traits::has_symbol(g, "g"));
}

TEST_CASE("regions of an op with several regions and blocks, in order") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%c: i1) {
  "test.two"() ({
    "test.a"() : () -> ()
  ^bb1:
    "test.b"() : () -> ()
  }, {
  }, {
    "test.c"() : () -> ()
  }) : () -> ()
  return
}
)mlir");
  REQUIRE(m);
  na::ir g(m->getOperation());
  auto* two = body_ops(*m)[0];
  std::vector<std::string> firsts;
  for (auto* b : traits::regions(g, two)) firsts.push_back(b->front().getName().getStringRef().str());
  CHECK(firsts == std::vector<std::string>{"test.a", "test.b", "test.c"});
  // An unregistered op is a terminator by the reference IR's rule.
  CHECK_FALSE(traits::is_terminator(g, &two->getRegion(0).front().front()));
}

TEST_CASE("string_attribute and has_attribute read inherent and discardable attributes") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true} {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    "mhlo.return"(%x) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion", n = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)mlir");
  REQUIRE(m);
  na::ir g(m->getOperation());
  auto ops = body_ops(*m);
  auto* fusion = ops[0];
  CHECK(traits::string_attribute(g, fusion, "FusionKind") == std::optional<std::string>("ScheduleFusion"));
  CHECK(traits::string_attribute(g, fusion, "n") == std::nullopt);  // not a string
  CHECK(traits::has_attribute(g, fusion, "n"));
  CHECK_FALSE(traits::has_attribute(g, fusion, "m"));
  auto* fn = fusion->getParentOp();
  CHECK(traits::has_attribute(g, fn, "genComposite"));
  CHECK(traits::string_attribute(g, fn, "sym_name") == std::optional<std::string>("f"));  // inherent
  // The region terminator of an unregistered dialect: kind return.
  CHECK(traits::is_terminator(g, &fusion->getRegion(0).front().back()));
}

TEST_CASE("library-made attributes are built typed: what MLIR parses from their canonical text") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kPair);
  REQUIRE(m);
  na::ir g(m->getOperation());
  namespace attr = nr::attr;
  const nr::attribute_value values[] = {attr::string{"ScheduleFusion"}, attr::string{"a\"b\\c\nd\x01"},
                                        attr::symbol{"hilo.FusedComposite.0"}, attr::symbol{"has space"},
                                        attr::integer{0, 32},                 attr::integer{-7},
                                        attr::integer{1, 1},                  attr::boolean{true},
                                        attr::boolean{false},                 attr::unit{},
                                        attr::empty_dictionary{}};
  for (const auto& v : values) {
    const std::string text = nr::attribute_text(v);
    CAPTURE(text);
    const mlir::Attribute built = g.attribute(v);
    CHECK(built == mlir::parseAttribute(text, ctx.get()));
  }
  CHECK(mlir::isa<mlir::StringAttr>(g.attribute(attr::string{"s"})));
  CHECK(mlir::isa<mlir::FlatSymbolRefAttr>(g.attribute(attr::symbol{"f"})));
  CHECK(mlir::isa<mlir::BoolAttr>(g.attribute(attr::boolean{true})));
  CHECK(mlir::isa<mlir::UnitAttr>(g.attribute(attr::unit{})));
  CHECK(mlir::cast<mlir::DictionaryAttr>(g.attribute(attr::empty_dictionary{})).empty());
  const auto i = mlir::cast<mlir::IntegerAttr>(g.attribute(attr::integer{3, 16}));
  CHECK(i.getType().getIntOrFloatBitWidth() == 16);
  CHECK(i.getInt() == 3);
  // set_attributes: on the op, in the order given.
  auto* op = body_ops(*m)[1];
  const nr::named_attribute attrs[] = {{"k", attr::string{"v"}}, {"n", attr::integer{2, 32}}};
  g.set_attributes(op, attrs);
  CHECK(mlir_test::print(op) == "%1 = \"mhlo.negate\"(%arg1) {k = \"v\", n = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>");
}

TEST_CASE("moves: before, after, and the order index follows") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kPair);
  REQUIRE(m);
  na::ir g(m->getOperation());
  auto ops = body_ops(*m);
  traits::move_before(g, ops[0], ops[3]);  // all_gather right before reduce_scatter
  CHECK(names(body_ops(*m)) == std::vector<std::string>{"mhlo.negate", "mhlo.add", "mhlo.all_gather",
                                                        "mhlo.reduce_scatter", "mhlo.add", "func.return"});
  CHECK(traits::is_before_in_block(g, ops[1], ops[0]));
  traits::move_after(g, ops[1], ops[3]);  // the negate right after the reduce_scatter
  CHECK(names(body_ops(*m)) == std::vector<std::string>{"mhlo.add", "mhlo.all_gather", "mhlo.reduce_scatter",
                                                        "mhlo.negate", "mhlo.add", "func.return"});
  CHECK(traits::is_before_in_block(g, ops[3], ops[1]));
  CHECK_FALSE(traits::is_before_in_block(g, ops[1], ops[3]));
}

TEST_CASE("is_before_in_block while the order index is stale: near ops by a short walk, far ops renumbered") {
  // 600 ops in one block; after every random move (which invalidates MLIR's order index), near
  // pairs (at most 128 apart) are answered by the walk and leave the index stale; far pairs (more
  // than 128 apart, neither walk reaching the block's end) renumber it. Every answer is checked
  // against positions read by walking the block.
  constexpr int n = 600;
  std::string text = "func.func @f() {\n";
  for (int i = 0; i < n; ++i) text += "  \"test.op\"() {i = " + std::to_string(i) + " : i64} : () -> ()\n";
  text += "  return\n}\n";
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, text.c_str());
  REQUIRE(m);
  na::ir g(m->getOperation());
  const auto ops = body_ops(*m);
  REQUIRE(ops.size() == n + 1);
  mlir::Block* block = ops.front()->getBlock();
  std::mt19937 rng(20261206);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::size_t near_walked = 0, far_renumbered = 0;
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    mlir::Operation* o = ops[static_cast<std::size_t>(pick(0, n - 1))];  // never the return
    mlir::Operation* anchor = ops[static_cast<std::size_t>(pick(0, n))];
    if (anchor == o) continue;
    if (round % 2) traits::move_before(g, o, anchor);
    else if (anchor != ops.back()) traits::move_after(g, o, anchor);
    else continue;
    if (block->isOpOrderValid()) continue;  // a move to where o already was changes nothing
    std::vector<mlir::Operation*> order;
    for (mlir::Operation& x : *block) order.push_back(&x);
    REQUIRE(order.size() == n + 1);
    // near: positions i < j at most 128 apart, asked both ways
    const int i = pick(0, n - 1), j = std::min(n, i + pick(1, na::detail::local_order_steps));
    CHECK(traits::is_before_in_block(g, order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]));
    CHECK_FALSE(traits::is_before_in_block(g, order[static_cast<std::size_t>(j)], order[static_cast<std::size_t>(i)]));
    CHECK_FALSE(traits::is_before_in_block(g, order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(i)]));
    near_walked += !block->isOpOrderValid();
    // far: more than 128 apart, both more than 128 from the end
    const int far_hi = n - na::detail::local_order_steps - 1;
    const int a = pick(0, far_hi - na::detail::local_order_steps - 1);
    const int b = pick(a + na::detail::local_order_steps + 1, far_hi);
    const bool forward = round % 3 != 0;
    mlir::Operation* p = order[static_cast<std::size_t>(forward ? a : b)];
    mlir::Operation* q = order[static_cast<std::size_t>(forward ? b : a)];
    CHECK(traits::is_before_in_block(g, p, q) == forward);
    far_renumbered += block->isOpOrderValid();
  }
  // every near query was answered without renumbering, every far one renumbered
  CHECK(near_walked > 200);
  CHECK(far_renumbered == near_walked);
}

TEST_CASE("ScheduleFusion through the adapter: exact printed module, and every change seen by the listener") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kPair);
  REQUIRE(m);
  counting_listener listener;
  mlir::IRRewriter rewriter(ctx.get(), &listener);
  na::ir g(m->getOperation(), na::ir::default_kinds(), &rewriter);
  auto plan = nr::schedule_fusion(g);
  REQUIRE(plan.clusters.size() == 1);
  CHECK(plan.refused.empty());
  CHECK(mlir::succeeded(mlir::verify(m->getOperation())));
  // Identical to `neuronrw-opt --schedule-fusion` on the same text, reprinted by mlir-opt: the
  // add using the all_gather is carried after the cluster, the all_gather is a live-out.
  CHECK(mlir_test::print(m->getOperation()) == R"mlir(module {
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "mhlo.negate"(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    %1:2 = "mhlo.fusion"(%arg0) ({
    ^bb0(%arg2: tensor<4xf32>):
      %4 = "mhlo.all_gather"(%arg2) : (tensor<4xf32>) -> tensor<4xf32>
      %5 = "mhlo.reduce_scatter"(%4) : (tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%4, %5) : (tensor<4xf32>, tensor<4xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %2 = "mhlo.add"(%1#0, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = "mhlo.add"(%2, %1#1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}
)mlir");
  // Moves and creations are insertions: the all_gather sunk before the reduce_scatter, the add
  // carried after it, the fusion, the two ops moved into it and the return. Operand rewiring
  // and use replacement are modifications: the all_gather's operand (now the block argument)
  // and the two uses outside that now read the fusion's results.
  CHECK(listener.inserted == 6);
  CHECK(listener.modified == 3);
}

TEST_CASE("FusionToComposite through the adapter: composite + private decomposition, exact text") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    %1 = "mhlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) {FusionKind = "MatMul"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)mlir");
  REQUIRE(m);
  counting_listener listener;
  mlir::IRRewriter rewriter(ctx.get(), &listener);
  na::ir g(m->getOperation(), na::ir::default_kinds(), &rewriter);
  auto plan = nr::fusion_to_composite(g);
  REQUIRE(plan.ok());
  CHECK(plan.conversions.size() == 1);
  CHECK(mlir::succeeded(mlir::verify(m->getOperation())));
  CHECK(mlir_test::print(m->getOperation()) == R"mlir(module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%arg0) {CompositeKind = "MatMul", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %0 = "mhlo.negate"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)mlir");
  CHECK(listener.erased >= 2);  // the fusion and the cloned mhlo.return
  CHECK(listener.inserted >= 3);
}

TEST_CASE("FusionToComposite refuses a captured value and changes nothing") {
  auto ctx = mlir_test::make_context();
  const char* text = R"mlir(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    %1 = "mhlo.add"(%x, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)mlir";
  auto m = mlir_test::parse(*ctx, text);
  REQUIRE(m);
  const auto before = mlir_test::print(m->getOperation());
  na::ir g(m->getOperation());
  auto plan = nr::fusion_to_composite(g);
  REQUIRE(plan.refused.size() == 1);
  CHECK(plan.refused[0].code == nr::f2c_problem_code::captured_value);
  CHECK(plan.refused[0].op->getName().getStringRef() == "mhlo.add");
  CHECK(mlir_test::print(m->getOperation()) == before);
}

TEST_CASE("a user kind table makes another dialect's collectives match") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "my.gather"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "my.scatter"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)mlir");
  REQUIRE(m);
  {
    na::ir g(m->getOperation());  // default table: no collective here
    CHECK(nr::plan_schedule_fusion(std::as_const(g)).candidates() == 0);
  }
  auto kinds = na::kind_table::defaults();
  kinds.add<nr::kinds::all_gather>("my.gather").add<nr::kinds::reduce_scatter>("my.scatter");
  na::ir g(m->getOperation(), kinds);
  auto plan = nr::plan_schedule_fusion(std::as_const(g));
  REQUIRE(plan.clusters.size() == 1);
  CHECK(plan.clusters[0].producer()->getName().getStringRef() == "my.gather");
}

TEST_CASE("the dependence walk through the adapter stops at the boundary and keeps block order") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.all_reduce"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.negate"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "mhlo.tanh"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "mhlo.add"(%2, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
)mlir");
  REQUIRE(m);
  na::ir g(m->getOperation());
  auto ops = body_ops(*m);
  auto r = nr::dependence_walk(g, ops[4]);
  // The all_reduce is a boundary: met, not expanded, so the negate before it is not reached.
  CHECK(r.complete());
  CHECK(names(r.ops) == std::vector<std::string>{"mhlo.negate", "mhlo.tanh"});
  CHECK(r.ops[0] == ops[2]);
  CHECK(names(r.boundary) == std::vector<std::string>{"mhlo.all_reduce"});
}

TEST_CASE("op_index: dense and unique, also for ops created after the numbering") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kPair);
  REQUIRE(m);
  na::ir g(m->getOperation());
  const std::size_t bound = traits::op_index_bound(g);
  std::size_t count = 0;
  std::vector<bool> seen(bound, false);
  m->getOperation()->walk([&](mlir::Operation* op) {
    ++count;
    const auto i = traits::op_index(g, op);
    REQUIRE(i < bound);
    CHECK_FALSE(seen[i]);
    seen[i] = true;
  });
  CHECK(count == 8);  // module, func, six body ops
  // An op made behind the adapter's back gets the next number, below the bound.
  auto ops = body_ops(*m);
  mlir::OpBuilder b(ops[0]);
  mlir::OperationState st(ops[0]->getLoc(), "test.extra");
  mlir::Operation* extra = b.create(st);
  CHECK(traits::op_index(g, extra) == count);
  CHECK(traits::op_index(g, extra) < bound);
  CHECK(traits::op_index(g, extra) == count);  // stable
  // The adapter's own mutations number what they create.
  auto plan = nr::schedule_fusion(g);
  REQUIRE(plan.clusters.size() == 1);
  auto* fusion = plan.clusters[0].ops[0]->getParentOp();
  CHECK(traits::op_index(g, fusion) >= count + 1);
  CHECK(traits::op_index(g, fusion) < traits::op_index_bound(g));
}
