// examples/neuronrw-opt/json_writer.hpp — the small JSON document neuronrw-opt's machine-readable
// plans are built as (plan_json.hpp; docs/plan-format.md), and its one deterministic layout.
//
// Why a hand-written writer: the plans need objects, arrays, strings, integers, booleans and
// null, written in one fixed layout so that goldens and the documentation's examples compare
// byte for byte. That is ~150 lines; a JSON library would be a new build dependency of the driver
// for no gain.
//
// The layout (json_value::dump):
//   - keys in insertion order (the writer never sorts: the plan decides the order);
//   - a container whose members are all scalars or empty containers (or that has no members) on
//     one line: `[0, 1]`, `{"file": "a.mlir", "line": 4, "col": 8}`, `{"all": true, "ranges": []}`,
//     `[]`, `{}`;
//   - the document itself, and any other container, one member per line, indented two spaces
//     per level;
//   - `": "` after a key, `", "` between inline members, one trailing newline after the document.
// Strings (RFC 8259 §7): `"` and `\` escaped with a backslash, U+0000..U+001F as `\u00xx`
// (lowercase hex), everything else passed through as UTF-8. Bytes that are not valid UTF-8 (a
// file name or attribute text can hold any bytes) become U+FFFD, so the output is always valid
// JSON. Numbers are integers only, written in decimal.
#pragma once

#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace neuronrw_opt {

/// `s` as a JSON string literal, quotes included (see the header comment for the escaping).
inline std::string json_quote(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = byte(i);
    if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xF];
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, then the shortest-form and range rules
    // (RFC 3629 §4: no overlong forms, no surrogates, nothing above U+10FFFF).
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3;
    else if (c >= 0xF0 && c <= 0xF4) n = 4;
    bool ok = n != 0;
    for (std::size_t k = 1; ok && k < n; ++k) ok = continuation(i + k);
    if (ok && n >= 3) {
      const unsigned char c1 = byte(i + 1);
      if (c == 0xE0) ok = c1 >= 0xA0;       // overlong 3-byte form
      else if (c == 0xED) ok = c1 <= 0x9F;  // UTF-16 surrogates
      else if (c == 0xF0) ok = c1 >= 0x90;  // overlong 4-byte form
      else if (c == 0xF4) ok = c1 <= 0x8F;  // above U+10FFFF
    }
    if (!ok) {
      out += "\xEF\xBF\xBD";  // U+FFFD for one bad byte; decoding resumes at the next one
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  out += '"';
  return out;
}

/// A JSON value: null, boolean, integer, string, array or object (keys in insertion order).
class json_value {
 public:
  enum class kind : std::uint8_t { null, boolean, number, string, array, object };

  json_value() = default;  ///< null
  json_value(std::nullptr_t) {}
  json_value(bool b) : kind_(kind::boolean), text_(b ? "true" : "false") {}
  template <std::integral I>
    requires(!std::same_as<I, bool> && !std::same_as<I, char>)
  json_value(I n) : kind_(kind::number), text_(std::to_string(n)) {}
  json_value(std::string_view s) : kind_(kind::string), text_(s) {}
  json_value(const std::string& s) : json_value(std::string_view(s)) {}
  json_value(const char* s) : json_value(std::string_view(s)) {}

  static json_value array() { return json_value(kind::array); }
  static json_value object() { return json_value(kind::object); }
  /// An array of `items`, each converted to a json_value.
  template <class Range>
  static json_value array_of(const Range& items) {
    json_value a = array();
    for (const auto& x : items) a.push(json_value(x));
    return a;
  }

  kind type() const noexcept { return kind_; }

  /// Appends to an array. @pre type() == kind::array.
  json_value& push(json_value v) {
    assert(kind_ == kind::array);
    items_.push_back(std::move(v));
    return *this;
  }
  /// Appends a member to an object. @pre type() == kind::object and `key` not yet present.
  json_value& set(std::string_view key, json_value v) {
    assert(kind_ == kind::object);
#ifndef NDEBUG
    for (const auto& k : keys_) assert(k != key);
#endif
    keys_.emplace_back(key);
    items_.push_back(std::move(v));
    return *this;
  }

  /// The document in the layout of the header comment, with one trailing newline.
  std::string dump() const {
    std::string out;
    write(out, 0);
    out += '\n';
    return out;
  }

 private:
  explicit json_value(kind k) : kind_(k) {}

  bool is_container() const noexcept { return kind_ == kind::array || kind_ == kind::object; }
  bool inline_layout() const noexcept {
    for (const auto& v : items_)
      if (v.is_container() && !v.items_.empty()) return false;
    return true;
  }

  void write(std::string& out, std::size_t indent) const {
    switch (kind_) {
      case kind::null: out += "null"; return;
      case kind::boolean:
      case kind::number: out += text_; return;
      case kind::string: out += json_quote(text_); return;
      case kind::array:
      case kind::object: break;
    }
    const bool object = kind_ == kind::object;
    out += object ? '{' : '[';
    const bool flat = indent > 0 && inline_layout();
    for (std::size_t i = 0; i < items_.size(); ++i) {
      if (flat) {
        if (i) out += ", ";
      } else {
        out += i ? ",\n" : "\n";
        out.append(indent + 2, ' ');
      }
      if (object) out += json_quote(keys_[i]) + ": ";
      items_[i].write(out, indent + 2);
    }
    if (!flat && !items_.empty()) {
      out += '\n';
      out.append(indent, ' ');
    }
    out += object ? '}' : ']';
  }

  kind kind_ = kind::null;
  std::string text_;                ///< boolean and number: the literal; string: the value
  std::vector<std::string> keys_;   ///< object: the keys, parallel to items_
  std::vector<json_value> items_;   ///< array elements or object member values
};

}  // namespace neuronrw_opt
