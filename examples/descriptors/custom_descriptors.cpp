// examples/descriptors/custom_descriptors.cpp — declaring your own boundary set, kind registry
// and descriptor lattice. docs/descriptors.md quotes the regions between `// [name]` and
// `// [/name]` verbatim (a test keeps the two identical). The program checks its own results
// and exits non-zero on any difference, so running it is a test.
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/descriptors/lattice.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// [boundary-set]
// A kind of your own: a tag with the canonical, dialect-free name your adapter maps ops to.
NEURONRW_DECLARE_KIND(send);

// The default four collectives (docs/descriptors.md), plus collective_permute and send.
using my_boundary = neuronrw::default_boundary_set::with<neuronrw::kinds::collective_permute, send>;

static_assert(my_boundary::contains_v<neuronrw::kinds::all_reduce>);
static_assert(my_boundary::contains_v<send>);
static_assert(!my_boundary::contains_v<neuronrw::kinds::fusion>);

// Your IR: the adapter maps each op to a kind_id once, and exposes it through ADL `kind`.
struct my_ir {
  std::vector<neuronrw::kind_id> op_kinds;
};
neuronrw::kind_id kind(const my_ir& ir, std::size_t op) { return ir.op_kinds[op]; }

bool is_boundary(const my_ir& ir, std::size_t op) {
  return my_boundary::contains_op(ir, op);  // O(1): an integer lookup, no strings
}
// [/boundary-set]

// [registry]
// The CompositeOp registry plus one kind; the diagnostic keeps the registry's form.
using my_composites = neuronrw::composite_op_registry::with_kinds<"RmsNorm">;

// A registry from scratch: the format's first {} is the unknown name, the second the kind list.
using my_passes = neuronrw::kind_registry<"unknown pass '{}'; known passes: {}",
                                          neuronrw::list_style::comma_and,
                                          "ScheduleFusion", "FusionToComposite", "CommDomains">;

// One handler per kind, checked at compile time; unknown names reach the fatal default.
std::string lower(std::string_view composite_kind, int op_id) {
  using neuronrw::on;
  static const auto emitters = neuronrw::handlers(
      on<"ScheduleFusion">([](auto, int id) { return "schedule(" + std::to_string(id) + ")"; }),
      on<"MulRedSqrt", "DotLogistic", "RmsNorm">(
          [](auto k, int id) { return std::string(k.name) + "(" + std::to_string(id) + ")"; }),
      neuronrw::on_arbitrary_composite(
          [](std::string_view kind, int id) { return "arbitrary<" + std::string(kind) + ">(" + std::to_string(id) + ")"; }));
  return my_composites::dispatch(
      composite_kind, emitters,
      [](std::string_view unknown, int id) {
        return "error: op " + std::to_string(id) + ": " + my_composites::diagnostic(unknown);
      },
      op_id);
}
// [/registry]

// [lattice]
// A descriptor of which element types a buffer is viewed as: a set of up to 8 dtypes as bits.
// It is a bounded join-semilattice: ⊥ = no view yet, join = union, ⊤ = all eight.
struct dtype_set {
  std::uint8_t bits = 0;

  static constexpr dtype_set bottom() { return {}; }
  static constexpr dtype_set top() { return {0xff}; }
  static constexpr dtype_set join(const dtype_set& a, const dtype_set& b) {
    return {static_cast<std::uint8_t>(a.bits | b.bits)};
  }
  static constexpr bool leq(const dtype_set& a, const dtype_set& b) { return (a.bits & ~b.bits) == 0; }
  friend constexpr bool operator==(const dtype_set&, const dtype_set&) = default;
};
static_assert(neuronrw::bounded_join_semilattice<dtype_set>);

// The laws, checked by the library's generic checker over 16 values spread across all 256.
constexpr bool dtype_laws_hold() {
  std::vector<dtype_set> all_values;
  for (int b = 0; b < 256; b += 17) all_values.push_back({static_cast<std::uint8_t>(b)});
  return neuronrw::lattice::check_laws(all_values).ok();
}
static_assert(dtype_laws_hold());

// Descriptors compose: coverage and dtypes together, merged over all uses of a buffer.
using buffer_descriptor = neuronrw::product_lattice<neuronrw::device_coverage, dtype_set>;

buffer_descriptor merge_uses(const std::vector<buffer_descriptor>& uses) {
  return neuronrw::lattice::join_all(uses);
}
// [/lattice]

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    ++failures;
    std::printf("FAILED: %s\n", what);
  }
}

void expect_eq(const std::string& got, const std::string& want) {
  std::printf("%s\n", got.c_str());
  if (got != want) {
    ++failures;
    std::printf("FAILED: expected %s\n", want.c_str());
  }
}

}  // namespace

int main() {
  const my_ir ir{{neuronrw::kind_id_of("all_gather"), neuronrw::kind_id_of("multiply"),
                  neuronrw::kind_id_of("send"), neuronrw::kind_id_of("collective_permute")}};
  expect(is_boundary(ir, 0) && !is_boundary(ir, 1) && is_boundary(ir, 2) && is_boundary(ir, 3),
         "boundary classification");

  expect(my_composites::validate("RmsNorm") == std::nullopt, "RmsNorm is a kind");
  expect_eq(*my_passes::validate("Inline"),
            "unknown pass 'Inline'; known passes: ScheduleFusion, FusionToComposite, and CommDomains");
  expect_eq(lower("ScheduleFusion", 1), "schedule(1)");
  expect_eq(lower("RmsNorm", 2), "RmsNorm(2)");
  expect_eq(lower("Log1p", 3), "arbitrary<Elementwise>(3)");
  expect_eq(lower("DotSoftmax", 4), "arbitrary<DotSoftmax>(4)");
  expect_eq(lower("FusedComposite", 5),
            "error: op 5: Unexpected CompositeOp kind 'FusedComposite'. Supported kinds are: "
            "ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, Elementwise, DotSoftmax, and "
            "RmsNorm.");

  const buffer_descriptor merged = merge_uses({{neuronrw::device_coverage::single(0), dtype_set{0b01}},
                                               {neuronrw::device_coverage::range(2, 4), dtype_set{0b10}}});
  expect_eq(to_string(merged.first), "{0, 2, 3}");
  expect(merged.second == dtype_set{0b11}, "dtype union");
  const buffer_descriptor with_all =
      neuronrw::lattice::join(merged, buffer_descriptor{neuronrw::device_coverage::all(), dtype_set{}});
  expect_eq(to_string(with_all.first), "all");

  if (failures == 0)
    std::printf("all checks passed\n");
  else
    std::printf("%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
