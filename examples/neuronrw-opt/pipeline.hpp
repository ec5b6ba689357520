// pipeline.hpp — textual pass pipelines, as mlir-opt reads them:
//
//   --pass-pipeline='builtin.module(schedule-fusion{budget=64 kind=MyOverlap},fusion-to-composite)'
//   --schedule-fusion='budget=64 kind=MyOverlap'       (the same options on a pass flag)
//
// A pipeline is its anchor (`builtin.module` on MLIR input, `host.program` on host programs)
// wrapping a comma-separated list of passes, each optionally followed by `{k=v k2=v2}`;
// whitespace may surround every token. Option values are bare words, or quoted with "...", '...'
// or {...} when they hold spaces (the quotes are dropped). Inside `{}` options are separated by
// whitespace, as in MLIR; on a pass flag a comma separates them too (`--schedule-fusion=budget=64,
// kind=X`), which mlir-opt does not accept. A bool option given alone (`{remarks}`) is true.
// Options are typed: an unsigned integer in decimal, `true`/`false` (also `1`/`0`, `TRUE`,
// `True`, ... as LLVM accepts), or a string; some strings must be op names or non-empty (the
// pass's options schema says which and words the problems, neuronrw/passes/options.hpp).
//
// Every error names the pass and option concerned and the 1-based column in the text it read, so
// the driver can print the text with a caret under that column (located_error).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pass_registry.hpp"
#include "registry.hpp"

namespace neuronrw_opt {

/// An error at 1-based column `col` of the text that was parsed.
struct located_error {
  std::size_t col = 1;
  std::string message;
};

namespace pipeline_detail {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-';
}

/// The canonical text of `raw` for an option of type `t`, or the reason it is not one (the
/// options schema's check, neuronrw/passes/options.hpp).
inline std::optional<std::string> canonical_value(option_type t, std::string_view raw, std::string& why) {
  return neuronrw::canonical_option_text(t, raw, why);
}

}  // namespace pipeline_detail

/// Whether `v` can be written as an option value: bare, in "...", in '...' or in {...} (whose
/// braces must balance, as the reader counts them). A value holding both quote kinds and
/// unbalanced braces has no such form; the reader refuses it, so what it accepts prints back.
inline bool braces_balance(std::string_view v) {
  std::size_t depth = 0;
  for (char c : v) {
    if (c == '{') ++depth;
    else if (c == '}' && depth-- == 0) return false;
  }
  return depth == 0;
}

/// Parses the options `text` of `inst` (the inside of `{...}`, or what follows `--pass=`).
/// `base_col` is the column of text[0] in the text shown to the user; `commas` accepts commas as
/// separators too. With `end`, `text` is what follows a pipeline's `{`: the options end at the
/// first `}` where an option could start or a bare value ends, and `*end` is its index (quotes
/// and braces are read only where a value starts, exactly as they are read without `end`).
inline std::optional<located_error> parse_options(std::string_view text, std::size_t base_col, bool commas,
                                                  pass_instance& inst, std::size_t* end = nullptr) {
  using namespace pipeline_detail;
  const std::string pass(inst.spec->name);
  const bool in_braces = end != nullptr;
  auto sep = [&](char c) { return is_space(c) || (commas && c == ','); };
  auto stop = [&](char c) { return sep(c) || (in_braces && c == '}'); };
  std::size_t i = 0;
  std::vector<std::size_t> value_cols(inst.spec->options.size(), 0);  // where each option given here was
  while (true) {
    while (i < text.size() && sep(text[i])) ++i;
    if (in_braces && i >= text.size())
      return located_error{base_col - 1, "unterminated '{' of the options of pass '" + pass + "'"};
    if (i >= text.size() || (in_braces && text[i] == '}')) {
      if (end) *end = i;
      // The rules between options (a run-time pattern's boundary must hold its producer...).
      if (inst.spec->check_options)
        if (auto problem = inst.spec->check_options(inst)) {
          const std::size_t k = inst.index_of(problem->option);
          const std::size_t col = k < value_cols.size() && value_cols[k] != 0 ? value_cols[k] : base_col;
          return located_error{col, "option '" + std::string(problem->option) + "' of pass '" + pass + "' " +
                                        problem->message};
        }
      return std::nullopt;
    }
    const std::size_t key_at = i;
    while (i < text.size() && !stop(text[i]) && text[i] != '=') ++i;
    const std::string_view key = text.substr(key_at, i - key_at);
    if (key.empty()) return located_error{base_col + key_at, "expected an option name, found '='"};
    const option_spec* spec = nullptr;
    std::size_t index = 0;
    for (std::size_t k = 0; k < inst.spec->options.size(); ++k) {
      const auto& o = inst.spec->options[k];
      if (o.name == key || (!o.alias.empty() && o.alias == key)) spec = &o, index = k;
    }
    if (!spec) return located_error{base_col + key_at, neuronrw::unknown_option_message(pass, key, inst.spec->options)};
    const std::string what = "option '" + std::string(key) + "' of pass '" + pass + "'";
    std::string raw;
    std::size_t value_at = i;
    if (i < text.size() && text[i] == '=') {
      value_at = ++i;
      if (i < text.size() && (text[i] == '"' || text[i] == '\'')) {
        const char q = text[i];
        const std::size_t close = text.find(q, i + 1);
        if (close == std::string_view::npos)
          return located_error{base_col + i, "unterminated " + std::string(1, q) + " in the value of " + what};
        raw = std::string(text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else if (i < text.size() && text[i] == '{') {
        std::size_t depth = 0, j = i;
        for (; j < text.size(); ++j) {
          if (text[j] == '{') ++depth;
          else if (text[j] == '}' && --depth == 0) break;
        }
        if (j >= text.size()) return located_error{base_col + i, "unterminated '{' in the value of " + what};
        raw = std::string(text.substr(i + 1, j - i - 1));
        i = j + 1;
      } else {
        while (i < text.size() && !stop(text[i])) ++i;
        raw = std::string(text.substr(value_at, i - value_at));
      }
      if (i < text.size() && !stop(text[i])) {
        // In a pipeline with no '}' left to close the options, that is the error to report.
        if (in_braces && text.find('}', i) == std::string_view::npos)
          return located_error{base_col - 1, "unterminated '{' of the options of pass '" + pass + "'"};
        return located_error{base_col + i, "expected a space after the value of " + what};
      }
    } else if (spec->type == option_type::boolean) {
      raw = "true";
    } else {
      return located_error{base_col + key_at, what + " needs a value: " + std::string(key) + "=" +
                                                   std::string(type_text(spec->type).substr(1))};
    }
    std::string value;
    if (auto problem = neuronrw::check_option_value(*spec, raw, value))
      return located_error{base_col + value_at, what + " " + *problem};
    // What is accepted must print back (quote_value): a value in none of the four forms cannot.
    if (value.find('"') != std::string::npos && value.find('\'') != std::string::npos && !braces_balance(value))
      return located_error{base_col + value_at,
                           what + " holds both quote kinds and unbalanced braces: no pipeline can write it back"};
    inst.values[index] = std::move(value);
    inst.explicitly_set[index] = true;
    value_cols[index] = base_col + value_at;
  }
}

/// A pass as named on the command line or in a pipeline, with dry-run names' preset applied.
inline pass_instance make_instance(const pass_name& n) {
  pass_instance inst(*n.spec);
  if (n.dry_run) inst.values[inst.index_of("dry-run")] = "true";
  return inst;
}

struct pipeline {
  input_kind kind = input_kind::mlir;
  std::vector<pass_instance> passes;
};

/// Parses `--pass-pipeline`'s text; its passes are `reg`'s.
inline std::optional<located_error> parse_pipeline(std::string_view text, pipeline& out,
                                                   const pass_registry& reg = default_registry()) {
  using namespace pipeline_detail;
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
  };
  auto name = [&] {
    const std::size_t b = i;
    // Bytes of UTF-8 sequences too, so a message quotes a misspelt name whole ('schédule-fusion').
    while (i < text.size() && (is_name_char(text[i]) || static_cast<unsigned char>(text[i]) >= 0x80)) ++i;
    return text.substr(b, i - b);
  };
  skip();
  const std::size_t anchor_at = i;
  const std::string_view anchor = name();
  skip();
  if (anchor.empty() || i >= text.size() || text[i] != '(') {
    std::string msg = "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'";
    if (reg.find(anchor)) msg += " ('" + std::string(anchor) + "' is a pass: write 'builtin.module(" + std::string(anchor) + ",...)' or 'host.program(...)')";
    return located_error{anchor_at + 1, msg};
  }
  if (anchor == "builtin.module") out.kind = input_kind::mlir;
  else if (anchor == "host.program") out.kind = input_kind::host;
  else
    return located_error{anchor_at + 1, "'" + std::string(anchor) +
                                            "' is not an anchor of neuronrw-opt: pipelines run on 'builtin.module' "
                                            "(MLIR input) or 'host.program' (host programs)"};
  const std::size_t open_at = i++;
  skip();
  if (i < text.size() && text[i] == ')') {
    ++i;
  } else {
    while (true) {
      skip();
      const std::size_t at = i;
      const std::string_view n = name();
      if (n.empty()) {
        if (i >= text.size())
          return located_error{i + 1, "expected a pass name and ')' to close '" + std::string(anchor) + "(' at column " +
                                          std::to_string(open_at + 1)};
        return located_error{i + 1, "expected a pass name, found '" + std::string(1, text[i]) + "'"};
      }
      skip();
      if (i < text.size() && text[i] == '(')
        return located_error{at + 1, "nested pipeline '" + std::string(n) + "(...)': neuronrw-opt's passes run on the whole " +
                                         (out.kind == input_kind::mlir ? "module" : "program") + ", directly in '" +
                                         std::string(anchor) + "(...)'"};
      const pass_name* pn = reg.find(n);
      if (!pn) return located_error{at + 1, "'" + std::string(n) + "' does not refer to a registered pass (see --list-passes)"};
      const pass_spec& spec = *pn->spec;
      if (spec.kind != out.kind)
        return located_error{at + 1, "pass '" + std::string(n) + "' runs on " + std::string(describe(spec.kind)) +
                                         ", not in '" + std::string(anchor) + "(...)' (use '" +
                                         std::string(anchor_of(spec.kind)) + "(...)')"};
      pass_instance inst = make_instance(*pn);
      if (i < text.size() && text[i] == '{') {
        std::size_t close = 0;
        if (auto e = parse_options(text.substr(i + 1), i + 2, false, inst, &close)) return e;
        i += 1 + close + 1;
        skip();
      }
      out.passes.push_back(std::move(inst));
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      if (i < text.size() && text[i] == ')') {
        ++i;
        break;
      }
      if (i >= text.size())
        return located_error{i + 1, "expected ')' to close '" + std::string(anchor) + "(' at column " + std::to_string(open_at + 1)};
      return located_error{i + 1, "expected ',' or ')' after pass '" + std::string(n) + "', found '" + std::string(1, text[i]) + "'"};
    }
  }
  skip();
  if (i < text.size()) return located_error{i + 1, "unexpected text after the pipeline: '" + std::string(text.substr(i)) + "'"};
  return std::nullopt;
}

/// An option value as the pipeline syntax reads it back: bare when it can be, else in "...", in
/// '...' or in {...}, the first of them that holds it (parse_options refuses a value none holds).
inline std::string quote_value(const std::string& v) {
  bool bare = !v.empty();
  for (char c : v)
    if (pipeline_detail::is_space(c) || c == '{' || c == '}' || c == ',' || c == '"' || c == '\'' || c == '(' || c == ')')
      bare = false;
  if (bare) return v;
  if (v.find('"') == std::string::npos) return "\"" + v + "\"";
  if (v.find('\'') == std::string::npos) return "'" + v + "'";
  return "{" + v + "}";
}

/// `name{opt=value ...}` with every option, sorted by name as mlir-opt prints them; one not given
/// prints as its default, or as what the others imply when that differs (pass_spec::implied_text).
inline std::string print_pass(const pass_instance& p) {
  std::vector<std::pair<std::string_view, std::string>> opts;
  for (std::size_t i = 0; i < p.spec->options.size(); ++i) {
    // An option not given stands for its default, or for what the others imply (a boundary).
    std::string implied = !p.explicitly_set[i] && p.spec->implied_text ? p.spec->implied_text(p, p.spec->options[i].name)
                                                                        : std::string();
    opts.emplace_back(p.spec->options[i].name, quote_value(implied.empty() ? p.values[i] : implied));
  }
  std::sort(opts.begin(), opts.end());
  std::string s(p.spec->name);
  if (opts.empty()) return s;
  s += '{';
  for (std::size_t i = 0; i < opts.size(); ++i) s += (i ? " " : "") + std::string(opts[i].first) + "=" + opts[i].second;
  return s + '}';
}

/// What `--dump-pass-pipeline` prints (mlir-opt's layout).
inline std::string dump_pipeline(const pipeline& p) {
  std::string s = "Pass Manager with " + std::to_string(p.passes.size()) + " passes:\n" + std::string(anchor_of(p.kind)) + "(\n";
  for (std::size_t i = 0; i < p.passes.size(); ++i)
    s += "  " + print_pass(p.passes[i]) + (i + 1 < p.passes.size() ? ",\n" : "\n");
  if (p.passes.empty()) s += "\n";
  return s + ")\n\n";
}

}  // namespace neuronrw_opt
