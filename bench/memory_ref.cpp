// bench/memory_ref.cpp — see memory_ref.hpp.
#include "memory_ref.hpp"

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include "synthetic_function.hpp"

#include <malloc.h>

namespace bench_support::memory {

namespace {

namespace ref = neuronrw::ref;

std::size_t count_ops(const ref::module& m, ref::block_ref b) {
  std::size_t n = 0;
  for (const ref::op_ref op : m.ops(b)) {
    ++n;
    for (const ref::block_ref inner : m.region_blocks(op)) n += count_ops(m, inner);
  }
  return n;
}

}  // namespace

std::size_t heap_in_use() {
  const struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

std::string synthetic_text(std::size_t n_ops) { return ref::print(synthetic_function(n_ops)); }

held parse_ref(const std::string& text) {
  held h;
  const std::size_t before = heap_in_use();
  auto r = ref::parse(text, "synthetic.mlir");
  const std::size_t after = heap_in_use();
  if (!r.ok()) {
    h.error = r.error.str();
    return h;
  }
  if (after < before) {
    h.error = "the heap shrank during the parse";
    return h;
  }
  h.bytes = after - before;
  h.ops = count_ops(*r.value, r.value->body());
  return h;
}

}  // namespace bench_support::memory
