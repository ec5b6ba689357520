// neuronrw/descriptors/kind_names.hpp — kinds at run time: the canonical spelling of a kind name,
// the kind of an op name, and the kind table a user writes in a small text file
// (docs/kinds.md).
//
//   canonical_kind_name("AllGather")          // "all_gather"   (also "all-gather", "ALL_GATHER")
//   op_name_kind("xla.all-gather")            // kind_id_v<kinds::all_gather>
//   kind_map m = kind_map::parse(text, "kinds.txt").value();   // or read its diagnostics
//   m.lookup("mycc.gather_all")               // what the file says, else op_name_kind
//
// Canonical kind names are lower snake case (`all_gather`, the names of kinds.hpp). The
// spellings real IRs use map to them: XLA HLO's `all-gather`, `collective-permute`; CamelCase op
// or class names (`AllGather`, `ReduceScatter`, `HLOAllReduce` -> `hlo_all_reduce`); upper case.
// The rule, per character: `-` and a space become `_`; an upper-case letter becomes lower case,
// preceded by `_` when it follows a lower-case letter or digit, or when it follows an upper-case
// letter and precedes a lower-case one (the end of an acronym); every other byte stays. An op
// name's kind is the canonical form of what follows its first `.` (the dialect prefix: `mhlo.`,
// `stablehlo.`, `mycc.`), or of the whole name when it has none.
//
// The kinds file (the same file for neuronrw-opt, neuronrw-mlir-opt and a user's own tool): one
// `OP-NAME KIND` pair per line, separated by blanks; `#` starts a comment that runs to the end of
// the line; blank lines are ignored. OP-NAME is an op name as the IR spells it (`mycc.all_gather`,
// or a Boost.Graph opcode string), without blanks or `#`; KIND is a kind name, read in its
// canonical form (`AllGather` and `all-gather` mean `all_gather`). Any kind may be named, the
// library's (kinds.hpp) or a user's own (`my_collective`, for a run-time pattern). A line with
// one field or more than two, an OP-NAME with a control byte, a KIND that is not an identifier, or
// an OP-NAME given twice with different kinds is an error located at its line and column; every
// bad line is reported (the first 20), and no table is returned when there is one.
//
// Cost: canonical ids are computed without allocating (one FNV-1a step per byte, constexpr);
// kind_map is a sorted vector of names, lookup O(log n). Generic: no exceptions, no RTTI.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/fnv1a.hpp>
#include <neuronrw/diagnostic.hpp>

namespace neuronrw {

namespace kind_names_detail {

constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower_or_digit(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
constexpr bool is_lower(char c) noexcept { return c >= 'a' && c <= 'z'; }

/// Calls `out(char)` for each character of the canonical form of `name` (see the header comment).
template <class Out>
constexpr void canonical_chars(std::string_view name, Out&& out) {
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '-' || c == ' ') {
      out('_');
    } else if (is_upper(c)) {
      if (i > 0) {
        const char p = name[i - 1];
        const bool next_lower = i + 1 < name.size() && is_lower(name[i + 1]);
        if (is_lower_or_digit(p) || (is_upper(p) && next_lower)) out('_');
      }
      out(static_cast<char>(c - 'A' + 'a'));
    } else {
      out(c);
    }
  }
}

/// The part of an op name that names its kind: what follows the first '.', or all of it.
constexpr std::string_view kind_part(std::string_view op_name) noexcept {
  const auto dot = op_name.find('.');
  return dot == std::string_view::npos ? op_name : op_name.substr(dot + 1);
}

}  // namespace kind_names_detail

/// The canonical spelling of a kind name: `AllGather`, `all-gather`, `ALL_GATHER` → `all_gather`.
inline std::string canonical_kind_name(std::string_view name) {
  std::string s;
  s.reserve(name.size() + 4);
  kind_names_detail::canonical_chars(name, [&](char c) { s.push_back(c); });
  return s;
}

/// kind_id_of(canonical_kind_name(name)), without allocating.
constexpr kind_id canonical_kind_id(std::string_view name) noexcept {
  detail::fnv1a_32 h;
  kind_names_detail::canonical_chars(name, [&](char c) { h.update_byte(static_cast<unsigned char>(c)); });
  const kind_id id = h.value();
  return id == unknown_kind ? 1u : id;
}

/// The kind of an op named `op_name` by the built-in rule: the canonical form of its name after
/// the dialect prefix (`mhlo.all_gather`, `xla.all-gather`, `AllGather` → all_gather).
constexpr kind_id op_name_kind(std::string_view op_name) noexcept {
  return canonical_kind_id(kind_names_detail::kind_part(op_name));
}

/// The library's own kinds (kinds.hpp), by canonical name, sorted: what a "kinds known" list
/// starts from.
inline constexpr std::array<std::string_view, 12> library_kind_names = {
    "all_gather", "all_reduce", "all_to_all", "call",   "collective_permute", "composite",
    "func",       "fusion",     "get_tuple_element",    "module", "reduce_scatter", "return"};

/// Whether `kind` is a canonical kind name: non-empty, [a-z0-9_], not starting with a digit.
constexpr bool is_canonical_kind_name(std::string_view kind) noexcept {
  if (kind.empty() || (kind[0] >= '0' && kind[0] <= '9')) return false;
  for (char c : kind)
    if (!kind_names_detail::is_lower_or_digit(c) && c != '_') return false;
  return true;
}

/// A run-time kind table: op names (as the IR spells them) → kinds, read from a kinds file or
/// built in code. Ops it does not name keep the built-in rule (op_name_kind). Copyable plain data.
struct kind_map_parse_result;

class kind_map {
 public:
  struct entry {
    std::string op_name;
    std::string kind;  ///< canonical kind name
    kind_id id = unknown_kind;
    source_loc loc = {};  ///< where the kinds file said it (unknown for entries added in code)
    friend bool operator==(const entry&, const entry&) = default;
  };

  kind_map() = default;

  /// Maps `op_name` to the kind named `kind` (read in its canonical form), replacing an earlier
  /// entry for the same name.
  kind_map& add(std::string_view op_name, std::string_view kind, source_loc loc = {}) {
    entry e{std::string(op_name), canonical_kind_name(kind), unknown_kind, loc};
    e.id = kind_id_of(e.kind);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), op_name,
                               [](const entry& a, std::string_view n) { return a.op_name < n; });
    if (it != entries_.end() && it->op_name == op_name) *it = std::move(e);
    else entries_.insert(it, std::move(e));
    return *this;
  }
  /// Adds every entry of `other`, its entries winning.
  kind_map& merge(const kind_map& other) {
    for (const auto& e : other.entries_) add(e.op_name, e.kind, e.loc);
    return *this;
  }

  /// The entry naming `op_name` exactly, or null.
  const entry* find(std::string_view op_name) const noexcept {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), op_name,
                               [](const entry& a, std::string_view n) { return a.op_name < n; });
    return it != entries_.end() && it->op_name == op_name ? &*it : nullptr;
  }
  /// The kind of an op named `op_name`: the table's, else the built-in rule's (op_name_kind).
  kind_id lookup(std::string_view op_name) const noexcept {
    if (const entry* e = find(op_name)) return e->id;
    return op_name_kind(op_name);
  }

  /// The entries, sorted by op name.
  const std::vector<entry>& entries() const noexcept { return entries_; }
  bool empty() const noexcept { return entries_.empty(); }
  std::size_t size() const noexcept { return entries_.size(); }

  /// The kind names this table and the library know, sorted, each once: what "kinds known" says.
  std::vector<std::string> known_kinds() const {
    std::vector<std::string> out(library_kind_names.begin(), library_kind_names.end());
    for (const auto& e : entries_) out.push_back(e.kind);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// Reads a kinds file's text (see the header comment); `file` names it in the diagnostics.
  static kind_map_parse_result parse(std::string_view text, std::string_view file = "<kinds>");

 private:
  std::vector<entry> entries_;
};

/// What kind_map::parse returns: the table when the text had no error, and every error found.
struct kind_map_parse_result {
  std::optional<kind_map> map;
  std::vector<diagnostic> errors;
  bool ok() const noexcept { return map.has_value(); }
};

namespace kind_names_detail {
/// `s` for a message: bytes outside printable ASCII as \xHH, cut at 64 characters.
inline std::string printable(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= 64) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}
}  // namespace kind_names_detail

// ================================================================== run-time boundary sets

/// A boundary set known at run time (a pipeline's `boundary=all_gather,reduce_scatter`): what the
/// dependence walk takes as its first argument when a pattern is declared in a pipeline string
/// instead of in C++ (passes/schedule_fusion/pattern.hpp, docs/schedule-fusion.md §"Patterns
/// from a pipeline"). At most max_kinds kinds; membership is a scan of at most that many ids.
struct runtime_boundary_set {
  static constexpr std::size_t max_kinds = 32;
  std::array<kind_id, max_kinds> ids{};
  std::size_t count = 0;

  constexpr bool contains(kind_id k) const noexcept {
    for (std::size_t i = 0; i < count; ++i)
      if (ids[i] == k) return true;
    return false;
  }
  /// Adds `k` unless it is a member; false when the set is full.
  constexpr bool add(kind_id k) noexcept {
    if (contains(k)) return true;
    if (count == max_kinds) return false;
    ids[count++] = k;
    return true;
  }
};

/// Reads a comma-separated list of kind names (`all_gather,reduce_scatter`, each in its canonical
/// form) into `out`; the problem in words when an element is empty or not a kind name, a kind is
/// listed twice, two kinds share an id, or there are more than runtime_boundary_set::max_kinds.
inline std::optional<std::string> parse_kind_list(std::string_view text, std::vector<std::string>& out) {
  out.clear();
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view raw = text.substr(pos, comma - pos);
    std::string kind = canonical_kind_name(raw);
    if (raw.empty()) return std::string("has an empty kind name (kinds are separated by single commas)");
    if (!is_canonical_kind_name(kind))
      return "has '" + kind_names_detail::printable(raw) + "', which is not a kind name (letters, digits, '_' and '-')";
    for (const auto& k : out) {
      if (k == kind) return "lists the kind '" + kind + "' twice";
      if (kind_id_of(k) == kind_id_of(kind))
        return "lists '" + k + "' and '" + kind + "', whose kind ids collide (rename one of them)";
    }
    out.push_back(std::move(kind));
    if (out.size() > runtime_boundary_set::max_kinds)
      return "lists more than " + std::to_string(runtime_boundary_set::max_kinds) + " kinds";
    if (comma == text.size()) return std::nullopt;
    pos = comma + 1;
  }
}

inline kind_map_parse_result kind_map::parse(std::string_view text, std::string_view file) {
  using kind_names_detail::printable;
  constexpr std::size_t max_errors = 20;  // a binary file given by mistake says so in 21 lines
  kind_map_parse_result r;
  kind_map m;
  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  auto error = [&](std::uint32_t col, std::string msg) {
    r.errors.push_back(diagnostic{std::string(file), {line_no, col}, std::move(msg)});
  };
  while (pos <= text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, eol - pos);
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    // fields: runs of bytes other than blanks (space, tab, CR, VT, FF)
    struct field {
      std::string_view text;
      std::uint32_t col;
    };
    std::array<field, 3> fields{};
    std::size_t n = 0;
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
    for (std::size_t i = 0; i < line.size();) {
      if (blank(line[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && !blank(line[j])) ++j;
      if (n < fields.size()) fields[n] = {line.substr(i, j - i), static_cast<std::uint32_t>(i + 1)};
      ++n;
      i = j;
    }
    std::size_t bad_byte = std::string_view::npos;
    if (n >= 1)
      for (std::size_t k = 0; k < fields[0].text.size() && bad_byte == std::string_view::npos; ++k) {
        const auto c = static_cast<unsigned char>(fields[0].text[k]);
        if (c < 0x20 || c == 0x7f) bad_byte = k;
      }
    if (r.errors.size() >= max_errors) {
      error(1, "too many errors; stopped reading");
      break;
    }
    if (bad_byte != std::string_view::npos) {
      error(static_cast<std::uint32_t>(fields[0].col + bad_byte),
            "invalid op name '" + printable(fields[0].text) + "': a control byte");
    } else if (n == 1) {
      error(fields[0].col, "expected `OP-NAME KIND` (the kind of '" + printable(fields[0].text) + "' is missing)");
    } else if (n > 2) {
      error(fields[2].col, "expected `OP-NAME KIND`; unexpected '" + printable(fields[2].text) +
                               "' (a comment starts with '#')");
    } else if (n == 2) {
      const std::string kind = canonical_kind_name(fields[1].text);
      if (!is_canonical_kind_name(kind)) {
        error(fields[1].col, "invalid kind '" + printable(fields[1].text) +
                                 "': a kind is a name of letters, digits, '_' and '-' (e.g. all_gather)");
      } else if (const entry* old = m.find(fields[0].text); old != nullptr && old->kind != kind) {
        error(fields[0].col, "'" + printable(fields[0].text) + "' is given kind '" + kind + "' here and '" +
                                 old->kind + "' on line " + std::to_string(old->loc.line));
      } else if (old == nullptr) {
        m.add(fields[0].text, kind, {line_no, fields[0].col});
      }
    }
    if (eol == text.size()) break;
    pos = eol + 1;
  }
  if (r.errors.empty()) r.map = std::move(m);
  return r;
}

}  // namespace neuronrw
