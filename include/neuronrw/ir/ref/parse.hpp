// neuronrw/ir/ref/parse.hpp — the text parser of the reference IR: the MLIR subset of
// docs/reference-ir.md (the func dialect's pretty forms, generic ops of any dialect, any number
// of regions with one block each per op, and the custom forms of the ops of the syntax table:
// StableHLO, MHLO, Shardy, docs/stablehlo.md) read into a `ref::module`. Whatever `mlir-opt
// --allow-unregistered-dialect` prints for such a module parses, and whatever JAX and XLA print;
// bad input gives one located diagnostic and no module.
//
// Layers: syntax/lexer.hpp (characters), syntax/values.hpp (types, attributes, SSA uses),
// syntax/op_reader.hpp (the op-syntax interpreter), and this file, the module reader.
//
// Customization points: none. The accepted format is described in docs/reference-ir.md.
//
// Design: a single-pass recursive-descent parser over the characters. Types and attribute values
// are opaque balanced text (brackets, `->` and string literals are tracked, nothing else), so the
// parser needs no type system and printing the text back is a fixed point. Every scan is linear,
// nothing is re-read except the few inherent attributes of a generic `func.func`, and nesting
// (regions and brackets) is capped so hostile input cannot exhaust the stack. The first error
// stops the parse: `fail` records it and returns false, every reading step returns `bool` and
// passes a failure on (NEURONRW_TRY, neuronrw/detail/try.hpp), and `run` turns the recorded
// error into the diagnostic. No exceptions: the parser builds and behaves the same with
// -fno-exceptions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/syntax/lexer.hpp>
#include <neuronrw/ir/ref/syntax/op_reader.hpp>
#include <neuronrw/ir/ref/syntax/op_syntax.hpp>
#include <neuronrw/ir/ref/syntax/op_table.hpp>
#include <neuronrw/ir/ref/syntax/values.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

/// The module, or the first error (`value` is empty then: no partial output).
struct parse_result {
  std::optional<module> value;
  diagnostic error;
  bool ok() const noexcept { return value.has_value(); }
};

namespace detail {

/// The module reader: the top level, modules, functions, blocks, regions and ops (the generic
/// form, func.*'s pretty forms). One instance parses one text.
class text_parser : public op_syntax_reader {
 public:
  text_parser(std::string_view text, std::string_view file, const parse_options& options)
      : op_syntax_reader(text, file, options) {
    m_.source_name = std::string(file);
  }

  parse_result run() {
    if (!parse_top() || failed())
      return parse_result{std::nullopt, diagnostic{std::string(file_), loc_of(error_at_), std::move(error_)}};
    m_.custom_forms = read_custom_form_;
    m_.shrink_to_fit();  // a parsed module grows no more than a pass adds: no doubling slack
    return parse_result{std::optional<module>(std::move(m_)), diagnostic{}};
  }

 private:
  // ------------------------------------------------------------------ records
  struct block_context {
    block_ref block;
    bool function_body = false;  // bare `return` / `call` allowed
    bool top_level = false;      // `func.func` allowed
  };
  // A name in scope: `count` consecutive values starting at id `first` (a result group or one
  // block argument).
  struct value_entry {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  // A use of a name not defined yet (forward reference inside one isolated scope).
  struct pending_use {
    op_ref op;
    std::uint32_t operand = 0;
    std::uint32_t index = 0;
    std::size_t at = 0;
    type_ref type;
    std::string spelled;
  };
  // Names of one isolated-from-above scope (the module top level, or one function). Names
  // defined in a nested region leave the scope when the region closes, as in MLIR.
  struct name_scope {
    std::unordered_map<std::string, value_entry> values;
    std::unordered_map<std::string, std::vector<pending_use>> pending;
    std::vector<std::vector<std::string>> regions;
  };

  name_scope& scope() { return scopes_.back(); }
  void push_isolated_scope() {
    scopes_.emplace_back();
    scopes_.back().regions.emplace_back();
  }
  /// Closes an isolated scope; a name still pending was never defined.
  [[nodiscard]] bool pop_isolated_scope() {
    auto& s = scope();
    const pending_use* first = nullptr;
    for (auto& [name, uses] : s.pending)
      for (auto& u : uses)
        if (first == nullptr || u.at < first->at) first = &u;
    if (first != nullptr) {
      auto name = first->spelled.substr(0, first->spelled.find('#'));
      return fail(first->at, "use of undeclared SSA value name '" + name + "'");
    }
    scopes_.pop_back();
    return true;
  }
  void open_region_scope() { scope().regions.emplace_back(); }
  void close_region_scope() {
    auto& s = scope();
    for (auto& n : s.regions.back()) s.values.erase(n);
    s.regions.pop_back();
  }
  [[nodiscard]] bool enter_region(std::size_t at) {
    if (++region_depth_ > opt_.max_nesting)
      return fail(at, "regions are nested too deeply (limit " + std::to_string(opt_.max_nesting) + ")");
    return true;
  }
  void leave_region() noexcept { --region_depth_; }

  [[nodiscard]] bool bind_use(const pending_use& u, value_entry e) {
    if (u.index >= e.count) return fail(u.at, "reference to invalid result number");
    const value_ref v{e.first + u.index};
    if (m_.type(v) != u.type)
      return fail(u.at, "use of value '" + u.spelled + "' expects different type than prior uses: '" +
                     std::string(m_.type_text(u.type)) + "' vs '" +
                     std::string(m_.type_text(m_.type(v))) + "'");
    m_.set_operand(u.op, u.operand, v);
    return true;
  }
  [[nodiscard]] bool define_value(const std::string& name, value_entry e, std::size_t at) {
    auto& s = scope();
    if (!s.values.emplace(name, e).second) return fail(at, "redefinition of SSA value '%" + name + "'");
    s.regions.back().push_back(name);
    if (auto it = s.pending.find(name); it != s.pending.end()) {
      auto uses = std::move(it->second);
      s.pending.erase(it);
      for (auto& u : uses) NEURONRW_TRY(bind_use(u, e));
    }
    return true;
  }
  [[nodiscard]] bool resolve_operands(op_ref op, const std::vector<ssa_use>& uses,
                        const std::vector<type_ref>& types) {
    for (std::size_t i = 0; i < uses.size(); ++i) {
      const auto& u = uses[i];
      pending_use p{op, static_cast<std::uint32_t>(i), u.index, u.at, types[i], u.spelled};
      auto& s = scope();
      if (auto it = s.values.find(u.name); it != s.values.end())
        NEURONRW_TRY(bind_use(p, it->second));
      else
        s.pending[u.name].push_back(std::move(p));
    }
    return true;
  }
  [[nodiscard]] bool define_results(op_ref op, const std::vector<result_group>& groups) {
    std::uint32_t offset = 0;
    const std::uint32_t first = m_.num_results(op) > 0 ? m_.result(op, 0).id : 0;
    for (auto& g : groups) {
      NEURONRW_TRY(define_value(g.name, value_entry{first + offset, g.count}, g.at));
      offset += g.count;
    }
    if (groups.size() == 1) {
      m_.set_name_hint(op, groups.front().name);
    } else if (groups.size() > 1) {
      std::vector<result_group_hint> hints;
      hints.reserve(groups.size());
      for (const auto& g : groups) hints.push_back(result_group_hint{g.name, g.count});
      m_.set_result_group_hints(op, std::move(hints));
    }
    return true;
  }
  [[nodiscard]] bool check_result_count(std::size_t start, std::size_t defined, std::uint64_t bound) {
    if (bound != 0 && defined != bound)
      return fail(start, "operation defines " + std::to_string(defined) + " results but was provided " +
                      std::to_string(bound) + " to bind");
    return true;
  }
  [[nodiscard]] bool check_operand_count(const function_type& f, std::size_t operands) {
    if (f.inputs.size() != operands)
      return fail(f.at, "expected " + std::to_string(operands) + " operand types but had " +
                     std::to_string(f.inputs.size()));
    return true;
  }

  // ------------------------------------------------------------------ top level
  [[nodiscard]] bool parse_top() {
    push_isolated_scope();
    bool module_done = false, implicit = false;
    for (;;) {
      skip_ws();
      if (eof()) break;
      const char c = peek();
      if (c == '#' || c == '!') {
        const auto before = m_.alias_definitions.size();
        NEURONRW_TRY(parse_alias());
        if (module_done) m_.trailing_aliases += m_.alias_definitions.size() - before;
        continue;
      }
      if (src_.substr(pos_, 3) == "{-#") {
        NEURONRW_TRY(parse_file_metadata());
        continue;
      }
      if (module_done) return fail(pos_, "unexpected " + describe_here() + " after the module");
      if (!implicit && (at_word("module") || at_word("builtin.module"))) {
        NEURONRW_TRY(parse_module_pretty());
        module_done = true;
        continue;
      }
      if (!implicit && src_.substr(pos_, 16) == "\"builtin.module\"") {
        NEURONRW_TRY(parse_module_generic());
        module_done = true;
        continue;
      }
      if (c == '}') return fail(pos_, "unexpected '}' at top level");
      implicit = true;
      NEURONRW_TRY(parse_operation(block_context{m_.body(), false, true}));
    }
    return pop_isolated_scope();
  }

  /// `{-# entries #-}`: the file metadata dictionary (resource blobs), kept verbatim.
  [[nodiscard]] bool parse_file_metadata() {
    const std::size_t start = pos_;
    if (!m_.file_metadata.empty())
      return fail(start, "a second file metadata dictionary ('{-# ... #-}') is not supported by the reference IR");
    pos_ += 3;
    const std::size_t b = pos_;
    // Balanced like any attribute text, up to the '#' of the closing `#-}`.
    NEURONRW_TRY(scan_balanced("#", false));
    if (src_.substr(pos_, 3) != "#-}") return fail(start, "expected '#-}' to end the file metadata dictionary");
    m_.file_metadata = clean(b, pos_);
    pos_ += 3;
    return true;
  }

  /// `#name = attribute` or `!name = type`, up to the end of its line (or of its brackets).
  [[nodiscard]] bool parse_alias() {
    const char sigil = peek();
    ++pos_;
    if (!mlir_is_bare_id_start(peek())) return fail(pos_, "expected alias name");
    const auto name = lex_bare_id();
    skip_blanks();
    if (peek() != '=') return fail(pos_, "expected '=' in alias definition");
    ++pos_;
    skip_blanks();
    const std::size_t b = pos_;
    NEURONRW_TRY(scan_balanced("\n\r", false));
    auto value = clean(b, pos_);
    if (value.empty()) return fail(b, "expected a value in alias definition");
    if (!opt_.keep_locations && sigil == '#' && value.starts_with("loc(")) return true;
    std::string def(1, sigil);
    def += name;
    def += " = ";
    def += value;
    m_.alias_definitions.push_back(std::move(def));
    return true;
  }

  /// `[builtin.]module [@name] [attributes {...}] { ... } [loc]`.
  [[nodiscard]] bool parse_module_pretty() {
    pos_ += at_word("module") ? 6 : 14;
    skip_ws();
    if (peek() == '@') {
      ++pos_;
      NEURONRW_TRY(parse_symbol_name(m_.sym_name));
      skip_ws();
    }
    if (at_word("attributes")) {
      pos_ += 10;
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected '{' after 'attributes'");
      std::vector<dict_entry> es;
      NEURONRW_TRY(parse_dict(es));
      NEURONRW_TRY(set_module_attributes(std::move(es)));
      skip_ws();
    }
    if (peek() != '{' || eof()) return fail(pos_, "expected '{' to begin the module body");
    const std::size_t open = pos_;
    ++pos_;
    NEURONRW_TRY(parse_block_body(block_context{m_.body(), false, true}, open));
    NEURONRW_TRY(parse_optional_loc(m_.module_loc_text));
    return true;
  }

  /// The module's attribute dictionary `es` (its text is [b, e)): a
  /// `sym_name` in it names the module, as in MLIR, where it is the op's inherent attribute
  /// (`module @m attributes {sym_name = "n"}` is module @n); `sym_visibility` stays an entry,
  /// which is where mlir-opt prints it. The text is rebuilt from the entries (`k = v` joined by
  /// `, `), as mlir-opt prints a dictionary, so the spacing between entries never depends on
  /// the form (pretty or generic, with or without properties) the module was read in.
  [[nodiscard]] bool set_module_attributes(std::vector<dict_entry> es) {
    for (auto it = es.begin(); it != es.end(); ++it)
      if (it->name == "sym_name") {
        NEURONRW_TRY(symbol_from_string(*it, m_.sym_name));
        es.erase(it);
        break;
      }
    for (const auto& x : es)
      if (x.name == "sym_visibility" && !x.value.starts_with('#')) {
        std::string value;
        NEURONRW_TRY(string_value(x, value));  // a string, as MLIR requires
      }
    m_.attributes_text = dict_text_of(es);
    return true;
  }

  [[nodiscard]] bool parse_module_generic() {
    const std::size_t start = pos_;
    pos_ += 16;
    NEURONRW_TRY(expect('(', "expected '(' to start the operand list"));
    NEURONRW_TRY(expect(')', "'builtin.module' takes no operands"));
    skip_ws();
    std::vector<dict_entry> props;
    if (peek() == '<') {
      ++pos_;
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected '{' to begin the properties of 'builtin.module'");
      NEURONRW_TRY(parse_dict(props));
      NEURONRW_TRY(expect('>', "expected '>' to close the properties"));
    }
    NEURONRW_TRY(expect('(', "expected '(' before the region of 'builtin.module'"));
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    const std::size_t open = pos_;
    ++pos_;
    skip_ws();
    if (peek() == '^') {
      ++pos_;
      std::string_view block_name;
      NEURONRW_TRY(lex_suffix_id("expected block name", block_name));
      skip_ws();
      if (peek() != ':') return fail(pos_, "expected ':' after block name");
      ++pos_;
    } else if (peek() == '}') {
      return fail(start, "'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks");
    }
    NEURONRW_TRY(parse_block_body(block_context{m_.body(), false, true}, open));
    skip_ws();
    if (peek() == ',') {
      ++pos_;
      skip_ws();
      return fail(pos_, "the reference IR supports at most one region per op");
    }
    NEURONRW_TRY(expect(')', "expected ')' after the region"));
    skip_ws();
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      NEURONRW_TRY(parse_dict(attrs));
      skip_ws();
    }
    auto es = merge_inherent(std::move(props), std::move(attrs), {"sym_name", "sym_visibility"});
    NEURONRW_TRY(set_module_attributes(std::move(es)));
    if (peek() != ':') return fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    if (!f.inputs.empty() || !f.results.empty())
      return fail(f.at, "expected '() -> ()' as the type of 'builtin.module'");
    NEURONRW_TRY(parse_optional_loc(m_.module_loc_text));
    return true;
  }

  /// The ops of a block up to and including its closing '}'; the cursor is past the '{'.
  [[nodiscard]] bool parse_block_body(const block_context& ctx, std::size_t open_at) {
    for (;;) {
      skip_ws();
      if (eof()) return fail(pos_, "missing '}' to close the '{' at " + where(open_at));
      const char c = peek();
      if (c == '}') {
        ++pos_;
        return true;
      }
      if (c == '^') return fail(pos_, "the reference IR supports at most one block per region");
      NEURONRW_TRY(parse_operation(ctx));
    }
    return true;
  }

  /// `^name[(%a: T [loc], ...)]:` — defines the arguments in the current region scope.
  [[nodiscard]] bool parse_block_header(block_ref b, std::vector<std::size_t>* arg_positions) {
    ++pos_;
    std::string_view block_name;
    NEURONRW_TRY(lex_suffix_id("expected block name", block_name));
    skip_ws();
    if (peek() == '(') {
      ++pos_;
      skip_ws();
      if (peek() != ')') {
        for (;;) {
          skip_ws();
          if (peek() != '%') return fail(pos_, "expected SSA identifier");
          const std::size_t at = pos_;
          ++pos_;
          std::string_view spelled;
          NEURONRW_TRY(lex_suffix_id("expected SSA value name after '%'", spelled));
          std::string name(spelled);
          NEURONRW_TRY(expect(':', "expected ':' and type for SSA operand"));
          type_ref t;
          NEURONRW_TRY(parse_type(t));
          std::string loc;
          NEURONRW_TRY(parse_optional_loc(loc));
          auto v = m_.add_block_argument(b, t, name);
          if (!loc.empty()) m_.set_arg_loc_text(v, std::move(loc));
          if (arg_positions != nullptr) arg_positions->push_back(at);
          NEURONRW_TRY(define_value(name, value_entry{v.id, 1}, at));
          skip_ws();
          if (peek() == ',') {
            ++pos_;
            continue;
          }
          if (peek() == ')') break;
          return fail(pos_, "expected ',' or ')' in block argument list");
        }
      }
      ++pos_;
      skip_ws();
    }
    if (peek() != ':' || eof()) return fail(pos_, "expected ':' after block name");
    ++pos_;
    return true;
  }

  // ------------------------------------------------------------------ operations
  [[nodiscard]] bool parse_operation(const block_context& ctx) {
    const std::size_t start = pos_;
    std::vector<result_group> groups;
    std::uint64_t bound = 0;
    if (peek() == '%') {
      for (;;) {
        result_group g;
        g.at = pos_;
        ++pos_;
        std::string_view spelled;
        NEURONRW_TRY(lex_suffix_id("expected SSA value name after '%'", spelled));
        g.name = std::string(spelled);
        skip_ws();
        if (peek() == ':') {
          ++pos_;
          skip_ws();
          const std::size_t at = pos_;
          NEURONRW_TRY(lex_number("expected result count after ':'", g.count));
          if (g.count == 0) return fail(at, "expected named operation to have at least 1 result");
          skip_ws();
        }
        bound += g.count;
        groups.push_back(std::move(g));
        if (peek() == ',') {
          ++pos_;
          skip_ws();
          if (peek() != '%') return fail(pos_, "expected SSA value name");
          continue;
        }
        break;
      }
      if (peek() != '=') return fail(pos_, "expected '=' after the result names");
      ++pos_;
      skip_ws();
      // Each result needs a type further on, so this bounds the work by the input size.
      if (bound > src_.size() - pos_) return fail(start, "more results than the rest of the input can type");
    }
    const std::size_t name_at = pos_;
    if (peek() == '"') {
      return parse_generic_operation(ctx, start, groups, bound);
    }
    if (mlir_is_bare_id_start(peek())) {
      const auto id = lex_bare_id();
      if (id == "func.func") {
        if (!ctx.top_level) return fail(name_at, "'func.func' is only supported at module level");
        if (!groups.empty()) return fail(start, "cannot name an operation with no results");
        return parse_function(start);
      }
      if (id == "func.return" || (id == "return" && ctx.function_body)) {
        if (!groups.empty()) return fail(start, "cannot name an operation with no results");
        return parse_return(ctx, start);
      }
      if (id == "func.call" || (id == "call" && ctx.function_body)) {
        return parse_call(ctx, start, groups, bound);
      }
      if (const auto* syntax = find_op_syntax(id)) {
        return parse_custom_operation(ctx, start, groups, bound, *syntax, name_at);
      }
      if (id == "return" || id == "call")
        return fail(name_at, "'" + std::string(id) + "' needs the 'func.' prefix outside a function body");
      if (id == "module" || id == "builtin.module")
        return fail(name_at, "nested modules are not supported by the reference IR");
      return fail(name_at, "custom op '" + std::string(id) +
                        "' is not supported by the reference IR (write it in the generic form)");
    }
    return fail(pos_, "expected operation name in quotes");
  }

  /// The op being read in its custom form (custom ops nest through their regions).
  struct custom_op_state {
    const block_context* ctx = nullptr;
    const op_syntax* syntax = nullptr;
    std::size_t start = 0;
    std::uint64_t bound = 0;
    op_ref op;
  };

  /// `[%r = ] D.OP <custom form> [loc]`: read by the op-syntax interpreter, stored as the
  /// generic op (inherent attributes in generic spelling), printed back in the custom form.
  [[nodiscard]] bool parse_custom_operation(const block_context& ctx, std::size_t start, const std::vector<result_group>& groups,
                              std::uint64_t bound, const op_syntax& s, std::size_t name_at) {
    custom_op_state st{&ctx, &s, start, bound, op_ref{}};
    auto* saved = custom_;
    custom_ = &st;
    custom_parts p;
    NEURONRW_TRY(read_custom(s, p, name_at, start));
    custom_ = saved;
    infer_matching_types(s, p);
    std::vector<ssa_use> uses;
    std::vector<type_ref> types;
    for (std::size_t i = 0; i < p.operands.size(); ++i) {
      if (!p.operand_types_set[i] && !p.operands[i].empty())
        return fail(name_at, "'" + s.name + "': the custom form gave no type for operand '" + s.operands[i].name + "'");
      if (p.operand_types_set[i] && p.operand_types[i].size() != p.operands[i].size())
        return fail(name_at, "'" + s.name + "': " + std::to_string(p.operands[i].size()) + " '" + s.operands[i].name +
                          "' operands but " + std::to_string(p.operand_types[i].size()) + " types");
      for (std::size_t k = 0; k < p.operands[i].size(); ++k) {
        uses.push_back(std::move(p.operands[i][k]));
        types.push_back(p.operand_types[i][k]);
      }
    }
    std::vector<type_ref> results;
    for (std::size_t i = 0; i < p.result_types.size(); ++i) {
      if (!p.result_types_set[i] && !s.results[i].variadic && !s.results[i].optional)
        return fail(name_at, "'" + s.name + "': the custom form gave no type for result '" + s.results[i].name + "'");
      for (auto t : p.result_types[i]) results.push_back(t);
    }
    NEURONRW_TRY(check_result_count(start, results.size(), bound));
    // Attributes: the dictionary's entries as written, then the inherent ones the format bound.
    std::vector<attribute> as;
    as.reserve(p.dictionary.size() + p.inherent.size());
    for (auto& d : p.dictionary) {
      for (const auto& x : p.inherent)
        if (x && x->name == d.name) return fail(d.name_at, "'" + s.name + "': attribute '" + d.name + "' is given twice");
      as.push_back(attribute{std::move(d.name), std::move(d.value)});
    }
    for (auto& x : p.inherent)
      if (x) as.push_back(attribute{std::move(x->name), std::move(x->value)});
    op_ref op = st.op;
    const std::vector<value_ref> none(uses.size());
    if (!op.valid()) {
      op = m_.create_op(s.name, none, results, {}, loc_of(start));
      m_.push_back(ctx.block, op);
    } else {
      if (m_.num_operands(op) != uses.size())
        return fail(name_at, "'" + s.name + "': operands after a region are not supported by the reference IR");
      if (m_.num_results(op) != results.size()) {
        op = rebuild_with_results(op, results);
      } else {
        for (std::size_t i = 0; i < results.size(); ++i) m_.set_type(m_.result(op, i), results[i]);
      }
    }
    m_.set_attributes(op, std::move(as));
    m_.set_syntax_form(op, syntax_bits(syntax_form::custom, p.alternative));
    read_custom_form_ = true;
    NEURONRW_TRY(resolve_operands(op, uses, types));
    NEURONRW_TRY(define_results(op, groups));
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  /// The one operand group and the one result group whose types the format does not spell
  /// take each other's types (op_syntax::operand_typed).
  static void infer_matching_types(const op_syntax& s, custom_parts& p) {
    std::size_t untyped_operand = s.operands.size(), untyped_result = s.results.size();
    for (std::size_t i = 0; i < s.operands.size(); ++i)
      if (!p.operand_types_set[i]) untyped_operand = i;
    for (std::size_t i = 0; i < s.results.size(); ++i)
      if (!p.result_types_set[i]) untyped_result = i;
    if (untyped_operand < s.operands.size() && !s.operand_typed[untyped_operand]) {
      for (std::size_t i = 0; i < s.results.size(); ++i)
        if (p.result_types_set[i] && p.result_types[i].size() == p.operands[untyped_operand].size()) {
          p.operand_types[untyped_operand] = p.result_types[i];
          p.operand_types_set[untyped_operand] = true;
          break;
        }
    }
    if (untyped_result < s.results.size() && !s.result_typed[untyped_result]) {
      for (std::size_t i = 0; i < s.operands.size(); ++i)
        if (p.operand_types_set[i] && p.operand_types[i].size() == 1 && !p.operands[i].empty()) {
          p.result_types[untyped_result] = p.operand_types[i];
          p.result_types_set[untyped_result] = true;
          break;
        }
    }
  }

  /// The op of the custom form being read, created at its first region (a region needs its
  /// parent): operands so far, `bound` results typed later.
  op_ref custom_op_now(const custom_parts& p) {
    auto& st = *custom_;
    if (st.op.valid()) return st.op;
    std::size_t n = 0;
    for (const auto& g : p.operands) n += g.size();
    if (placeholder_type_ == type_ref{}) placeholder_type_ = m_.intern_type("");
    const std::vector<type_ref> unknown(static_cast<std::size_t>(st.bound), placeholder_type_);
    const std::vector<value_ref> none(n);
    st.op = m_.create_op(st.syntax->name, none, unknown, {}, loc_of(st.start));
    m_.push_back(st.ctx->block, st.op);
    return st.op;
  }

  [[nodiscard]] bool read_custom_region(custom_parts& p, std::span<const region_arg> args) override {
    const auto op = custom_op_now(p);
    if (args.empty()) {
      return parse_op_region(op);
    }
    // Entry-block arguments declared outside the region (`%iterArg = ...`, `reducer(...)`).
    const std::size_t open = pos_;
    NEURONRW_TRY(enter_region(open));
    ++pos_;
    const auto b = m_.add_region(op);
    open_region_scope();
    for (const auto& a : args) {
      auto v = m_.add_block_argument(b, a.type, a.name);
      if (!a.loc.empty() && opt_.keep_locations) m_.set_arg_loc_text(v, a.loc);
      NEURONRW_TRY(define_value(a.name, value_entry{v.id, 1}, a.at));
    }
    skip_ws();
    if (peek() == '^') return fail(pos_, "this region's arguments were declared before it: it takes no block header");
    NEURONRW_TRY(parse_block_body(block_context{b, false, false}, open));
    close_region_scope();
    leave_region();
    ++p.regions_read;
    return true;
  }

  [[nodiscard]] bool build_reducer_region(custom_parts& p, std::string_view inner_op, type_ref scalar, std::size_t at) override {
    const auto op = custom_op_now(p);
    const type_ref ts[] = {scalar, scalar};
    const auto b = m_.add_region(op, ts);
    const auto args = m_.arguments(b);
    const value_ref ins[] = {args[0], args[1]};
    const auto inner = m_.create_op(inner_op, ins, std::span<const type_ref>(ts, 1), {}, loc_of(at));
    m_.set_syntax_form(inner, syntax_bits(syntax_form::custom));
    m_.push_back(b, inner);
    const std::string dialect(inner_op.substr(0, inner_op.find('.')));
    const value_ref r[] = {m_.result(inner, 0)};
    const auto ret = m_.create_op(dialect + ".return", r, {}, {}, loc_of(at));
    m_.set_syntax_form(ret, syntax_bits(syntax_form::custom));
    m_.push_back(b, ret);
    ++p.regions_read;
    return true;
  }

  /// Replaces `old` (created before its signature was read, without results) by an op with
  /// `result_types`, moving its region over. The old id stays an erased tombstone.
  op_ref rebuild_with_results(op_ref old, std::span<const type_ref> result_types) {
    const std::vector<value_ref> none(m_.num_operands(old));
    const std::string name(m_.name(old));
    const auto op = m_.create_op(name, none, result_types, {}, m_.loc(old));
    m_.insert_before(op, old);
    const std::vector<block_ref> old_regions(m_.region_blocks(old).begin(), m_.region_blocks(old).end());
    for (const auto ob : old_regions) {
      const auto oargs = m_.arguments(ob);
      std::vector<type_ref> ts;
      for (auto a : oargs) ts.push_back(m_.type(a));
      const auto nb = m_.add_region(op, ts);
      m_.set_explicit_block(nb, m_.explicit_block(ob));
      for (std::size_t i = 0; i < oargs.size(); ++i) {
        const auto na = m_.arguments(nb)[i], oa = m_.arguments(ob)[i];
        m_.set_arg_name_hint(na, m_.arg_name_hint(oa));
        m_.set_arg_loc_text(na, m_.arg_loc_text(oa));
        m_.replace_all_uses(oa, na);
      }
      std::vector<op_ref> inner;
      for (auto o : m_.ops(ob)) inner.push_back(o);
      for (auto o : inner) m_.move_to_end(o, nb);
    }
    m_.erase_op(old);
    return op;
  }

  /// `"name"(operands) [<props>] [({region}, ...)] [{attrs}] : (types) -> results [loc]`.
  [[nodiscard]] bool parse_generic_operation(const block_context& ctx, std::size_t start,
                               const std::vector<result_group>& groups, std::uint64_t bound) {
    const std::size_t name_at = pos_;
    std::size_t name_end = 0;
    NEURONRW_TRY(scan_string(pos_, name_end, "operation name"));
    const std::string name(src_.substr(pos_ + 1, name_end - pos_ - 2));
    // The name is kept as written; MLIR refuses a NUL it decodes to (`\00`) as well.
    for (std::size_t i = 0; i < name.size(); ++i) {
      if (name[i] != '\\') continue;
      if (name[i + 1] == '0' && name[i + 2] == '0') return fail(name_at + 1 + i, "null character not allowed in operation name");
      i += neuronrw::detail::hex_digit_value(name[i + 1]) >= 0 ? 2 : 1;
    }
    pos_ = name_end;
    if (name.empty()) return fail(name_at, "expected a non-empty operation name");
    if (name == "func.func") {
      if (!ctx.top_level) return fail(name_at, "'func.func' is only supported at module level");
      if (!groups.empty()) return fail(start, "cannot name an operation with no results");
      return parse_generic_function(start);
    }
    if (name == "builtin.module") return fail(name_at, "nested modules are not supported by the reference IR");
    const bool is_call = name == "func.call", is_return = name == "func.return";
    if (is_return && !groups.empty()) return fail(start, "cannot name an operation with no results");

    skip_ws();
    if (peek() != '(') return fail(pos_, "expected '(' to start the operand list");
    std::vector<ssa_use> uses;
    NEURONRW_TRY(parse_operand_list(uses));
    skip_ws();
    if (peek() == '[') return fail(pos_, "successors are not supported by the reference IR");
    std::string props;
    std::size_t props_at = 0, props_end = 0;
    if (peek() == '<') {
      props_at = pos_;
      NEURONRW_TRY(scan_balanced({}, true));
      props_end = pos_;
      props = clean(props_at + 1, pos_ - 1);
      if (props.empty()) return fail(props_at, "expected properties between '<' and '>'");
      if (is_return) return fail(props_at, "'func.return' takes no properties");
      skip_ws();
    }
    const std::vector<value_ref> none(uses.size());
    op_ref op;
    if (peek() == '(') {
      if (is_call || is_return) return fail(pos_, "'" + name + "' takes no region");
      // The op must exist before its region is read (the region needs a parent): it gets the
      // bound number of results now, their types once the signature is read.
      if (placeholder_type_ == type_ref{}) placeholder_type_ = m_.intern_type("");
      const std::vector<type_ref> unknown(static_cast<std::size_t>(bound), placeholder_type_);
      op = m_.create_op(name, none, unknown, {}, loc_of(start));
      m_.push_back(ctx.block, op);
      // `({...}, {...})`: each region its own scope; names defined in one are not seen in the next.
      // A missing token is reported where mlir-opt reports it: just after the previous token.
      for (;;) {
        ++pos_;
        const std::size_t after_separator = pos_;
        skip_ws();
        if (peek() != '{' || eof()) return fail(after_separator, "expected '{' to begin a region");
        NEURONRW_TRY(parse_op_region(op));
        const std::size_t after_region = pos_;
        skip_ws();
        if (peek() == ',') continue;
        if (peek() != ')') return fail(after_region, "expected ')' to end region list");
        break;
      }
      ++pos_;
      skip_ws();
    }
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      NEURONRW_TRY(parse_dict(attrs));
      skip_ws();
    }
    if (peek() != ':') return fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    NEURONRW_TRY(check_operand_count(f, uses.size()));
    NEURONRW_TRY(check_result_count(start, f.results.size(), bound));
    if (is_return && !f.results.empty()) return fail(f.at, "'func.return' has no results");
    if (!op.valid()) {
      op = m_.create_op(name, none, f.results, {}, loc_of(start));
      m_.push_back(ctx.block, op);
    } else if (m_.num_results(op) != f.results.size()) {
      // Unnamed results of an op with a region (never printed so by mlir-opt): rebuild it.
      op = rebuild_with_results(op, f.results);
    } else {
      for (std::size_t i = 0; i < f.results.size(); ++i) m_.set_type(m_.result(op, i), f.results[i]);
    }
    if (is_call) {
      std::vector<dict_entry> pes;
      if (!props.empty()) {
        const std::size_t save = pos_;
        pos_ = props_at + 1;
        skip_ws();
        if (peek() != '{') return fail(pos_, "expected a dictionary of properties for 'func.call'");
        NEURONRW_TRY(parse_dict(pes));
        skip_ws();
        if (pos_ + 1 < props_end) return fail(pos_, "unexpected text after the properties of 'func.call'");
        pos_ = save;
      }
      // func.call's inherent attributes (LLVM 22): callee, arg_attrs, res_attrs, no_inline.
      auto rest = merge_inherent(std::move(pes), std::move(attrs), {"callee", "arg_attrs", "res_attrs", "no_inline"});
      std::vector<attribute> as;
      for (auto& e : rest)
        if (e.name == "callee") {
          NEURONRW_TRY(check_flat_symbol_ref_value(e));
          as.push_back(attribute{e.name, e.value});
        }
      if (as.empty()) return fail(name_at, "'func.call' requires a 'callee' symbol reference");
      for (auto& e : rest) {
        if (e.name == "callee") continue;
        if (e.name == "no_inline") NEURONRW_TRY(check_unit_value(e, "func.call"));
        as.push_back(attribute{std::move(e.name), std::move(e.value)});
      }
      m_.set_attributes(op, std::move(as));
    } else {
      // An op of the syntax table with properties that are all its inherent attributes: they
      // join its attributes (as MLIR's getAttrs() lists them) and print back as properties.
      std::vector<dict_entry> pes;
      const op_syntax* syn = props.empty() ? nullptr : find_op_syntax(name);
      if (syn != nullptr) {
        const std::size_t save = pos_;
        pos_ = props_at + 1;
        skip_ws();
        bool ok = peek() == '{';
        if (ok) {
          NEURONRW_TRY(parse_dict(pes));
          skip_ws();
          ok = pos_ + 1 == props_end;
        }
        pos_ = save;
        ok = ok && !pes.empty();  // `<{}>` stays as written, as mlir-opt keeps it
        for (const auto& e : pes) ok = ok && syn->is_inherent(e.name);
        if (!ok) syn = nullptr;
      }
      auto as = to_attributes(std::move(attrs));
      if (syn != nullptr) {
        for (auto& e : pes) {
          for (const auto& a : as)
            if (a.name == e.name) return fail(e.name_at, "'" + name + "': attribute '" + e.name + "' is given as a property and as an attribute");
          as.push_back(attribute{std::move(e.name), std::move(e.value)});
        }
        m_.set_attributes(op, std::move(as));
        m_.set_syntax_form(op, syntax_bits(syntax_form::properties));
      } else {
        m_.set_attributes(op, std::move(as));
        if (!props.empty()) m_.set_properties_text(op, std::move(props));
      }
    }
    NEURONRW_TRY(resolve_operands(op, uses, f.inputs));
    NEURONRW_TRY(define_results(op, groups));
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  /// `{ [^bb(args):] ops }` of an ordinary op, the cursor on '{'.
  [[nodiscard]] bool parse_op_region(op_ref op) {
    const std::size_t open = pos_;
    NEURONRW_TRY(enter_region(open));
    ++pos_;
    const auto b = m_.add_region(op);
    open_region_scope();
    skip_ws();
    if (peek() == '^') {
      NEURONRW_TRY(parse_block_header(b, nullptr));
      m_.set_explicit_block(b, true);  // `({ ^bb0: })` is one empty block, `({ })` none
    }
    NEURONRW_TRY(parse_block_body(block_context{b, false, false}, open));
    close_region_scope();
    leave_region();
    return true;
  }

  /// `return [{attrs}] [%a, ... : T, ...]` (pretty form of func.return).
  [[nodiscard]] bool parse_return(const block_context& ctx, std::size_t start) {
    skip_ws();
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      NEURONRW_TRY(parse_dict(attrs));
      skip_ws();
    }
    std::vector<ssa_use> uses;
    std::vector<type_ref> types;
    if (peek() == '%') {
      for (;;) {
        NEURONRW_TRY(parse_ssa_use(uses.emplace_back()));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          skip_ws();
          if (peek() != '%') return fail(pos_, "expected SSA operand");
          continue;
        }
        break;
      }
      if (peek() != ':') return fail(pos_, "expected ':' and the types of the returned values");
      ++pos_;
      skip_ws();
      const std::size_t types_at = pos_;
      for (;;) {
        NEURONRW_TRY(parse_type(types.emplace_back()));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        break;
      }
      if (types.size() != uses.size())
        return fail(types_at, "expected " + std::to_string(uses.size()) + " types after ':' but had " +
                           std::to_string(types.size()));
    }
    const std::vector<value_ref> none(uses.size());
    const auto op = m_.create_op("func.return", none, {}, to_attributes(std::move(attrs)), loc_of(start));
    m_.push_back(ctx.block, op);
    NEURONRW_TRY(resolve_operands(op, uses, types));
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  /// `call @f(%a, ...) [{attrs}] : (T, ...) -> R` (pretty form of func.call).
  [[nodiscard]] bool parse_call(const block_context& ctx, std::size_t start, const std::vector<result_group>& groups,
                  std::uint64_t bound) {
    skip_ws();
    if (peek() != '@') return fail(pos_, "expected symbol reference to the callee");
    std::string callee;
    NEURONRW_TRY(parse_flat_callee(callee));
    skip_ws();
    if (peek() != '(') return fail(pos_, "expected '(' to start the operand list");
    std::vector<ssa_use> uses;
    NEURONRW_TRY(parse_operand_list(uses));
    skip_ws();
    std::vector<attribute> attrs{attribute{"callee", std::move(callee)}};
    if (peek() == '{') {
      std::vector<dict_entry> es;
      NEURONRW_TRY(parse_dict(es));
      for (auto& e : es) {
        if (e.name == "no_inline") NEURONRW_TRY(check_unit_value(e, "func.call"));
        if (e.name == "callee") {  // the dictionary's callee replaces the written one, as in MLIR
          NEURONRW_TRY(check_flat_symbol_ref_value(e));
          attrs.front().value = std::move(e.value);
          continue;
        }
        attrs.push_back(attribute{std::move(e.name), std::move(e.value)});
      }
      skip_ws();
    }
    if (peek() != ':') return fail(pos_, "expected ':' followed by the callee's function type");
    ++pos_;
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    NEURONRW_TRY(check_operand_count(f, uses.size()));
    NEURONRW_TRY(check_result_count(start, f.results.size(), bound));
    const std::vector<value_ref> none(uses.size());
    const auto op = m_.create_op("func.call", none, f.results, std::move(attrs), loc_of(start));
    m_.push_back(ctx.block, op);
    NEURONRW_TRY(resolve_operands(op, uses, f.inputs));
    NEURONRW_TRY(define_results(op, groups));
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  // ------------------------------------------------------------------ functions
  /// `func.func [vis] @name(args) [-> results] [attributes {...}] [{ body }] [loc]`.
  [[nodiscard]] bool parse_function(std::size_t start) {
    const auto op = m_.create_op("func.func", {}, {}, {}, loc_of(start));
    m_.push_back(m_.body(), op);
    m_.make_function(op);
    skip_ws();
    std::string visibility;
    if (at_word("private") || at_word("public") || at_word("nested")) {
      visibility = std::string(lex_bare_id());  // kept as written: mlir-opt prints an explicit `public`
      skip_ws();
    }
    if (peek() != '@') return fail(pos_, "expected valid '@'-identifier for symbol name");
    ++pos_;
    std::string sym;
    NEURONRW_TRY(parse_symbol_name(sym));
    skip_ws();
    if (peek() != '(') return fail(pos_, "expected '(' in function signature");
    ++pos_;
    struct argument {
      std::string name;
      std::size_t at = 0;
      type_ref type;
      std::string attrs, loc;
    };
    std::vector<argument> args;
    bool named = false;
    skip_ws();
    if (peek() != ')') {
      for (;;) {
        skip_ws();
        argument a;
        a.at = pos_;
        if (peek() == '%') {
          if (!args.empty() && !named) return fail(pos_, "expected type instead of SSA identifier");
          named = true;
          ++pos_;
          std::string_view spelled;
          NEURONRW_TRY(lex_suffix_id("expected SSA value name after '%'", spelled));
          a.name = std::string(spelled);
          NEURONRW_TRY(expect(':', "expected ':'"));
        } else if (named) {
          return fail(pos_, "expected SSA identifier");
        }
        NEURONRW_TRY(parse_type(a.type));
        skip_ws();
        if (peek() == '{') {
          NEURONRW_TRY(dict_text(a.attrs));
          skip_ws();
        }
        if (at_loc()) NEURONRW_TRY(parse_optional_loc(a.loc));
        args.push_back(std::move(a));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == ')') break;
        return fail(pos_, "expected ',' or ')' in function signature");
      }
    }
    ++pos_;
    std::vector<type_ref> results;
    std::vector<std::string> result_attrs;
    skip_ws();
    if (at_arrow()) {
      pos_ += 2;
      skip_ws();
      if (peek() == '(') {
        ++pos_;
        skip_ws();
        if (peek() != ')') {
          for (;;) {
            NEURONRW_TRY(parse_type(results.emplace_back()));
            skip_ws();
            if (peek() == '{')
              NEURONRW_TRY(dict_text(result_attrs.emplace_back()));
            else
              result_attrs.emplace_back();
            skip_ws();
            if (peek() == ',') {
              ++pos_;
              continue;
            }
            if (peek() == ')') break;
            return fail(pos_, "expected ',' or ')' in function result list");
          }
        }
        ++pos_;
      } else {
        NEURONRW_TRY(parse_type(results.emplace_back()));
        result_attrs.emplace_back();
      }
      skip_ws();
    }
    std::vector<std::string> arg_attrs;
    for (auto& a : args) arg_attrs.push_back(a.attrs);
    if (at_word("attributes")) {
      const std::size_t attributes_at = pos_;
      pos_ += 10;
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected '{' after 'attributes'");
      std::vector<dict_entry> es;
      NEURONRW_TRY(parse_dict(es));
      NEURONRW_TRY(take_signature_attributes(es, start, attributes_at, arg_attrs, result_attrs));
      m_.set_attributes(op, to_attributes(std::move(es)));
      skip_ws();
    }
    {
      auto& f = m_.function(op);
      f.sym_name = std::move(sym);
      f.visibility = std::move(visibility);
      f.result_types = std::move(results);
      f.result_attrs = std::move(result_attrs);
      f.arg_attrs = std::move(arg_attrs);
    }
    if (peek() == '{' && !eof()) {
      if (!args.empty() && !named) return fail(pos_, "a function body needs named arguments ('%name: type')");
      const std::size_t open = pos_;
      NEURONRW_TRY(enter_region(open));
      ++pos_;
      const auto b = m_.add_region(op);
      push_isolated_scope();
      for (auto& a : args) {
        const auto v = m_.add_block_argument(b, a.type, a.name);
        if (!a.loc.empty()) m_.set_arg_loc_text(v, a.loc);
        NEURONRW_TRY(define_value(a.name, value_entry{v.id, 1}, a.at));
      }
      skip_ws();
      if (peek() == '^') return fail(pos_, "a function body takes its arguments from the signature, not from a block label");
      NEURONRW_TRY(parse_block_body(block_context{b, true, false}, open));
      NEURONRW_TRY(pop_isolated_scope());
      leave_region();
    } else {
      auto& f = m_.function(op);
      f.declaration = true;
      for (auto& a : args) f.decl_arg_types.push_back(a.type);
    }
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  /// The inherent attributes of a pretty `func.func`'s `attributes {...}` (`es`), taken out as
  /// MLIR's function parser takes them (LLVM 22): `sym_name`, `function_type` and
  /// `sym_visibility` come from the signature and are an error here; `arg_attrs` / `res_attrs`
  /// set the argument / result dictionaries when the signature writes none (else they occur
  /// twice), are dropped when not an array (as MLIR drops an inherent attribute of the wrong
  /// kind) and must have one dictionary per argument / result; a `no_inline` that is not a unit
  /// is dropped for the same reason. `start` is the op's position, `attributes_at` the keyword's.
  [[nodiscard]] bool take_signature_attributes(std::vector<dict_entry>& es, std::size_t start, std::size_t attributes_at,
                                 std::vector<std::string>& arg_attrs, std::vector<std::string>& result_attrs) {
    for (const auto& e : es)
      if (e.name == "sym_name" || e.name == "function_type" || e.name == "sym_visibility")
        return fail(attributes_at, "custom op 'func.func' '" + e.name +
                                "' is an inferred attribute and should not be specified in the explicit attribute "
                                "dictionary");
    auto take = [&](const char* key, std::vector<std::string>& dicts, const char* what) -> bool {
      auto it = std::find_if(es.begin(), es.end(), [&](const dict_entry& e) { return e.name == key; });
      if (it == es.end()) return true;
      if (std::any_of(dicts.begin(), dicts.end(), [](const std::string& d) { return !d.empty(); }))
        return fail(start, std::string("custom op 'func.func' attribute '") + key + "' occurs more than once in the attribute list");
      const dict_entry e = std::move(*it);
      es.erase(it);
      if (!e.value.starts_with('[')) return true;
      std::vector<std::string> ds;
      NEURONRW_TRY(parse_dict_array(e, ds));
      if (ds.size() != dicts.size()) return fail_attr_array_size(start, what, ds.size(), dicts.size());
      dicts = std::move(ds);
      return true;
    };
    NEURONRW_TRY(take("arg_attrs", arg_attrs, "argument"));
    NEURONRW_TRY(take("res_attrs", result_attrs, "result"));
    std::erase_if(es, [](const dict_entry& e) { return e.name == "no_inline" && !is_unit_value(e); });
    return true;
  }

  /// `[{a}, {}, ...]` of `arg_attrs` / `res_attrs` (re-read from the source).
  [[nodiscard]] bool parse_dict_array(const dict_entry& e, std::vector<std::string>& out) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    out.clear();
    if (peek() != '[') return fail(pos_, "expected an array of dictionaries for '" + e.name + "'");
    ++pos_;
    skip_ws();
    if (peek() != ']') {
      for (;;) {
        skip_ws();
        if (peek() != '{') return fail(pos_, "expected a dictionary in '" + e.name + "'");
        NEURONRW_TRY(dict_text(out.emplace_back()));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == ']') break;
        return fail(pos_, "expected ',' or ']' in '" + e.name + "'");
      }
    }
    ++pos_;
    skip_ws();
    if (pos_ < e.value_end) return fail(pos_, "unexpected text after '" + e.name + "'");
    pos_ = save;
    return true;
  }

  /// `"func.func"() <{function_type = ..., sym_name = "f", ...}> ({ [^bb0(...):] ... }) [{attrs}]
  /// : () -> ()` — the same in-memory function as the pretty form; an empty region declares.
  [[nodiscard]] bool parse_generic_function(std::size_t start) {
    const std::size_t name_at = start;
    NEURONRW_TRY(expect('(', "expected '(' to start the operand list"));
    NEURONRW_TRY(expect(')', "'func.func' takes no operands"));
    skip_ws();
    std::vector<dict_entry> props;
    if (peek() == '<') {
      ++pos_;
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected a dictionary of properties for 'func.func'");
      NEURONRW_TRY(parse_dict(props));
      NEURONRW_TRY(expect('>', "expected '>' to close the properties"));
    }
    const auto op = m_.create_op("func.func", {}, {}, {}, loc_of(start));
    m_.push_back(m_.body(), op);
    m_.make_function(op);
    NEURONRW_TRY(expect('(', "expected '(' before the region of 'func.func'"));
    skip_ws();
    if (peek() != '{' || eof()) return fail(pos_, "expected '{' to begin a region");
    const std::size_t open = pos_;
    ++pos_;
    skip_ws();
    bool definition = false;
    std::size_t header_at = open;
    std::vector<std::size_t> arg_at;
    if (peek() == '}') {
      ++pos_;
    } else {
      definition = true;
      NEURONRW_TRY(enter_region(open));
      const auto b = m_.add_region(op);
      push_isolated_scope();
      if (peek() == '^') {
        header_at = pos_;
        NEURONRW_TRY(parse_block_header(b, &arg_at));
      }
      NEURONRW_TRY(parse_block_body(block_context{b, true, false}, open));
      NEURONRW_TRY(pop_isolated_scope());
      leave_region();
    }
    skip_ws();
    if (peek() == ',') {
      ++pos_;
      skip_ws();
      return fail(pos_, "the reference IR supports at most one region per op");
    }
    NEURONRW_TRY(expect(')', "expected ')' after the region"));
    skip_ws();
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      NEURONRW_TRY(parse_dict(attrs));
      skip_ws();
    }
    if (peek() != ':') return fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    function_type sig;
    NEURONRW_TRY(parse_function_type(sig));
    if (!sig.inputs.empty() || !sig.results.empty())
      return fail(sig.at, "expected '() -> ()' as the type of 'func.func'");

    // Inherent attributes (LLVM 22) may come as properties or in the attribute dictionary; a
    // property wins, and a property the op does not have is dropped (merge_inherent).
    const auto merged = merge_inherent(std::move(props), std::move(attrs),
                                       {"function_type", "sym_name", "sym_visibility", "arg_attrs", "res_attrs",
                                        "no_inline"});
    const dict_entry *type_e = nullptr, *name_e = nullptr, *vis_e = nullptr, *args_e = nullptr,
                     *res_e = nullptr;
    std::vector<attribute> extra;
    for (const auto& e : merged) {
      const dict_entry** slot = e.name == "function_type"    ? &type_e
                                : e.name == "sym_name"       ? &name_e
                                : e.name == "sym_visibility" ? &vis_e
                                : e.name == "arg_attrs"      ? &args_e
                                : e.name == "res_attrs"      ? &res_e
                                                             : nullptr;
      if (slot != nullptr) {
        *slot = &e;
        continue;
      }
      if (e.name == "no_inline") NEURONRW_TRY(check_unit_value(e, "func.func"));
      extra.push_back(attribute{e.name, e.value});
    }
    if (type_e == nullptr) return fail(name_at, "'func.func' requires a 'function_type'");
    if (name_e == nullptr) return fail(name_at, "'func.func' requires a 'sym_name'");
    const std::size_t save = pos_;
    pos_ = type_e->value_at;
    function_type ft;
    NEURONRW_TRY(parse_function_type(ft));
    skip_ws();
    if (pos_ < type_e->value_end) return fail(pos_, "unexpected text after 'function_type'");
    pos_ = save;

    auto& f = m_.function(op);
    NEURONRW_TRY(symbol_from_string(*name_e, f.sym_name));
    if (vis_e != nullptr) {
      std::string v;
      NEURONRW_TRY(string_value(*vis_e, v));
      if (v != "\"private\"" && v != "\"nested\"" && v != "\"public\"")
        return fail(vis_e->value_at, "'sym_visibility' must be \"private\", \"nested\" or \"public\"");
      f.visibility = v.substr(1, v.size() - 2);  // "public" too: mlir-opt prints it back
    }
    f.result_types = ft.results;
    f.result_attrs.assign(ft.results.size(), std::string());
    f.arg_attrs.assign(ft.inputs.size(), std::string());
    if (args_e != nullptr) {
      std::vector<std::string> as;
      NEURONRW_TRY(parse_dict_array(*args_e, as));
      if (as.size() != ft.inputs.size()) return fail_attr_array_size(name_at, "argument", as.size(), ft.inputs.size());
      m_.function(op).arg_attrs = std::move(as);
    }
    if (res_e != nullptr) {
      std::vector<std::string> rs;
      NEURONRW_TRY(parse_dict_array(*res_e, rs));
      if (rs.size() != ft.results.size()) return fail_attr_array_size(name_at, "result", rs.size(), ft.results.size());
      m_.function(op).result_attrs = std::move(rs);
    }
    if (definition) {
      const auto args = m_.arguments(m_.region_block(op));
      if (args.size() != ft.inputs.size())
        return fail(header_at, "the entry block has " + std::to_string(args.size()) +
                            " arguments but the function type has " + std::to_string(ft.inputs.size()) +
                            " inputs");
      for (std::size_t i = 0; i < args.size(); ++i)
        if (m_.type(args[i]) != ft.inputs[i])
          return fail(arg_at[i], "type of entry block argument #" + std::to_string(i) + " ('" +
                              std::string(m_.type_text(args[i])) + "') does not match the function type ('" +
                              std::string(m_.type_text(ft.inputs[i])) + "')");
    } else {
      auto& fd = m_.function(op);
      fd.declaration = true;
      fd.decl_arg_types = ft.inputs;
    }
    m_.set_attributes(op, std::move(extra));
    std::string l;
    NEURONRW_TRY(parse_optional_loc(l));
    if (!l.empty()) m_.set_loc_text(op, std::move(l));
    return true;
  }

  std::vector<name_scope> scopes_;
  std::uint32_t region_depth_ = 0;
  custom_op_state* custom_ = nullptr;
  bool read_custom_form_ = false;
};

}  // namespace detail

/// Parses `text` (named `file_name` in diagnostics and in `module::source_name`).
/// Complexity: O(n) in the text size (plus hashing of names). Never throws for bad input: the
/// first error comes back as `FILE:LINE:COL: error: MESSAGE` in `error`, with no module.
inline parse_result parse(std::string_view text, std::string_view file_name,
                          const parse_options& options) {
  return detail::text_parser(text, file_name, options).run();
}

inline parse_result parse(std::string_view text, std::string_view file_name = "<input>") {
  return parse(text, file_name, parse_options{});
}

}  // namespace neuronrw::ref
