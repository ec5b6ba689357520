// Death cases of neuronrw/detail/assert.hpp and of the checks built on it: each case aborts the
// process (or, for a control case, must not), and run_death.py checks the exit and the message.
// Not doctest: a case that aborts ends the process, so each runs in its own process.
//
// Assertions are on here whatever the build type says: this TU is about them.
#undef NDEBUG
#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/detail/assert.hpp>
#include <neuronrw/ir/ref/ir.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

int check_fails(int argc) {
  NEURONRW_CHECK(argc < 0, "argc is never negative");
  return 0;
}

int check_passes(int argc) {
  NEURONRW_CHECK(argc > 0, "argc counts the program name");
  std::puts("check passed");
  return 0;
}

int assert_fails(int argc) {
  NEURONRW_ASSERT(argc == 0, "an assertion about argc");
  return 0;
}

int order_capacity(std::uint32_t capacity) {
  neuronrw::order_maintenance om(neuronrw::order_maintenance_options{.group_capacity = capacity});
  // Reached only for a valid capacity: the structure must then work.
  const auto l = om.create_list();
  const auto a = om.add_node(), b = om.add_node();
  om.push_back(l, a);
  om.push_front(l, b);
  std::printf("capacity %u: %s\n", static_cast<unsigned>(om.group_capacity()),
              om.is_before(b, a) && !om.is_before(a, b) ? "ordered" : "WRONG ORDER");
  return 0;
}

int order_detach_detached() {
  neuronrw::order_maintenance om;
  om.create_list();
  om.detach(om.add_node());  // never attached: a precondition only a bug breaks
  return 0;
}

// ref::module's one policy for a move that would make an op its own ancestor: a precondition
// violation that aborts with its message, with or without exceptions (NEURONRW_CHECK).
// outer { inner; deeper { deep } }, then the move `which` names.
int module_move(const char* which) {
  using namespace neuronrw::ref;
  module m;
  auto leaf = [&](block_ref b, std::string_view name) {
    auto o = m.create_op(name, {}, {});
    m.push_back(b, o);
    return o;
  };
  auto outer = leaf(m.body(), "test.outer");
  auto inner_block = m.add_region(outer);
  auto inner = leaf(inner_block, "test.inner");
  auto deeper = leaf(inner_block, "test.deep_region");
  auto deep_block = m.add_region(deeper);
  auto deep = leaf(deep_block, "test.deep");
  auto second = m.add_region(outer);
  if (!std::strcmp(which, "before")) m.move_before(outer, inner);
  if (!std::strcmp(which, "after")) m.move_after(outer, deep);
  if (!std::strcmp(which, "push_back")) m.push_back(deep_block, outer);
  if (!std::strcmp(which, "to_end")) m.move_to_end(deeper, deep_block);
  if (!std::strcmp(which, "later_region")) m.move_to_end(outer, second);
  if (!std::strcmp(which, "out")) m.move_after(deep, outer);  // out of the regions: fine
  std::printf("%s: outer in the body %d, deep after outer %d\n", which, m.block_of(outer) == m.body(),
              m.next_op(outer) == deep);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  if (!std::strcmp(c, "check_fails")) return check_fails(argc);
  if (!std::strcmp(c, "check_passes")) return check_passes(argc);
  if (!std::strcmp(c, "assert_fails")) return assert_fails(argc);
  if (!std::strcmp(c, "order_capacity_1")) return order_capacity(1);
  if (!std::strcmp(c, "order_capacity_65537")) return order_capacity(65537);
  if (!std::strcmp(c, "order_capacity_2")) return order_capacity(2);
  if (!std::strcmp(c, "order_capacity_65536")) return order_capacity(65536);
  if (!std::strcmp(c, "order_detach_detached")) return order_detach_detached();
  if (!std::strncmp(c, "module_move_", 12)) return module_move(c + 12);
  std::fprintf(stderr, "assert_death: unknown case '%s'\n", c);
  return 2;
}
