// neuronrw/validate/composites.hpp — the rewrite check of the lowering of a fusion to a composite
// and its decomposition (passes/composite_lowering.hpp; docs/validation.md §"FusionToComposite"),
// shared by FusionToComposite and ScheduleFusion's composites flavour. Per fusion, a snapshot just
// before its lowering and a check just after it that proves
//   1. the composite has the fusion's operands (the same values, in order) and as many results,
//      and each result has exactly the uses the fusion's result at the same index had (the same
//      user ops at the same operand indices);
//   2. the composite carries the schema: CompositeKind = the fusion's FusionKind (or the default),
//      name = "composite.Fused", a `decomposition` and `version`; the decomposition name was free
//      before and resolves after, and the function carries genComposite and noDelete;
//   3. inlining the decomposition at the composite gives back the fusion's body: the function's
//      body has the fusion body's ops in the same pre-order, each with the same digest (O8; kind
//      tags without it) and region count, each operand the same local value (argument #k, result
//      #r of body op #j, or the same outer value), and its terminator returns the same values.
// A fusion nested in another is lowered first, so each snapshot sees the body as its own
// lowering finds it (nested fusions already composites).
//
// Customization points: the printer (as validate/schedule_fusion.hpp). Needs outlinable_ir and
// block_arguments (O4); uses op_digest (O8) when the IR has it.
// Complexity: O(body ops + operands + uses of the fusion's results) per fusion; memory: the
// fusion body's snapshot (one record per op, one local reference per operand) at a time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/composite_lowering.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/transaction.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/snapshot.hpp>

namespace neuronrw {

namespace validate_detail {

/// An operand in a region's own terms.
template <class Value>
struct local_ref {
  enum class tag : std::uint8_t { argument, result, nested_argument, outer } t = tag::outer;
  std::uint32_t a = 0;  ///< argument: its index; result, nested_argument: the op's pre-order index
  std::uint32_t b = 0;  ///< result: the result index; nested_argument: region << 16 | argument
  Value outer{};        ///< outer: the value itself
  friend bool operator==(const local_ref& x, const local_ref& y) {
    if (x.t != y.t) return false;
    if (x.t == tag::outer) return x.outer == y.outer;
    return x.a == y.a && (x.t == tag::argument || x.b == y.b);  // result, nested_argument: both
  }
};

/// A region block in its own terms: every op nested in it in pre-order (digest or kind, region
/// count, operands as local references); the last top-level op is its terminator.
template <class G>
struct local_body {
  using value = value_handle_t<G>;
  std::vector<std::uint64_t> what;  ///< digest (O8) or kind per op
  std::vector<std::uint32_t> regions, operand_begin;
  std::vector<local_ref<value>> operands;
  std::uint32_t terminator = npos32;  ///< pre-order index of the block's last op
  std::size_t arguments = 0;
  std::size_t bytes() const noexcept {
    return what.capacity() * 8 + (regions.capacity() + operand_begin.capacity()) * 4 + operands.capacity() * sizeof(local_ref<value>);
  }
};

/// The uses of `v`: (user, operand index), each use once.
template <class G>
std::vector<std::pair<op_handle_t<G>, std::uint32_t>> uses_of(const G& g, value_handle_t<G> v) {
  std::vector<std::pair<op_handle_t<G>, std::uint32_t>> out;
  std::vector<op_handle_t<G>> seen;
  for (auto&& u : ir::users(g, v)) {
    if (std::find(seen.begin(), seen.end(), u) != seen.end()) continue;
    seen.push_back(u);
    std::uint32_t k = 0;
    for (auto&& x : ir::operands(g, u)) {
      if (x == v) out.emplace_back(u, k);
      ++k;
    }
  }
  return out;
}

template <class G>
local_body<G> describe_body(const G& g, block_handle_t<G> b) {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  local_body<G> out;
  block_snapshot<G> s(g, false);
  snapshot_block(g, s, b, ir::null_op<G>(), true);
  std::unordered_map<value, std::uint32_t, handle_hash<value>> args;
  if constexpr (block_arguments_ir<G>)
    for (auto&& a : ir_traits<G>::block_arguments(g, b)) args.emplace(a, static_cast<std::uint32_t>(args.size()));
  out.arguments = args.size();
  const std::size_t n = s.ops.size();
  // Arguments of the blocks nested in the body: (the op, region << 16 | argument).
  std::unordered_map<value, std::pair<std::uint32_t, std::uint32_t>, handle_hash<value>> nested;
  if constexpr (block_arguments_ir<G>)
    for (std::uint32_t i = 0; i < n; ++i) {
      if (s.regions[i] == 0) continue;
      std::uint32_t ri = 0;
      for (auto&& rb : ir::regions(g, s.ops[i].o)) {
        std::uint32_t ai = 0;
        for (auto&& a : ir_traits<G>::block_arguments(g, rb)) nested.emplace(a, std::pair{i, (ri << 16) | (ai++ & 0xffffu)});
        ++ri;
      }
    }
  out.what.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& r = s.ops[i];
    out.what.push_back(s.digests.empty() ? r.kind : s.digests[i]);
    out.regions.push_back(s.regions[i]);
    out.operand_begin.push_back(static_cast<std::uint32_t>(out.operands.size()));
    for (std::size_t k = 0, m = s.operand_count(i); k < m; ++k) {
      const value v = s.operands[r.operand_begin + k];
      local_ref<value> l;
      const op d = ir::defining_op(g, v);
      std::uint32_t di = ir::is_null<G>(d) ? npos32 : s.index.get(g, d);
      if (di != npos32 && di < n && s.ops[di].o == d) {
        l.t = local_ref<value>::tag::result;
        l.a = di;
        l.b = result_index(g, d, v);
      } else if (auto it = args.find(v); ir::is_null<G>(d) && it != args.end()) {
        l.t = local_ref<value>::tag::argument;
        l.a = it->second;
      } else if (auto nt = nested.find(v); ir::is_null<G>(d) && nt != nested.end()) {
        l.t = local_ref<value>::tag::nested_argument;
        l.a = nt->second.first;
        l.b = nt->second.second;
      } else {
        l.outer = v;
      }
      out.operands.push_back(l);
    }
  }
  // The terminator: the last op of the block itself (not nested).
  for (std::uint32_t i = 0; i < n; i = s.ops[i].end) out.terminator = i;
  return out;
}

}  // namespace validate_detail

/// What the check of one fusion's lowering compares the output with.
template <class G>
struct composite_snapshot {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  op fusion{};
  std::vector<value> operands;
  std::vector<std::vector<std::pair<op, std::uint32_t>>> users;  ///< per result: its uses (user, operand index)
  bool name_taken = false;             ///< the decomposition name was a symbol already
  bool has_body = false;
  validate_detail::local_body<G> body;
  std::size_t ops() const noexcept { return body.what.size() + 1; }
  std::size_t bytes() const noexcept {
    std::size_t b = operands.capacity() * sizeof(value) + body.bytes();
    for (const auto& u : users) b += u.capacity() * sizeof(op);
    return b;
  }
};

/// Records what lowering `record` (a fusion, its decomposition name and CompositeKind) may touch.
template <class G, class Record>
composite_snapshot<G> snapshot_composite(const G& g, const Record& record) {
  static_assert(require_outlinable_ir<G>());
  composite_snapshot<G> s;
  s.fusion = record.fusion;
  for (auto&& v : ir::operands(g, record.fusion)) s.operands.push_back(v);
  for (auto&& r : ir::results(g, record.fusion)) s.users.push_back(validate_detail::uses_of(g, r));
  s.name_taken = ir::has_symbol(g, record.decomposition);
  std::size_t blocks = 0;
  for (auto&& b : ir::regions(g, record.fusion)) {
    if (blocks++ == 0) {
      s.body = validate_detail::describe_body(g, b);
      s.has_body = true;
    }
  }
  if (blocks != 1) s.has_body = false;
  return s;
}

namespace validate_detail {

/// Whether two lists of uses (user, operand index) hold the same uses.
template <class G>
bool same_uses(const std::vector<std::pair<op_handle_t<G>, std::uint32_t>>& before,
               const std::vector<std::pair<op_handle_t<G>, std::uint32_t>>& after) {
  if (before.size() != after.size()) return false;
  std::unordered_map<op_handle_t<G>, std::vector<std::uint32_t>, handle_hash<op_handle_t<G>>> by_user;
  for (const auto& [u, k] : before) by_user[u].push_back(k);
  for (const auto& [u, k] : after) {
    auto it = by_user.find(u);
    if (it == by_user.end()) return false;
    auto& ks = it->second;
    auto at = std::find(ks.begin(), ks.end(), k);
    if (at == ks.end()) return false;
    ks.erase(at);
  }
  return true;
}

}  // namespace validate_detail

/// Checks one lowered record: `made` is what lower_to_composites created for it (the composite
/// and the decomposition), `snap` the snapshot taken just before. Appends mismatches to `out`.
template <class G, class Record, class Printer>
void check_composite(const G& g, const Record& record, const composite_snapshot<G>& snap,
                     const applied_conversion<op_handle_t<G>>& made, Printer&& printer, rewrite_check<op_handle_t<G>>& out) {
  static_assert(require_outlinable_ir<G>());
  namespace vd = validate_detail;
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  out.ops += snap.ops();
  out.bytes += snap.bytes();
  const op c = made.composite;
  const std::string which = "the composite of @" + std::string(record.decomposition);
  if (ir::is_null<G>(c) || ir::is_null<G>(made.decomposition)) {
    out.add(rewrite_fault::plan_not_realized, c, which + " was not created");
    return;
  }
  // 1. operands, results, users.
  std::vector<value> ins;
  for (auto&& v : ir::operands(g, c)) ins.push_back(v);
  if (ins != snap.operands)
    out.add(rewrite_fault::composite_mismatch, c, which + " does not have the fusion's operands",
            std::to_string(snap.operands.size()) + " operands, in the fusion's order",
            std::to_string(ins.size()) + " operands" + (ins.size() == snap.operands.size() ? ", other values or order" : ""));
  std::size_t k = 0;
  for (auto&& r : ir::results(g, c)) {
    const auto us = vd::uses_of(g, r);
    if (k < snap.users.size() && !vd::same_uses<G>(snap.users[k], us))
      out.add(rewrite_fault::composite_mismatch, c, which + ": result #" + std::to_string(k) + " does not have the fusion's users",
              std::to_string(snap.users[k].size()) + " uses by the fusion's users", std::to_string(us.size()) + " uses, other users");
    ++k;
  }
  if (k != snap.users.size())
    out.add(rewrite_fault::composite_mismatch, c, which + " does not have the fusion's result count",
            std::to_string(snap.users.size()) + " results", std::to_string(k) + " results");
  // 2. the schema.
  const auto kind = ir::string_attribute(g, c, composite_schema::composite_kind);
  if (!kind || *kind != record.composite_kind)
    out.add(rewrite_fault::composite_mismatch, c, which + ": CompositeKind is not the fusion's FusionKind",
            "CompositeKind " + std::string(record.composite_kind), kind ? "CompositeKind " + *kind : std::string("none"));
  const auto nm = ir::string_attribute(g, c, "name");
  if (!nm || *nm != composite_schema::composite_name)
    out.add(rewrite_fault::composite_mismatch, c, which + ": its name is not the schema's",
            std::string(composite_schema::composite_name), nm ? *nm : std::string("none"));
  for (std::string_view a : {std::string_view("decomposition"), std::string_view("version"), std::string_view("composite_attributes")})
    if (!ir::has_attribute(g, c, a))
      out.add(rewrite_fault::composite_mismatch, c, which + ": the schema's `" + std::string(a) + "` is missing");
  if (snap.name_taken || !ir::has_symbol(g, record.decomposition))
    out.add(rewrite_fault::symbol_mismatch, c,
            snap.name_taken ? "the decomposition name @" + std::string(record.decomposition) + " was taken before the lowering"
                            : "the decomposition @" + std::string(record.decomposition) + " does not resolve",
            "a fresh name", snap.name_taken ? "a name already defined" : "no such symbol");
  const op fn = made.decomposition;
  if (!ir::has_attribute(g, fn, composite_schema::gen_composite) || !ir::has_attribute(g, fn, composite_schema::no_delete))
    out.add(rewrite_fault::symbol_mismatch, c, "the decomposition @" + std::string(record.decomposition) + " lacks genComposite or noDelete");
  // 3. the body.
  if (!snap.has_body) {
    out.add(rewrite_fault::body_mismatch, c, "the fusion had no single region block to compare with");
    return;
  }
  std::size_t blocks = 0;
  std::optional<vd::local_body<G>> body;
  for (auto&& b : ir::regions(g, fn))
    if (blocks++ == 0) body = vd::describe_body(g, b);
  if (blocks != 1 || !body) {
    out.add(rewrite_fault::body_mismatch, c, which + ": the decomposition has " + std::to_string(blocks) + " region blocks", "one", std::to_string(blocks));
    return;
  }
  const auto& want = snap.body;
  const auto& got = *body;
  if (got.arguments != want.arguments)
    out.add(rewrite_fault::body_mismatch, c, which + ": the decomposition takes another number of arguments",
            std::to_string(want.arguments) + " arguments", std::to_string(got.arguments) + " arguments");
  if (got.what.size() != want.what.size()) {
    out.add(rewrite_fault::body_mismatch, c, which + ": the decomposition's body has another number of ops than the fusion's",
            std::to_string(want.what.size()) + " ops", std::to_string(got.what.size()) + " ops");
    return;
  }
  if (got.terminator != want.terminator) {
    out.add(rewrite_fault::body_mismatch, c, which + ": the decomposition's body is shaped differently from the fusion's");
    return;
  }
  for (std::size_t i = 0; i < want.what.size(); ++i) {
    const bool term = i == want.terminator;
    const std::string at = "op #" + std::to_string(i) + (term ? " (the terminator)" : "") + " of the decomposition's body";
    if (!term && (got.what[i] != want.what[i] || got.regions[i] != want.regions[i])) {
      out.add(rewrite_fault::body_mismatch, c, which + ": " + at + " is not the fusion body's op", "the fusion body's op #" + std::to_string(i),
              "an op that computes something else");
      continue;
    }
    const std::size_t wb = want.operand_begin[i], we = i + 1 < want.what.size() ? want.operand_begin[i + 1] : want.operands.size();
    const std::size_t gb = got.operand_begin[i], ge = i + 1 < got.what.size() ? got.operand_begin[i + 1] : got.operands.size();
    if (we - wb != ge - gb) {
      out.add(rewrite_fault::body_mismatch, c, which + ": " + at + " has another number of operands",
              std::to_string(we - wb) + " operands", std::to_string(ge - gb) + " operands");
      continue;
    }
    for (std::size_t j = 0; j < we - wb; ++j)
      if (!(got.operands[gb + j] == want.operands[wb + j])) {
        auto words = [&](const vd::local_ref<value>& l) {
          using t = typename vd::local_ref<value>::tag;
          if (l.t == t::argument) return "argument #" + std::to_string(l.a);
          if (l.t == t::result) return "result #" + std::to_string(l.b) + " of body op #" + std::to_string(l.a);
          if (l.t == t::nested_argument)
            return "argument #" + std::to_string(l.b & 0xffffu) + " of region #" + std::to_string(l.b >> 16) + " of body op #" +
                   std::to_string(l.a);
          return "the outer value " + describe_detail::value_text(g, printer, l.outer);
        };
        out.add(rewrite_fault::body_mismatch, c, which + ": operand #" + std::to_string(j) + " of " + at + " is another value",
                words(want.operands[wb + j]), words(got.operands[gb + j]));
      }
  }
}

}  // namespace neuronrw

namespace neuronrw {

/// Lowers `records` (passes/composite_lowering.hpp) one at a time, each checked right after its
/// lowering against a snapshot taken right before it; appends the verdicts to `check`. Returns
/// what lower_to_composites returns.
template <class G, class Records, class Printer>
std::vector<applied_conversion<op_handle_t<G>>> lower_to_composites_checked(G& g, const Records& records,
                                                                            std::string_view composite_op_name,
                                                                            Printer&& printer,
                                                                            rewrite_check<op_handle_t<G>>& check) {
  static_assert(require_outlinable_ir<G>());
  std::vector<applied_conversion<op_handle_t<G>>> out;
  out.reserve(std::size(records));
  txn_detail::unchecked_steps steps;
  for (const auto& rec : records) {
    auto snap = snapshot_composite(g, rec);
    auto made = lower_to_composites(g, std::span(&rec, 1), composite_op_name, steps);
    const applied_conversion<op_handle_t<G>> m = made.empty() ? applied_conversion<op_handle_t<G>>{ir::null_op<G>(), ir::null_op<G>()} : made[0];
    check_composite(g, rec, snap, m, printer, check);
    out.push_back(m);
  }
  return out;
}

}  // namespace neuronrw
