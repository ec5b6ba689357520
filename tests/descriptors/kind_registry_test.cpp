// Run-time tests for neuronrw/descriptors/kind_registry.hpp: the seed's diagnostics byte for
// byte, lookup, iteration, and dispatch (handlers, arguments, the fatal NCC_ISPP054 default).
#include <neuronrw/descriptors/kind_registry.hpp>

#include <doctest/doctest.h>

#include <boost/hana/for_each.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using neuronrw::composite_op_registry;
using neuronrw::fusion_op_registry;
using neuronrw::handlers;
using neuronrw::on;

const std::vector<std::string> seven_fusion_order{"ScheduleFusion", "MulRedSqrt", "DotLogistic",
                                                  "Elementwise",    "Expm1",      "Log1p",
                                                  "DotSoftmax"};
const std::vector<std::string> seven_composite_order{"ScheduleFusion", "MulRedSqrt", "DotLogistic",
                                                     "Expm1",          "Log1p",      "Elementwise",
                                                     "DotSoftmax"};

TEST_CASE("the seed's FusionOp validator text, byte for byte") {
  CHECK(fusion_op_registry::validate("X") ==
        std::optional<std::string>{"Unexpected FusionOp type 'X'. Supported fusion types are: "
                                   "ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, "
                                   "Log1p, DotSoftmax."});
  CHECK(fusion_op_registry::diagnostic("FusedComposite") ==
        "Unexpected FusionOp type 'FusedComposite'. Supported fusion types are: ScheduleFusion, "
        "MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.");
  CHECK(fusion_op_registry::diagnostic("") ==
        "Unexpected FusionOp type ''. Supported fusion types are: ScheduleFusion, MulRedSqrt, "
        "DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.");
}

TEST_CASE("the seed's CompositeOp validator text, byte for byte") {
  CHECK(composite_op_registry::validate("X") ==
        std::optional<std::string>{"Unexpected CompositeOp kind 'X'. Supported kinds are: "
                                   "ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, "
                                   "Elementwise, and DotSoftmax."});
  CHECK(composite_op_registry::validate("FusedComposite") ==
        std::optional<std::string>{"Unexpected CompositeOp kind 'FusedComposite'. Supported kinds "
                                   "are: ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, "
                                   "Elementwise, and DotSoftmax."});
}

TEST_CASE("every registered kind validates, is found at its position and iterates in order") {
  for (std::size_t i = 0; i < seven_fusion_order.size(); ++i) {
    const std::string name = seven_fusion_order[i];  // a run-time string, not a literal
    CHECK(fusion_op_registry::validate(name) == std::nullopt);
    CHECK(fusion_op_registry::index_of(name) == std::optional<std::size_t>{i});
  }
  for (std::size_t i = 0; i < seven_composite_order.size(); ++i)
    CHECK(composite_op_registry::index_of(seven_composite_order[i]) == std::optional<std::size_t>{i});
  CHECK(fusion_op_registry::index_of("schedulefusion") == std::nullopt);
  CHECK(fusion_op_registry::index_of("ScheduleFusion ") == std::nullopt);

  std::vector<std::string> via_hana;
  boost::hana::for_each(fusion_op_registry::kinds, [&](auto k) { via_hana.emplace_back(k.name); });
  CHECK(via_hana == seven_fusion_order);
  std::vector<std::string> via_for_each;
  std::vector<std::size_t> positions;
  composite_op_registry::for_each_kind([&](auto k) {
    via_for_each.emplace_back(k.name);
    positions.push_back(decltype(k)::index);
  });
  CHECK(via_for_each == seven_composite_order);
  CHECK(positions == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6});
  CHECK(std::vector<std::string>(composite_op_registry::names().begin(),
                                 composite_op_registry::names().end()) == seven_composite_order);
}

// The consumer of FusionToComposite, as the seed's StableHLOToPythonPrinter routes it.
struct emitted {
  std::string text;
};
struct fatal_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string emit(std::string_view composite_kind, int op_id) {
  static const auto consumer = handlers(
      on<"ScheduleFusion">([](auto, int id) { return "schedule_fusion(op" + std::to_string(id) + ")"; }),
      on<"MulRedSqrt">([](auto, int id) { return "mul_red_sqrt(op" + std::to_string(id) + ")"; }),
      on<"DotLogistic">([](auto, int id) { return "dot_logistic(op" + std::to_string(id) + ")"; }),
      neuronrw::on_arbitrary_composite([](std::string_view kind, int id) {
        return "arbitrary(kind=\"" + std::string(kind) + "\", op" + std::to_string(id) + ")";
      }));
  return composite_op_registry::dispatch(
      composite_kind, consumer,
      [](std::string_view unknown, int id) -> std::string {
        throw fatal_error("input.mlir:" + std::to_string(id) + ": NCC_ISPP054: " +
                          composite_op_registry::diagnostic(unknown));
      },
      op_id);
}

TEST_CASE("dispatch routes the seven kinds as the seed's consumer does") {
  CHECK(emit("ScheduleFusion", 1) == "schedule_fusion(op1)");
  CHECK(emit("MulRedSqrt", 2) == "mul_red_sqrt(op2)");
  CHECK(emit("DotLogistic", 3) == "dot_logistic(op3)");
  CHECK(emit("Expm1", 4) == "arbitrary(kind=\"Elementwise\", op4)");
  CHECK(emit("Log1p", 5) == "arbitrary(kind=\"Elementwise\", op5)");
  CHECK(emit("Elementwise", 6) == "arbitrary(kind=\"Elementwise\", op6)");
  CHECK(emit("DotSoftmax", 7) == "arbitrary(kind=\"DotSoftmax\", op7)");
}

TEST_CASE("an unknown kind reaches the fatal default: the seed's NCC_ISPP054 on FusedComposite") {
  std::string message;
  try {
    (void)emit("FusedComposite", 42);
  } catch (const fatal_error& e) {
    message = e.what();
  }
  CHECK(message ==
        "input.mlir:42: NCC_ISPP054: Unexpected CompositeOp kind 'FusedComposite'. Supported kinds "
        "are: ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, Elementwise, and DotSoftmax.");
}

TEST_CASE("dispatch: void handlers, stateful handlers, a fatal default that returns a value") {
  std::vector<std::string> log;
  auto recorder = handlers(
      on<"ScheduleFusion", "MulRedSqrt", "DotLogistic">([&](auto k) { log.emplace_back(k.name); }),
      on<"Elementwise", "Expm1", "Log1p", "DotSoftmax">([&](auto k) { log.push_back("ew:" + std::string(k.name)); }));
  for (const char* k : {"DotSoftmax", "MulRedSqrt", "Nope", "Expm1"})
    fusion_op_registry::dispatch(k, recorder, [&](std::string_view n) { log.push_back("fatal:" + std::string(n)); });
  CHECK(log == std::vector<std::string>{"ew:DotSoftmax", "MulRedSqrt", "fatal:Nope", "ew:Expm1"});

  int calls = 0;
  auto counting = handlers(on<"A", "B">([calls](auto) mutable { return ++calls; }));
  using ab = neuronrw::kind_registry<"bad '{}', want {}", neuronrw::list_style::comma_and, "A", "B">;
  CHECK(ab::dispatch("A", counting, [](std::string_view) { return 0; }) == 1);
  CHECK(ab::dispatch("B", counting, [](std::string_view) { return 0; }) == 2);  // same handler object
  CHECK(ab::dispatch("C", counting, [](std::string_view) { return -7; }) == -7);
  CHECK(calls == 0);  // the handler mutated its own copy
  CHECK(ab::validate("C") == std::optional<std::string>{"bad 'C', want A and B"});
}

TEST_CASE("a copied handler set dispatches to its own handlers after the original is gone") {
  using ab = neuronrw::kind_registry<"{} {}", neuronrw::list_style::comma, "A", "B">;
  auto make = [](std::string tag) {
    return handlers(on<"A">([tag](auto k) { return tag + ":" + std::string(k.name); }),
                    on<"B">([tag](auto k) { return tag + "/" + std::string(k.name); }));
  };
  std::optional<decltype(make(""))> copy;
  {
    const auto original = make(std::string(40, 'x'));  // heap-allocated capture
    copy.emplace(original);
  }
  const auto fatal = [](std::string_view) { return std::string("fatal"); };
  CHECK(ab::dispatch("A", *copy, fatal) == std::string(40, 'x') + ":A");
  CHECK(ab::dispatch("B", *copy, fatal) == std::string(40, 'x') + "/B");
  auto moved = std::move(*copy);
  copy.reset();
  CHECK(ab::dispatch("B", moved, fatal) == std::string(40, 'x') + "/B");
}

TEST_CASE("a user registry adds a kind in one line and keeps the seed's diagnostic form") {
  using mine = composite_op_registry::with_kinds<"RmsNorm">;
  CHECK(mine::validate("RmsNorm") == std::nullopt);
  CHECK(mine::validate("Gelu") ==
        std::optional<std::string>{"Unexpected CompositeOp kind 'Gelu'. Supported kinds are: "
                                   "ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, "
                                   "Elementwise, DotSoftmax, and RmsNorm."});
}

TEST_CASE("a registry above eight kinds (hashed index) finds every kind from run-time strings") {
  using many = neuronrw::kind_registry<"? {} of {}", neuronrw::list_style::comma, "k0", "k1", "k2", "k3",
                                       "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11">;
  for (std::size_t i = 0; i < 12; ++i) CHECK(many::index_of("k" + std::to_string(i)) == std::optional<std::size_t>{i});
  CHECK(many::index_of("k12") == std::nullopt);
  CHECK(many::diagnostic("x") == "? x of k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11");
}

}  // namespace
