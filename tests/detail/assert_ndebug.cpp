// neuronrw/detail/assert.hpp under NDEBUG: NEURONRW_ASSERT is compiled out and does not evaluate
// its condition, NEURONRW_CHECK stays on, and NEURONRW_ENABLE_ASSERTS brings NEURONRW_ASSERT back.
// Built twice by meson.build: with -DNDEBUG, and with -DNDEBUG -DNEURONRW_ENABLE_ASSERTS.
#ifndef NDEBUG
#error "this TU is built with -DNDEBUG"
#endif
#include <neuronrw/detail/assert.hpp>

#include <cstdio>
#include <cstring>

namespace {

int evaluations = 0;
bool counted_false() {
  ++evaluations;
  return false;
}

// NEURONRW_CHECK in a constexpr function: a passing check is a constant expression.
constexpr int checked_half(int x) {
  NEURONRW_CHECK(x % 2 == 0, "checked_half needs an even number");
  return x / 2;
}
static_assert(checked_half(8) == 4);

}  // namespace

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  if (!std::strcmp(c, "assert")) {
    NEURONRW_ASSERT(counted_false(), "fires only with NEURONRW_ENABLE_ASSERTS");
    std::printf("assert skipped, condition evaluated %d times\n", evaluations);
    return 0;
  }
  if (!std::strcmp(c, "check")) {
    NEURONRW_CHECK(counted_false(), "always on");
    return 0;
  }
  std::fprintf(stderr, "assert_ndebug: unknown case '%s'\n", c);
  return 2;
}
