// bench/synthetic_function.hpp — the ScheduleFusion benchmark function, shared by
// schedule_fusion_bench and mlir_bench (which parses its printed text into MLIR, so both IRs get
// the same input).
//
// Per 100-op segment: a slice of the weights (this layer's shard) and its all_gather; 48 users of
// the gathered value (a chain: they all move after the cluster); 49 unrelated ops interleaved
// with them (a chain feeding the reduce_scatter, which the dependence walk visits: 49 of the
// budget of 100, and which stays before the cluster); the reduce_scatter(all_gather, chain).
// Each segment's chains continue the previous one's, so every value stays live and every pair
// really reschedules (49 moves each).
//
// add_shared_live_in_function: the same per-100-op reschedule, but every cluster reads one value,
// the function's first argument %w: each all_gather gathers %w itself (no slice), and every
// unrelated op reads %w too (`add(chain, w)`), so %w has about n/2 uses and is a live-in of all
// n/100 fusions. Grouping that scanned each live-in's use list per fusion was quadratic on it
// (include/neuronrw/ir/ref/rewrite.hpp, group_ops).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>

#include <neuronrw/ir/ref/ir.hpp>

namespace bench_support {

namespace ref = neuronrw::ref;

constexpr std::size_t segment = 100;

/// Appends `name(%w, %chain) -> tensor<16x8xf32>` to `m`; `fill(emit, w, chain)` writes its
/// body through `emit(op name, {operands})` (one result each, returned) and returns the value
/// the function returns.
template <class Fill>
void add_function(ref::module& m, const char* name, Fill&& fill) {
  auto t = m.intern_type("tensor<16x8xf32>");
  auto f = m.create_op("func.func", {}, {});
  auto& fi = m.make_function(f);
  fi.sym_name = name;
  fi.result_types = {t};
  fi.result_attrs = {""};
  fi.arg_attrs = {"", ""};
  m.push_back(m.body(), f);
  const ref::type_ref args[] = {t, t};
  auto body = m.add_region(f, args);
  const ref::type_ref one[] = {t};
  auto emit = [&](const char* op_name, std::initializer_list<ref::value_ref> operands) {
    auto o = m.create_op(op_name, std::span<const ref::value_ref>(operands.begin(), operands.size()), one);
    m.push_back(body, o);
    return m.result(o, 0);
  };
  const ref::value_ref ret[] = {fill(emit, m.arguments(body)[0], m.arguments(body)[1])};
  m.push_back(body, m.create_op("func.return", ret, {}));
}

/// Appends the function described above, named `name`, to `m`.
inline void add_synthetic_function(ref::module& m, std::size_t n_ops, const char* name = "synthetic") {
  add_function(m, name, [n_ops](auto&& emit, ref::value_ref w, ref::value_ref chain) {
    ref::value_ref acc = chain;
    for (std::size_t done = 0; done + segment <= n_ops; done += segment) {
      const ref::value_ref shard = emit("mhlo.slice", {w});  // this layer's weight shard
      const ref::value_ref g = emit("mhlo.all_gather", {shard});
      ref::value_ref user = g;
      for (std::size_t i = 0; i < (segment - 4) / 2; ++i) {
        user = emit("mhlo.multiply", {user, acc});  // uses the gather (transitively): moves
        chain = emit("mhlo.negate", {chain});        // unrelated, feeds the reduce_scatter: stays
      }
      chain = emit("mhlo.negate", {chain});
      chain = emit("mhlo.reduce_scatter", {g, chain});  // the next segment's chain starts here
      acc = user;                                        // and its users read this one's
    }
    return acc;
  });
}

/// Appends the shared-live-in function described above, named `name`, to `m`. Per 100-op segment:
/// the all_gather of %w; 48 users of the gathered value (a chain, they move after the cluster)
/// interleaved with 48 unrelated `add(chain, w)`; two more of those; the reduce_scatter(all_gather,
/// chain). Every pair is clustered, moves 48 ops, and has the live-ins %w and the chain.
inline void add_shared_live_in_function(ref::module& m, std::size_t n_ops, const char* name = "shared") {
  add_function(m, name, [n_ops](auto&& emit, ref::value_ref w, ref::value_ref chain) {
    ref::value_ref acc = chain;
    for (std::size_t done = 0; done + segment <= n_ops; done += segment) {
      const ref::value_ref g = emit("mhlo.all_gather", {w});  // every cluster's live-in %w
      ref::value_ref user = g;
      for (std::size_t i = 0; i < (segment - 4) / 2; ++i) {
        user = emit("mhlo.multiply", {user, acc});  // uses the gather (transitively): moves
        chain = emit("mhlo.add", {chain, w});        // unrelated, reads %w, feeds the reduce_scatter
      }
      chain = emit("mhlo.add", {chain, w});
      chain = emit("mhlo.add", {chain, w});
      chain = emit("mhlo.reduce_scatter", {g, chain});
      acc = user;
    }
    return acc;
  });
}

inline ref::module shared_live_in_function(std::size_t n_ops) {
  ref::module m;
  add_shared_live_in_function(m, n_ops);
  return m;
}

inline ref::module synthetic_function(std::size_t n_ops) {
  ref::module m;
  add_synthetic_function(m, n_ops);
  return m;
}

}  // namespace bench_support
