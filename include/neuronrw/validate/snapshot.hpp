// neuronrw/validate/snapshot.hpp — the generic pieces the rewrite checks share: a snapshot of
// blocks (every op nested in them, in pre-order, with its kind, digest, region count and operand
// values), an op → snapshot-index map, and the walk of the output that numbers ops in pre-order
// with the end of each op's subtree (what the visibility check reads).
//
// Customization points: none; needs ordered_ir. Uses op_index (O1) for flat maps when the IR has
// it, hash maps otherwise, and op_digest (O8) when asked to and the IR has it.
// Complexity: O(ops covered + operands) time; memory: one record per op (its handle and three
// 32-bit fields) and a byte, one value handle per operand, one 32-bit slot per op number (O1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw::validate_detail {

inline constexpr std::uint32_t npos32 = static_cast<std::uint32_t>(-1);

/// Op → dense index, flat over op_index (O1) when the IR has it.
template <class G>
class op_map {
 public:
  using op = op_handle_t<G>;
  /// `flat`: over op_index (O1) when the IR has it, an array of op_index_bound slots (for a
  /// snapshot of a large part of the module); else hashed (for a few ops).
  explicit op_map(const G& g, bool flat = true) : flat_mode_(indexed_ir<G> && flat) {
    if constexpr (indexed_ir<G>)
      if (flat_mode_) flat_.assign(ir::op_index_bound(g), npos32);
  }
  void set(const G& g, op o, std::uint32_t i) {
    if constexpr (indexed_ir<G>) {
      if (flat_mode_) {
        const std::size_t k = ir::op_index(g, o);
        if (k >= flat_.size()) flat_.resize(k + 1, npos32);
        flat_[k] = i;
        return;
      }
    }
    hashed_[o] = i;
  }
  std::uint32_t get(const G& g, op o) const {
    if (ir::is_null<G>(o)) return npos32;
    if constexpr (indexed_ir<G>) {
      if (flat_mode_) {
        const std::size_t k = ir::op_index(g, o);
        return k < flat_.size() ? flat_[k] : npos32;
      }
    }
    auto it = hashed_.find(o);
    return it == hashed_.end() ? npos32 : it->second;
  }
  std::size_t bytes() const noexcept { return flat_.capacity() * sizeof(std::uint32_t) + hashed_.size() * (sizeof(op) + 24); }

 private:
  bool flat_mode_;
  std::vector<std::uint32_t> flat_;
  std::unordered_map<op, std::uint32_t, handle_hash<op>> hashed_;
};

/// Every op nested in some blocks, in pre-order (block by block, in the order given).
template <class G>
struct block_snapshot {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  using block = block_handle_t<G>;

  struct op_rec {
    op o{};
    kind_id kind = 0;
    std::uint32_t operand_begin = 0;  ///< into `operands`; the next record's begins where this ends
    std::uint32_t end = 0;            ///< one past the last op of its subtree
  };
  struct block_rec {
    block b{};
    op owner{};              ///< the op whose region it is (null for a root block)
    std::uint32_t begin = 0;  ///< its ops: [begin, end) of `ops`
    std::uint32_t end = 0;
  };

  std::vector<block_rec> blocks;
  std::vector<op_rec> ops;
  std::vector<std::uint8_t> regions;  ///< per op: its region blocks, at most 255 (saturated)
  std::vector<value> operands;
  std::vector<std::uint64_t> digests;  ///< per op when taken with digests (O8), else empty
  op_map<G> index;

  explicit block_snapshot(const G& g, bool flat_index = true) : index(g, flat_index) {}

  std::size_t operand_count(std::size_t i) const {
    const std::size_t e = i + 1 < ops.size() ? ops[i + 1].operand_begin : operands.size();
    return e - ops[i].operand_begin;
  }
  std::size_t bytes() const noexcept {
    return blocks.capacity() * sizeof(block_rec) + ops.capacity() * sizeof(op_rec) + regions.capacity() +
           operands.capacity() * sizeof(value) + digests.capacity() * sizeof(std::uint64_t) + index.bytes();
  }
};

/// A region count as the snapshot keeps it (one byte, 255 for 255 or more).
inline std::uint8_t saturated_regions(std::size_t n) { return static_cast<std::uint8_t>(n < 255 ? n : 255); }

/// Counts the ops nested in `b` (all depths), explicit stack.
template <class G>
std::size_t count_nested(const G& g, block_handle_t<G> b) {
  std::size_t n = 0;
  std::vector<block_handle_t<G>> stack{b};
  while (!stack.empty()) {
    const auto cur = stack.back();
    stack.pop_back();
    for (auto&& o : ir::ops(g, cur)) {
      ++n;
      for (auto&& r : ir::regions(g, o)) stack.push_back(r);
    }
  }
  return n;
}

/// Appends block `b` (every op nested in it, pre-order) to `s`; `owner` is the op whose region
/// it is. With `digests`, also each op's op_digest (O8; nothing when the IR has none).
template <class G>
void snapshot_block(const G& g, block_snapshot<G>& s, block_handle_t<G> b, op_handle_t<G> owner, bool digests) {
  using op = op_handle_t<G>;
  using rec = typename block_snapshot<G>::op_rec;
  const auto first = static_cast<std::uint32_t>(s.ops.size());
  // Pre-order with subtree ends: a frame is an op to enter (close == npos32) or the index of one
  // whose subtree ends here.
  struct frame {
    op o;
    std::uint32_t close;
  };
  std::vector<frame> stack;
  std::vector<op> kids;
  for (auto&& o : ir::ops(g, b)) kids.push_back(o);
  for (std::size_t k = kids.size(); k-- > 0;) stack.push_back({kids[k], npos32});
  while (!stack.empty()) {
    const frame f = stack.back();
    stack.pop_back();
    if (f.close != npos32) {
      s.ops[f.close].end = static_cast<std::uint32_t>(s.ops.size());
      continue;
    }
    const auto i = static_cast<std::uint32_t>(s.ops.size());
    rec r;
    r.o = f.o;
    r.kind = ir::kind(g, f.o);
    r.operand_begin = static_cast<std::uint32_t>(s.operands.size());
    for (auto&& v : ir::operands(g, f.o)) s.operands.push_back(v);
    // Regions in order, each block's ops in order: the last region's last op is pushed first.
    kids.clear();
    std::uint32_t regions = 0;
    for (auto&& rb : ir::regions(g, f.o)) {
      ++regions;
      for (auto&& o : ir::ops(g, rb)) kids.push_back(o);
    }
    s.ops.push_back(r);
    s.regions.push_back(saturated_regions(regions));
    if constexpr (digest_ir<G>)
      if (digests) s.digests.push_back(*ir::op_digest(g, f.o));
    s.index.set(g, f.o, i);
    stack.push_back({f.o, i});
    for (std::size_t k = kids.size(); k-- > 0;) stack.push_back({kids[k], npos32});
  }
  s.blocks.push_back({b, owner, first, static_cast<std::uint32_t>(s.ops.size())});
}

/// The output side: the ops nested in some blocks, in pre-order, with each op's subtree end
/// (`end`: one past the position of its last nested op) and its position by op.
template <class G>
struct output_walk {
  using op = op_handle_t<G>;
  std::vector<op> order;
  std::vector<std::uint32_t> end;
  std::vector<std::uint32_t> root;  ///< per position: the index of the snapshot block it is in
  std::unordered_map<op, std::uint32_t, handle_hash<op>> created_pos;  ///< ops not in the snapshot
  std::vector<std::uint32_t> snap_pos;  ///< snapshot index → position (npos32: not reached)

  /// Position of `o`: from the snapshot index when it has one, else among the others.
  std::uint32_t position(const G& g, const block_snapshot<G>& s, op o) const {
    const std::uint32_t si = s.index.get(g, o);
    if (si != npos32 && si < snap_pos.size() && snap_pos[si] != npos32 && order[snap_pos[si]] == o) return snap_pos[si];
    auto it = created_pos.find(o);
    return it == created_pos.end() ? npos32 : it->second;
  }
  /// True when the op at position `a` strictly encloses the op at position `u`.
  bool encloses(std::uint32_t a, std::uint32_t u) const { return a < u && u < end[a]; }
};

/// Walks the blocks of `s` as they are now, in pre-order.
template <class G>
output_walk<G> walk_output(const G& g, const block_snapshot<G>& s) {
  using op = op_handle_t<G>;
  output_walk<G> w;
  w.snap_pos.assign(s.ops.size(), npos32);
  struct frame {
    op o;
    std::uint32_t pos;  ///< npos32: enter; else close the op at this position
  };
  std::vector<frame> stack;
  std::vector<op> kids;
  for (std::uint32_t bi = 0; bi < s.blocks.size(); ++bi) {
    const auto& br = s.blocks[bi];
    kids.clear();
    for (auto&& o : ir::ops(g, br.b)) kids.push_back(o);
    for (std::size_t k = kids.size(); k-- > 0;) stack.push_back({kids[k], npos32});
    while (!stack.empty()) {
      const frame f = stack.back();
      stack.pop_back();
      if (f.pos != npos32) {
        w.end[f.pos] = static_cast<std::uint32_t>(w.order.size());
        continue;
      }
      const auto p = static_cast<std::uint32_t>(w.order.size());
      w.order.push_back(f.o);
      w.end.push_back(0);
      w.root.push_back(bi);
      const std::uint32_t si = s.index.get(g, f.o);
      if (si != npos32 && s.ops[si].o == f.o && w.snap_pos[si] == npos32)
        w.snap_pos[si] = p;
      else
        w.created_pos.emplace(f.o, p);
      stack.push_back({f.o, p});
      kids.clear();
      for (auto&& rb : ir::regions(g, f.o))
        for (auto&& o : ir::ops(g, rb)) kids.push_back(o);
      for (std::size_t k = kids.size(); k-- > 0;) stack.push_back({kids[k], npos32});
    }
  }
  return w;
}

/// The printer's text for an op, or `an op` without one.
template <class G, class Printer>
std::string op_name(const G& g, Printer& pr, op_handle_t<G> o) {
  return describe_detail::op_text(g, pr, o);
}

/// The index of `v` among `o`'s results, or npos32.
template <class G>
std::uint32_t result_index(const G& g, op_handle_t<G> o, value_handle_t<G> v) {
  std::uint32_t i = 0;
  for (auto&& r : ir::results(g, o)) {
    if (r == v) return i;
    ++i;
  }
  return npos32;
}

/// The index of `v` among the arguments of block `b` (O4), or npos32.
template <class G>
std::uint32_t argument_index(const G& g, block_handle_t<G> b, value_handle_t<G> v) {
  if constexpr (block_arguments_ir<G>) {
    std::uint32_t i = 0;
    for (auto&& a : ir_traits<G>::block_arguments(g, b)) {
      if (a == v) return i;
      ++i;
    }
  }
  return npos32;
}

/// A printer that names ops by kind id, for checks run without one.
template <class G>
struct anonymous_printer {
  const G& g;
  std::string operator()(op_handle_t<G> o) const { return "an op of kind " + std::to_string(ir::kind(g, o)); }
};

}  // namespace neuronrw::validate_detail
