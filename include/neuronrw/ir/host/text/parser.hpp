// neuronrw/ir/host/text/parser.hpp — the parser of the host text format (ir/host/text.hpp):
// reads the lexer's tokens into a program by recursive descent, binding names lexically as
// Python does, and WindowBuffers (declared first in a function body) once the body is read.
//
//   parse_program(std::string_view text, std::string_view file) -> parse_result
//   parse_result                  the program, or the first error; the warnings of a program read
//   text_detail::parser           what parse_program runs over the lexer's tokens
//
// Customization points: none.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/detail/parse_list.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text/common.hpp>
#include <neuronrw/ir/host/text/lexer.hpp>

namespace neuronrw::host {

namespace text_detail {

class parser {
 public:
  parser(lexed toks, std::string_view src, std::string_view file)
      : t_(std::move(toks.tokens)), strings_(std::move(toks.strings)), src_(src) {
    prog_.file = std::string(file);
  }

  /// The warnings of the program read (op_spelling).
  const diagnostics& warnings() const noexcept { return warnings_; }

  program run() {
    while (at_name("import") || at_name("from")) parse_import();
    // Module-level integer constants (`SIZE = 256`), before the program as in pypto's sources.
    while (is(tok::name) && at_punct("=", 1)) parse_constant();
    expect_punct("@", "at the start of the program (@pl.program)");
    expect_path("pl.program", "a program decorator");
    expect_newline();
    expect_keyword("class");
    prog_.name = binding_name("a program name");  // Python: `class yield:` is a syntax error
    expect_punct(":", "after the class name");
    expect_newline();
    expect(tok::indent, "an indented class body");
    if (at_name("pass")) {
      next();
      expect_newline();
    } else {
      while (!is(tok::dedent) && !is(tok::eof)) parse_function();
    }
    expect(tok::dedent, "the end of the class body");
    expect(tok::eof, "the end of input after the program");
    for (auto& [name, loc] : calls_)
      if (!function_names_.count(name)) fail(loc, "call of undefined function '" + name + "'");
    return std::move(prog_);
  }

 private:
  std::deque<token> t_;
  std::string strings_;  ///< the string literals' decoded values (token::off of a string token)
  std::string_view src_;
  std::size_t i_ = 0;
  /// The index of t_.front(): the tokens before the current function are dropped when it starts
  /// (nothing reads back across functions), so the tokens left shrink as the program grows and
  /// the peak is about the program alone.
  std::size_t base_ = 0;
  program prog_;
  std::vector<std::pair<std::string, source_loc>> calls_;
  diagnostics warnings_;  // see op_spelling
  std::unordered_set<std::string> function_names_;  // a set: a linear find per call was quadratic
  std::size_t depth_ = 0;
  std::unordered_set<std::string> pld_aliases_;            // import aliases of pypto.language.distributed
  std::unordered_map<std::string, std::int64_t> constants_;  // module constants by name

  // Per function.
  struct window_entry {
    std::shared_ptr<window_buffer> obj = std::make_shared<window_buffer>();
    bool declared = false;
    source_loc first_ref;
    source_loc decl_loc;
    std::optional<std::string> base;  ///< the base variable's name; nullopt for base=None
    std::string signature;            ///< the declaration's tokens, to tell duplicates from conflicts
    std::size_t size_token = 0;       ///< where the size expression starts; 0 for size=None
  };
  /// How a bare name resolves: lexically (the normal case); not at all (a first, throw-away pass
  /// over a WindowBuffer's size, which may name variables the body defines later); or among all
  /// bindings of the function (the second pass over that size, once the body is parsed).
  enum class names : std::uint8_t { lexical, skip, function_wide };
  std::vector<std::unordered_map<std::string, var*>> scopes_;
  std::unordered_map<std::string, std::vector<var*>> bindings_;  // every binding of the function
  std::unordered_map<std::string, window_entry> windows_;
  std::vector<std::string> window_order_;
  names names_ = names::lexical;
  std::string window_label_;  // the WindowBuffer whose size is being parsed function-wide
  std::string function_name_;

  // ---- tokens -----------------------------------------------------------------------------
  const token& peek(std::size_t k = 0) const { return t_[std::min(i_ + k, base_ + t_.size() - 1) - base_]; }
  const token& next() {
    const token& tk = t_[std::min(i_, base_ + t_.size() - 1) - base_];
    if (i_ < base_ + t_.size() - 1) ++i_;
    return tk;
  }
  bool is(tok k) const { return peek().kind == k; }
  std::string_view text(const token& tk) const {
    return (tk.kind == tok::string ? std::string_view(strings_) : src_).substr(tk.off, tk.len);
  }
  bool at_punct(std::string_view p, std::size_t k = 0) const {
    return peek(k).kind == tok::punct && text(peek(k)) == p;
  }
  bool at_name(std::string_view n, std::size_t k = 0) const { return peek(k).kind == tok::name && text(peek(k)) == n; }
  [[noreturn]] static void fail(source_loc at, std::string msg) { throw failure{at, std::move(msg)}; }

  std::string describe(const token& tk) const {
    switch (tk.kind) {
      case tok::name:
      case tok::integer:
      case tok::punct: return "'" + std::string(text(tk)) + "'";
      case tok::string: return "string " + quote(text(tk));
      case tok::newline: return "end of line";
      case tok::indent: return "indent";
      case tok::dedent: return "dedent";
      case tok::eof: return "end of input";
    }
    return "token";
  }
  [[noreturn]] void unexpected(std::string_view wanted) const {
    fail(peek().loc, "expected " + std::string(wanted) + ", got " + describe(peek()));
  }
  void expect(tok k, std::string_view wanted) {
    if (!is(k)) unexpected(wanted);
    next();
  }
  void expect_newline() {
    if (!is(tok::newline)) unexpected("end of line");
    next();
  }
  void expect_punct(std::string_view p, std::string_view where) {
    if (!at_punct(p)) unexpected("'" + std::string(p) + "' " + std::string(where));
    next();
  }
  void expect_keyword(std::string_view k) {
    if (!at_name(k)) unexpected("'" + std::string(k) + "'");
    next();
  }
  std::string expect_ident(std::string_view what) {
    if (!is(tok::name)) unexpected(what);
    return std::string(text(next()));
  }
  std::string expect_string(std::string_view what) {
    if (!is(tok::string)) unexpected(what);
    return std::string(text(next()));
  }
  /// NAME ('.' NAME)*
  std::string dotted() {
    std::string path = expect_ident("a name");
    while (at_punct(".") && peek(1).kind == tok::name) {
      next();
      path += '.';
      path += text(next());
    }
    if (at_punct(".")) {
      next();
      unexpected("a name after '.'");
    }
    return path;
  }
  void expect_path(std::string_view path, std::string_view what) {
    const source_loc at = peek().loc;
    if (!is(tok::name)) unexpected(what);
    const std::string got = dotted();
    if (got != path) fail(at, "expected '" + std::string(path) + "' (" + std::string(what) + "), got '" + got + "'");
  }

  struct depth_guard {
    parser& p;
    explicit depth_guard(parser& q) : p(q) {
      if (++p.depth_ > max_nesting) fail(p.peek().loc, "nesting too deep");
    }
    ~depth_guard() { --p.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
  };

  /// The parser as a detail::punct_cursor, for detail::parse_list.
  struct list_cursor {
    parser& p;
    bool at_punct(std::string_view s) const { return p.at_punct(s); }
    void expect_punct(std::string_view s, std::string_view where) const { p.expect_punct(s, where); }
    void next() const { p.next(); }
  };
  /// OPEN element (SEP element)* SEP? CLOSE: detail::parse_list(syntax, element[, at_close]).
  template <class... F>
  void list(const neuronrw::detail::list_syntax& syntax, F&&... f) {
    list_cursor c{*this};
    neuronrw::detail::parse_list(c, syntax, f...);
  }

  // ---- names ------------------------------------------------------------------------------
  var* lookup(const std::string& n) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(n); f != it->end()) return f->second;
    return nullptr;
  }
  /// A bare name as a value, per the current `names_` mode.
  var* resolve(const std::string& n, source_loc at, std::string_view where) {
    switch (names_) {
      case names::skip: return nullptr;
      case names::function_wide: return resolve_function_name(n, window_label_, at, "size variable");
      case names::lexical: break;
    }
    var* v = lookup(n);
    if (!v) fail(at, "undefined variable '" + n + "'" + std::string(where));
    return v;
  }
  var_ptr bind(const std::string& n, type t, source_loc loc) {
    auto v = make_var(n, std::move(t), loc);
    scopes_.back()[n] = v.get();
    bindings_[n].push_back(v.get());
    return v;
  }
  std::string binding_name(std::string_view what) {
    const source_loc at = peek().loc;
    std::string n = expect_ident(what);
    if (is_reserved(n)) fail(at, "cannot bind the reserved name '" + n + "'");
    return n;
  }

  // ---- imports and module constants --------------------------------------------------------
  /// `import M [as A] {, M [as A]}` or `from M import N [as A] {, N [as A]}`. An alias of pypto's
  /// distributed package (`import pypto.language.distributed as dist`, `from pypto.language import
  /// distributed as dist`) spells `pld` (op calls under it read as pld's; see alias_path).
  void parse_import() {
    const bool from = at_name("from");
    next();
    std::string module;
    if (from) {
      module = dotted();
      expect_keyword("import");
    }
    for (;;) {
      import_decl d;
      const std::string first = dotted();
      if (from) {
        d.module = module;
        d.name = first;
      } else {
        d.module = first;
      }
      if (at_name("as")) {
        next();
        d.alias = binding_name("an import alias");
      }
      const std::string full = from ? d.module + "." + d.name : d.module;
      const std::string bound = !d.alias.empty() ? d.alias : from ? d.name : std::string();
      // `pl` stays pypto.language's: the reader's `pl.` forms (decorators, types, pl._dump) are fixed.
      if (full == "pypto.language.distributed" && !bound.empty() && bound != "pld" && bound != "pl")
        pld_aliases_.insert(bound);
      prog_.imports.push_back(std::move(d));
      if (!at_punct(",")) break;
      next();
    }
    expect_newline();
  }
  /// `NAME = integer expression`: its uses read as integer constants spelled with its name.
  void parse_constant() {
    const source_loc at = peek().loc;
    std::string n = binding_name("a constant name");
    expect_punct("=", "in a constant definition");
    scopes_.assign(1, {});
    auto value = parse_expr();
    expect_newline();
    const std::int64_t v = constant_value(*value, at);
    for (auto& c : prog_.constants)
      if (c.name == n) fail(at, "duplicate module constant '" + n + "'");
    constants_[n] = v;
    prog_.constants.push_back({std::move(n), std::move(value), v, at});
  }
  /// The value of a constant's expression (integers, other constants, arithmetic): errors are
  /// located at the operator at fault.
  std::int64_t constant_value(const expr& e, source_loc at) {
    switch (e.kind) {
      case expr_kind::int_const: return e.value;
      case expr_kind::arith: {
        const arith_op op = op_of(e);
        const std::int64_t a = constant_value(*e.args[0], at);
        const std::int64_t b = op == arith_op::neg ? 0 : constant_value(*e.args[1], at);
        std::int64_t out = 0;
        std::string why;
        if (!arith(op, a, b, out, why)) fail(e.loc.known() ? e.loc : at, why);
        return out;
      }
      default: fail(e.loc.known() ? e.loc : at, "a module constant must be an integer expression");
    }
  }
  /// Python's integer operators on int64; false (and why) on overflow or division by zero.
  static bool arith(arith_op op, std::int64_t a, std::int64_t b, std::int64_t& out, std::string& why) {
    static constexpr const char* names[] = {"+", "-", "*", "//", "%", "-"};
    const std::string sym = names[static_cast<int>(op)];
    const std::string operands = op == arith_op::neg ? "-" + std::to_string(a) : std::to_string(a) + " " + sym + " " + std::to_string(b);
    switch (op) {
      case arith_op::add:
        if (__builtin_add_overflow(a, b, &out)) return why = "integer overflow in '" + sym + "' (" + operands + ")", false;
        return true;
      case arith_op::sub:
        if (__builtin_sub_overflow(a, b, &out)) return why = "integer overflow in '" + sym + "' (" + operands + ")", false;
        return true;
      case arith_op::mul:
        if (__builtin_mul_overflow(a, b, &out)) return why = "integer overflow in '" + sym + "' (" + operands + ")", false;
        return true;
      case arith_op::neg:
        if (a == std::numeric_limits<std::int64_t>::min()) return why = "integer overflow in '-' (" + operands + ")", false;
        out = -a;
        return true;
      case arith_op::floordiv:
      case arith_op::mod: {
        if (b == 0)
          return why = std::string(op == arith_op::mod ? "modulo" : "division") + " by zero in '" + sym + "' (" + operands + ")", false;
        if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
          if (op == arith_op::mod) return out = 0, true;
          return why = "integer overflow in '" + sym + "' (" + operands + ")", false;
        }
        std::int64_t q = a / b, r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
          --q;
          r += b;
        }
        out = op == arith_op::floordiv ? q : r;
        return true;
      }
    }
    return false;
  }

  // ---- program structure ------------------------------------------------------------------
  void parse_function() {
    for (; base_ < i_; ++base_) t_.pop_front();
    const source_loc at = peek().loc;
    expect_punct("@", "before a function (@pl.function)");
    expect_path("pl.function", "a function decorator");
    auto f = std::make_unique<function>();
    f->loc = at;
    if (at_punct("(")) {
      list({.open = "(", .open_what = "after @pl.function", .sep = ",", .close = ")",
            .close_what = "to close @pl.function("},
           [&] {
             const source_loc kat = peek().loc;
             const std::string key = expect_ident("type=, level= or role=");
             expect_punct("=", "after a decorator keyword");
             if (key == "level") {
               if (!f->level.empty()) fail(kat, "duplicate keyword 'level'");
               f->level = enum_value("pl.Level");
             } else if (key == "role") {
               if (!f->role.empty()) fail(kat, "duplicate keyword 'role'");
               f->role = enum_value("pl.Role");
             } else if (key == "type") {
               if (!f->type.empty()) fail(kat, "duplicate keyword 'type'");
               f->type = enum_value("pl.FunctionType");
             } else {
               fail(kat, "unknown @pl.function keyword '" + key + "' (expected type, level or role)");
             }
           });
    }
    // pypto's Function: a type implies a level and a role; an explicit one must agree.
    if (const auto l = implied_level(f->type); !l.empty() && !f->level.empty() && f->level != l)
      fail(at, "Function has func_type=" + f->type + " which implies level=" + std::string(l) + ", but explicit level=" +
                   f->level + " was provided");
    if (const auto r = implied_role(f->type); !r.empty() && !f->role.empty() && f->role != r)
      fail(at, "Function has func_type=" + f->type + " which implies role=" + std::string(r) + ", but explicit role=" +
                   f->role + " was provided");
    expect_newline();
    expect_keyword("def");
    const source_loc name_at = peek().loc;
    f->name = binding_name("a function name");
    if (!function_names_.insert(f->name).second) fail(name_at, "duplicate function '" + f->name + "'");
    function_name_ = f->name;
    scopes_.assign(1, {});
    bindings_.clear();
    windows_.clear();
    window_order_.clear();
    expect_punct("(", "after the function name");
    expect_keyword("self");
    // Not parse_list: `self` must come first, and `def f()` says so ("expected 'self'").
    while (at_punct(",")) {
      next();
      if (at_punct(")")) break;
      const source_loc pat = peek().loc;
      const std::string pn = binding_name("a parameter name");
      if (scopes_.back().count(pn)) fail(pat, "duplicate parameter '" + pn + "'");
      type pt;
      param_direction dir = param_direction::in;
      if (at_punct(":")) {
        next();
        // pypto's direction wrappers: `x: pl.Out[T]`, `x: pl.InOut[T]`.
        if ((at_name("pl") && at_punct(".", 1) && (at_name("Out", 2) || at_name("InOut", 2))) && at_punct("[", 3)) {
          next();
          next();
          dir = text(next()) == "Out" ? param_direction::out : param_direction::inout;
          next();
          pt = parse_type();
          expect_punct("]", dir == param_direction::out ? "to close pl.Out[" : "to close pl.InOut[");
        } else {
          pt = parse_type();
        }
      }
      if (dir != param_direction::in || !f->directions.empty()) {
        f->directions.resize(f->params.size(), param_direction::in);
        f->directions.push_back(dir);
      }
      f->params.push_back(bind(pn, std::move(pt), pat));
    }
    expect_punct(")", "to close the parameter list");
    if (at_punct("->")) {
      next();
      f->return_type = parse_type();
    }
    expect_punct(":", "after the function signature");
    expect_newline();
    expect(tok::indent, "an indented function body");
    // WindowBuffer declarations come first; their base and size bind once the body is parsed.
    while (at_window_decl()) parse_window_decl();
    while (!is(tok::dedent) && !is(tok::eof)) parse_stmt(f->body);
    expect(tok::dedent, "the end of the function body");
    finish_windows();
    prog_.functions.push_back(std::move(f));
  }

  std::string enum_value(std::string_view prefix) {
    const source_loc at = peek().loc;
    const std::string path = dotted();
    const std::string want = std::string(prefix) + ".";
    if (path.size() <= want.size() || path.compare(0, want.size(), want) != 0 ||
        path.find('.', want.size()) != std::string::npos)
      fail(at, "expected " + std::string(prefix) + ".NAME, got '" + path + "'");
    return path.substr(want.size());
  }

  // ---- WindowBuffers ----------------------------------------------------------------------
  bool at_window_decl() const {
    return at_name("pl") && at_punct(".", 1) && at_name("_dump", 2) && at_punct(".", 3) &&
           at_name("window_buffer", 4) && at_punct("(", 5);
  }
  window_entry& entry(const std::string& label) {
    auto [it, fresh] = windows_.try_emplace(label);
    if (fresh) window_order_.push_back(label);
    return it->second;
  }
  void parse_window_decl() {
    const source_loc at = peek().loc;
    for (int k = 0; k < 5; ++k) next();
    expect_punct("(", "after pl._dump.window_buffer");
    const std::size_t sig_begin = i_;
    const source_loc label_at = peek().loc;
    const std::string label = expect_label();
    std::optional<std::string> base;
    bool have_base = false, have_size = false, have_load = false, have_store = false;
    std::size_t size_token = 0;
    bool load = false, store = false;
    // Not parse_list: the label must come first, and `pl._dump.window_buffer()` says so.
    while (at_punct(",")) {
      next();
      if (at_punct(")")) break;
      const source_loc kat = peek().loc;
      const std::string key = expect_ident("base=, size=, load_from_host= or store_to_host=");
      expect_punct("=", "after '" + key + "'");
      auto once = [&](bool& seen) {
        if (seen) fail(kat, "duplicate keyword '" + key + "'");
        seen = true;
      };
      if (key == "base") {
        once(have_base);
        if (at_name("None")) next();
        else base = expect_string("a base variable name string or None");
      } else if (key == "size") {
        once(have_size);
        if (at_name("None") && (at_punct(",", 1) || at_punct(")", 1))) {
          next();
        } else {
          size_token = i_;
          names_ = names::skip;
          parse_expr();  // syntax only: the names bind in finish_windows
          names_ = names::lexical;
        }
      } else if (key == "load_from_host") {
        once(have_load);
        load = parse_bool();
      } else if (key == "store_to_host") {
        once(have_store);
        store = parse_bool();
      } else {
        fail(kat, "unknown pl._dump.window_buffer keyword '" + key + "'");
      }
    }
    const std::size_t sig_end = i_;
    expect_punct(")", "to close pl._dump.window_buffer(");
    expect_newline();
    if (!have_base) fail(at, "pl._dump.window_buffer(" + quote(label) + ") needs base=");
    if (!have_size) fail(at, "pl._dump.window_buffer(" + quote(label) + ") needs size=");
    std::string signature;
    for (std::size_t k = sig_begin + 1; k < sig_end; ++k) {
      signature += std::to_string(static_cast<int>(t_[k - base_].kind)) + ":";
      signature += text(t_[k - base_]);
      signature += "\x1f";
    }
    window_entry& w = entry(label);
    if (w.declared) {
      if (w.signature == signature) fail(label_at, "duplicate window " + quote(label));
      fail(label_at, "conflicting window " + quote(label) + ": declared again with a different base, size or flags");
    }
    w.declared = true;
    w.decl_loc = at;
    w.signature = std::move(signature);
    w.base = std::move(base);
    w.size_token = size_token;
    w.obj->load_from_host = load;
    w.obj->store_to_host = store;
    w.obj->loc = at;
  }

  bool parse_bool() {
    if (at_name("True")) {
      next();
      return true;
    }
    if (at_name("False")) {
      next();
      return false;
    }
    unexpected("True or False");
  }

  /// A window label: a non-empty string (pypto's parser rejects an empty one too).
  std::string expect_label() {
    const source_loc at = peek().loc;
    std::string label = expect_string("a window label string");
    if (label.empty()) fail(at, "a window label must not be empty");
    return label;
  }

  window_ptr parse_window_ref() {
    const source_loc at = peek().loc;
    const std::string path = dotted();
    if (path != "pl._dump.window_ref") fail(at, "expected pl._dump.window_ref(\"label\"), got '" + path + "'");
    expect_punct("(", "after pl._dump.window_ref");
    const std::string label = expect_label();
    expect_punct(")", "to close pl._dump.window_ref(");
    window_entry& w = entry(label);
    if (!w.declared && !w.first_ref.known()) w.first_ref = at;
    return w.obj;
  }

  /// A name in a WindowBuffer's base or size: exactly one binding of the function must have it.
  var* resolve_function_name(const std::string& n, const std::string& label, source_loc at, std::string_view what) {
    auto it = bindings_.find(n);
    if (it == bindings_.end() || it->second.empty())
      fail(at, "window " + quote(label) + ": " + std::string(what) + " '" + n + "' is not defined in function '" +
                   function_name_ + "'");
    if (it->second.size() > 1)
      fail(at, "window " + quote(label) + ": " + std::string(what) + " '" + n + "' is ambiguous (bound " +
                   std::to_string(it->second.size()) + " times in function '" + function_name_ + "')");
    return it->second.front();
  }

  void finish_windows() {
    for (const std::string& label : window_order_) {
      window_entry& w = windows_[label];
      if (!w.declared) fail(w.first_ref, "undefined window reference " + quote(label));
      if (w.base) w.obj->base = resolve_function_name(*w.base, label, w.decl_loc, "base");
      if (w.size_token) {
        const std::size_t resume = i_;
        i_ = w.size_token;
        names_ = names::function_wide;
        window_label_ = label;
        w.obj->size = parse_expr();
        names_ = names::lexical;
        i_ = resume;
      }
    }
  }

  // ---- types ------------------------------------------------------------------------------
  std::string dtype() {
    const source_loc at = peek().loc;
    const std::string path = dotted();
    if (path.size() <= 3 || path.compare(0, 3, "pl.") != 0 || path.find('.', 3) != std::string::npos)
      fail(at, "expected a dtype pl.NAME, got '" + path + "'");
    return path.substr(3);
  }
  std::vector<dim> shape() {
    std::vector<dim> out;
    list({.open = "[", .open_what = "to open a shape", .sep = ",", .close = "]", .close_what = "to close a shape"},
         [&] {
           out.push_back(dim_of(parse_expr()));
         });
    return out;
  }
  /// A shape dimension: an integer, a variable, or any other integer expression (`SIZE`,
  /// `pld.world_size()`, `n * 2`), kept as written.
  static dim dim_of(expr_ptr e) {
    if (e->kind == expr_kind::int_const && e->text.empty() && !(e->flags & expr_flags::parenthesized))
      return {e->value, nullptr};
    if (e->kind == expr_kind::var_ref && !(e->flags & expr_flags::parenthesized)) return {0, e->ref};
    return {0, nullptr, std::shared_ptr<const expr>(std::move(e))};
  }
  type parse_type() {
    depth_guard g(*this);
    const source_loc at = peek().loc;
    if (!is(tok::name)) unexpected("a type");
    const std::string path = alias_path(dotted());
    if (path == "pl.UnknownType") return type::unknown();
    if (path == "tuple") {
      std::vector<type> elems;
      list({.open = "[", .open_what = "after tuple", .sep = ",", .close = "]", .close_what = "to close tuple["},
           [&] { elems.push_back(parse_type()); });
      return type::tuple(std::move(elems));
    }
    if (path == "pl.Ptr") return type::ptr();
    if (path == "pl.Scalar") {
      expect_punct("[", "after pl.Scalar");
      std::string d = dtype();
      expect_punct("]", "to close pl.Scalar[");
      return type::scalar(std::move(d));
    }
    if (path == "pl.Tensor" || path == "pld.DistributedTensor") {
      expect_punct("[", "after " + path);
      auto s = shape();
      expect_punct(",", "after the shape");
      std::string d = dtype();
      window_ptr w;
      if (path == "pld.DistributedTensor" && at_punct(",") && !at_punct("]", 1)) {
        next();
        w = parse_window_ref();
      }
      if (at_punct(",")) next();
      expect_punct("]", "to close " + path + "[");
      return path == "pl.Tensor" ? type::tensor(std::move(s), std::move(d))
                                 : type::distributed(std::move(s), std::move(d), std::move(w));
    }
    fail(at, "unknown type '" + path + "'");
  }

  // ---- expressions ------------------------------------------------------------------------
  std::int64_t parse_int() {
    const source_loc at = peek().loc;
    bool negative = false;
    if (at_punct("-")) {
      next();
      negative = true;
      if (!is(tok::integer)) unexpected("an integer after '-'");
    }
    const std::string digits(text(next()));
    std::uint64_t v = 0;
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    for (char c : digits) {
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (v > (limit - d) / 10) fail(at, "integer literal out of range");
      v = v * 10 + d;
    }
    if (negative) return v == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
    return static_cast<std::int64_t>(v);
  }

  std::vector<keyword> parse_dict() {
    std::vector<keyword> out;
    list({.open = "{", .open_what = "to open a dict", .sep = ",", .close = "}", .close_what = "to close a dict"}, [&] {
      const source_loc at = peek().loc;
      std::string key = expect_string("a string key");
      for (auto& k : out)
        if (k.name == key) fail(at, "duplicate key " + quote(key));
      expect_punct(":", "after a dict key");
      out.push_back({std::move(key), parse_expr()});
    });
    return out;
  }

  // expr    := sum
  // sum     := term { ('+' | '-') term }
  // term    := unary { ('*' | '//' | '%') unary }
  // unary   := '-' INT | '-' unary | primary          (`-5` is the integer -5, as before)
  expr_ptr parse_expr() {
    depth_guard g(*this);
    auto lhs = parse_term();
    while (at_punct("+") || at_punct("-")) {
      const source_loc at = peek().loc;
      const arith_op op = text(next()) == "+" ? arith_op::add : arith_op::sub;
      lhs = make_arith(op, std::move(lhs), parse_term(), at);
    }
    return lhs;
  }
  expr_ptr parse_term() {
    auto lhs = parse_unary();
    for (;;) {
      const source_loc at = peek().loc;
      arith_op op;
      if (at_punct("*")) op = arith_op::mul;
      else if (at_punct("//")) op = arith_op::floordiv;
      else if (at_punct("%")) op = arith_op::mod;
      else if (at_punct("/")) fail(at, "unsupported operator '/' (true division): integer sizes use '//'");
      else return lhs;
      next();
      lhs = make_arith(op, std::move(lhs), parse_unary(), at);
    }
  }
  expr_ptr parse_unary() {
    depth_guard g(*this);
    const source_loc at = peek().loc;
    if (at_punct("-") && peek(1).kind != tok::integer) {
      next();
      return make_arith(arith_op::neg, parse_unary(), nullptr, at);
    }
    return parse_primary();
  }
  expr_ptr parse_primary() {
    const source_loc at = peek().loc;
    if (at_punct("-") || is(tok::integer)) return make_int(parse_int(), at);
    if (at_punct("(")) {  // `(e)`, a tuple `(a, b)` / `(a,)`, or `()`
      std::vector<expr_ptr> elems;
      bool comma = false;
      list({.open = "(", .open_what = "to open a parenthesized expression", .sep = ",", .close = ")",
            .close_what = "to close a parenthesized expression"},
           [&] {
             if (!elems.empty()) comma = true;
             elems.push_back(parse_expr());
           },
           [&] { comma = comma || (!elems.empty() && i_ > base_ && text(t_[i_ - 1 - base_]) == ","); });
      if (elems.size() == 1 && !comma) {
        elems[0]->flags |= expr_flags::parenthesized;
        return std::move(elems[0]);
      }
      return make_tuple(std::move(elems), at);
    }
    if (is(tok::string)) return make_str(std::string(text(next())), at);
    if (at_punct("[")) {
      std::vector<expr_ptr> elems;
      list({.open = "[", .open_what = "to open a list", .sep = ",", .close = "]", .close_what = "to close a list"},
           [&] { elems.push_back(parse_expr()); });
      return make_list(std::move(elems), at);
    }
    if (!is(tok::name)) unexpected("an expression");
    if (!at_punct(".", 1)) {
      const std::string n(text(next()));
      if (n == "True" || n == "False") return make_bool(n == "True", at);
      if (n == "None") return make_none(at);
      if (at_punct("("))
        fail(at, "call of the bare name '" + n + "': ops are dotted (pld.tensor.window) and functions are called "
                 "as self." + n + "(...)");
      if (is_reserved(n)) fail(at, "unexpected '" + n + "'");
      // A name the function does not bind but the module defines as a constant.
      if (auto c = constants_.find(n); c != constants_.end() && (names_ == names::skip || !lookup(n))) {
        auto e = make_int(c->second, at);
        e->text = n;
        return e;
      }
      return make_var_ref(resolve(n, at, ""), at);
    }
    const std::string path = dotted();
    if (!at_punct("(")) return make_symbol(path, at);
    if (ends_with(path, ".get_byte") && starts_with(path, "pl.") && std::count(path.begin(), path.end(), '.') == 2) {
      // `pl.FP32.get_byte()`: the dtype's byte size, an integer constant (pypto folds it).
      expect_punct("(", "after get_byte");
      expect_punct(")", "(get_byte takes no arguments)");
      const std::string dt = path.substr(3, path.size() - 3 - 9);
      const std::int64_t bytes = ops::dtype_bytes(dt);
      if (bytes == 0) fail(at, "'pl." + dt + "' has no whole byte size (get_byte)");
      auto e = make_int(bytes, at);
      e->text = path + "()";
      return e;
    }
    if (starts_with(path, "pl._dump.")) return parse_dump_form(path, at);
    const std::size_t first_dot = path.find('.');
    if (path.compare(0, first_dot, "self") == 0 && path.find('.', first_dot + 1) == std::string::npos)
      return parse_call(callee_kind::function, path.substr(first_dot + 1), at);
    return parse_call(callee_kind::op, path, at);
  }

  expr_ptr parse_call(callee_kind ck, std::string callee, source_loc at) {
    std::vector<expr_ptr> args;
    std::vector<keyword> kwargs, attrs;
    std::optional<keyword> device;
    bool seen_keyword = false, seen_attrs = false;
    list({.open = "(", .open_what = "to open the arguments", .sep = ",", .close = ")",
          .close_what = "to close the arguments"},
         [&] {
           if (is(tok::name) && at_punct("=", 1)) {
             const source_loc kat = peek().loc;
             std::string key(text(next()));
             next();
             seen_keyword = true;
             auto dup = [&](const std::vector<keyword>& ks) {
               for (auto& k : ks)
                 if (k.name == key) fail(kat, "duplicate keyword argument '" + key + "'");
             };
             if (key == "attrs") {
               if (seen_attrs) fail(kat, "duplicate keyword argument 'attrs'");
               seen_attrs = true;
               attrs = parse_dict();
             } else if (ck == callee_kind::function && key == "device") {
               if (device) fail(kat, "duplicate keyword argument 'device'");
               device = keyword{key, parse_expr()};
             } else {
               dup(kwargs);
               kwargs.push_back({std::move(key), parse_expr()});
             }
           } else {
             if (seen_keyword) fail(peek().loc, "positional argument follows keyword argument");
             args.push_back(parse_expr());
           }
         });
    if (device) {
      for (auto& a : attrs)
        if (a.name == "device") fail(at, "duplicate attribute 'device' (device= and attrs={\"device\": ...})");
      attrs.insert(attrs.begin(), std::move(*device));
    }
    if (ck == callee_kind::function) calls_.emplace_back(callee, at);
    std::string spelling = op_spelling(ck, callee, at);
    auto c = make_call(ck, std::move(callee), std::move(args), std::move(kwargs), std::move(attrs), {}, at);
    c->call->spelling = std::move(spelling);
    c->call->type = infer_call_type(*c);
    return c;
  }

  /// For an op call: turns `callee` into the op name it spells (`pld.window` → pld.tensor.window)
  /// and returns the spelling when it was another one ("" otherwise); a `pld.` op the host IR
  /// does not model is a warning (it stays an opaque call: no pass sees an allocation, a window
  /// or a collective in it).
  /// A dotted path with an import alias of pypto.language.distributed spelled `pld`.
  std::string alias_path(const std::string& path) const {
    if (const auto dot = path.find('.'); dot != std::string::npos && pld_aliases_.count(path.substr(0, dot)))
      return "pld" + path.substr(dot);
    return path;
  }
  std::string op_spelling(callee_kind ck, std::string& callee, source_loc at) {
    if (ck != callee_kind::op) return {};
    const std::string resolved = alias_path(callee);
    const std::string_view c = ops::canonical(resolved);
    if (starts_with(c, "pld.") && !ops::known(c)) {
      std::string known;
      for (const auto& sp : ops::spellings)
        known += std::string(known.empty() ? "" : ", ") + std::string(sp.full) + " (" + std::string(sp.short_form) + ")";
      for (const auto x : ops::collectives) known += ", " + std::string(x);
      for (const auto x : ops::other_ops) known += ", " + std::string(x);
      warnings_.push_back(diagnostic{prog_.file, at,
                                     "'" + callee + "' is not an op the host reader knows: it stays an opaque call, "
                                     "and no pass sees an allocation, a window or a collective in it (known: " +
                                         known + ")",
                                     severity::warning});
    }
    if (c != callee) {
      std::string spelled = std::move(callee);
      callee = std::string(c);
      return spelled;
    }
    return {};
  }

  expr_ptr parse_dump_form(const std::string& path, source_loc at) {
    if (path == "pl._dump.call") {
      expect_punct("(", "after pl._dump.call");
      callee_kind ck = callee_kind::op;
      std::string callee;
      if (is(tok::string)) {
        callee = text(next());
      } else if (at_name("self") && at_punct(".", 1) && peek(2).kind == tok::name) {
        next();
        next();
        ck = callee_kind::function;
        callee = text(next());
      } else {
        unexpected("an op name string or self.FUNCTION");
      }
      expect_punct(",", "after the callee");
      std::vector<expr_ptr> args;
      list({.open = "[", .open_what = "to open the argument list", .sep = ",", .close = "]",
            .close_what = "to close the argument list"},
           [&] { args.push_back(parse_expr()); });
      expect_punct(",", "before the result type");
      type t = parse_type();
      std::vector<keyword> kwargs, attrs;
      bool have_kwargs = false, have_attrs = false;
      // Not parse_list: these follow the result type inside pl._dump.call(...), each after a ','.
      while (at_punct(",")) {
        next();
        if (at_punct(")")) break;
        const source_loc kat = peek().loc;
        const std::string key = expect_ident("kwargs= or attrs=");
        expect_punct("=", "after '" + key + "'");
        if (key == "kwargs" && !have_kwargs) {
          have_kwargs = true;
          kwargs = parse_dict();
        } else if (key == "attrs" && !have_attrs) {
          have_attrs = true;
          attrs = parse_dict();
        } else {
          fail(kat, (key == "kwargs" || key == "attrs" ? "duplicate keyword '" : "unknown pl._dump.call keyword '") +
                        key + "'");
        }
      }
      expect_punct(")", "to close pl._dump.call(");
      if (ck == callee_kind::function) calls_.emplace_back(callee, at);
      std::string spelling = op_spelling(ck, callee, at);
      auto c = make_call(ck, std::move(callee), std::move(args), std::move(kwargs), std::move(attrs), std::move(t), at);
      c->call->spelling = std::move(spelling);
      return c;
    }
    if (path == "pl._dump.alloc_window_buffer") {
      expect_punct("(", "after pl._dump.alloc_window_buffer");
      std::vector<expr_ptr> args;
      args.push_back(parse_expr());
      expect_punct(",", "after the size");
      expect_keyword("name");
      expect_punct("=", "after 'name'");
      const source_loc nat = peek().loc;
      std::string n = expect_string("the allocation name string");
      if (at_punct(",")) next();
      expect_punct(")", "to close pl._dump.alloc_window_buffer(");
      std::vector<keyword> kwargs;
      kwargs.push_back({"name", make_str(std::move(n), nat)});
      return make_call(callee_kind::op, std::string(ops::alloc_window_buffer), std::move(args), std::move(kwargs), {},
                       type::ptr(), at);
    }
    if (path == "pl._dump.symbol") {
      expect_punct("(", "after pl._dump.symbol");
      std::string s = expect_string("a symbol string");
      expect_punct(")", "to close pl._dump.symbol(");
      return make_symbol(std::move(s), at);
    }
    if (path == "pl._dump.window_buffer")
      fail(at, "pl._dump.window_buffer(...) must come before the statements of a function body");
    if (path == "pl._dump.window_ref")
      fail(at, "pl._dump.window_ref(...) is only valid in a type or in the slots of pl._dump.comm_domain");
    if (path == "pl._dump.comm_domain") fail(at, "pl._dump.comm_domain(...) is only valid in a with statement");
    fail(at, "unknown form '" + path + "'");
  }

  // ---- statements -------------------------------------------------------------------------
  void parse_block(std::vector<stmt_ptr>& body, var_ptr* loop_var = nullptr) {
    expect_punct(":", "to open a block");
    expect_newline();
    expect(tok::indent, "an indented block");
    scopes_.emplace_back();
    if (loop_var && *loop_var) {
      scopes_.back()[(*loop_var)->name] = loop_var->get();
      bindings_[(*loop_var)->name].push_back(loop_var->get());
    }
    while (!is(tok::dedent) && !is(tok::eof)) parse_stmt(body);
    expect(tok::dedent, "the end of the block");
    scopes_.pop_back();
  }

  void parse_stmt(std::vector<stmt_ptr>& body) {
    depth_guard g(*this);
    const source_loc at = peek().loc;
    if (is(tok::indent)) fail(at, "unexpected indent");
    if (at_name("pass")) {
      next();
      expect_newline();
      return;
    }
    if (at_name("return")) {
      next();
      std::vector<expr_ptr> values;
      if (!is(tok::newline)) {
        values.push_back(parse_expr());
        // Not parse_list: no brackets, and a ',' is always followed by a value (no trailing one).
        while (at_punct(",")) {
          next();
          values.push_back(parse_expr());
        }
      }
      expect_newline();
      body.push_back(make_return(std::move(values), at));
      return;
    }
    if (at_name("for")) {
      next();
      const source_loc vat = peek().loc;
      const std::string vn = binding_name("a loop variable");
      expect_keyword("in");
      expect_path("pl.range", "a loop over pl.range(...)");
      std::vector<expr_ptr> bounds;
      type vt = type::scalar("INDEX");
      bool have_type = false;
      list({.open = "(", .open_what = "after pl.range", .sep = ",", .close = ")", .close_what = "to close pl.range("},
           [&] {
             if (at_name("var_type") && at_punct("=", 1)) {
               if (have_type) fail(peek().loc, "duplicate keyword 'var_type'");
               next();
               next();
               vt = parse_type();
               have_type = true;
             } else {
               if (have_type) fail(peek().loc, "positional argument follows keyword argument");
               bounds.push_back(parse_expr());
             }
           },
           [&] {
             if (bounds.empty() || bounds.size() > 3)
               fail(peek().loc, "pl.range takes 1 to 3 bounds (stop | start, stop[, step])");
           });
      expr_ptr start, stop, step;
      if (bounds.size() == 1) {
        start = make_int(0, at);
        stop = std::move(bounds[0]);
      } else {
        start = std::move(bounds[0]);
        stop = std::move(bounds[1]);
      }
      step = bounds.size() == 3 ? std::move(bounds[2]) : make_int(1, at);
      auto lv = make_var(vn, std::move(vt), vat);
      auto s = make_for(nullptr, std::move(start), std::move(stop), std::move(step), {}, at);
      parse_block(s->body, &lv);
      s->target = std::move(lv);
      body.push_back(std::move(s));
      return;
    }
    if (at_name("while")) {
      next();
      auto cond = parse_expr();
      auto s = make_while(std::move(cond), {}, at);
      parse_block(s->body);
      body.push_back(std::move(s));
      return;
    }
    if (at_name("with")) {
      next();
      expect_path("pl._dump.comm_domain", "with pl._dump.comm_domain(...)");
      auto s = make_scope({}, {}, {}, {}, {}, at);
      bool have[4] = {false, false, false, false};
      list({.open = "(", .open_what = "after pl._dump.comm_domain", .sep = ",", .close = ")",
            .close_what = "to close pl._dump.comm_domain("},
           [&] {
             const source_loc kat = peek().loc;
             const std::string key = expect_ident("name=, devices=, slots= or attrs=");
             expect_punct("=", "after '" + key + "'");
             const int k = key == "name" ? 0 : key == "devices" ? 1 : key == "slots" ? 2 : key == "attrs" ? 3 : -1;
             if (k < 0) fail(kat, "unknown pl._dump.comm_domain keyword '" + key + "'");
             if (have[k]) fail(kat, "duplicate keyword '" + key + "'");
             have[k] = true;
             if (k == 0) {
               s->scope->name = expect_string("a scope name string");
             } else if (k == 1) {
               list({.open = "[", .open_what = "to open the device list", .sep = ",", .close = "]",
                     .close_what = "to close the device list"},
                    [&] {
                      if (!at_punct("-") && !is(tok::integer)) unexpected("a device number");
                      s->scope->devices.push_back(parse_int());
                    });
             } else if (k == 2) {
               list({.open = "[", .open_what = "to open the slot list", .sep = ",", .close = "]",
                     .close_what = "to close the slot list"},
                    [&] {
                      if (at_name("None")) {
                        next();
                        s->scope->slots.push_back(nullptr);
                      } else {
                        s->scope->slots.push_back(parse_window_ref());
                      }
                    });
             } else {
               s->scope->attrs = parse_dict();
             }
           });
      parse_block(s->body);
      body.push_back(std::move(s));
      return;
    }
    if (is(tok::name) && (at_punct("=", 1) || at_punct(":", 1))) {
      const std::string n = binding_name("an assignment target");
      std::optional<type> annotated;
      if (at_punct(":")) {
        next();
        annotated = parse_type();
      }
      expect_punct("=", "in an assignment");
      const bool dump_form = at_name("pl") && at_punct(".", 1) && at_name("_dump", 2);
      expr_ptr value = parse_expr();
      expect_newline();
      // pypto's parser names an allocation after its assignment target when `name=` is absent
      // (the pl._dump.call form records a call exactly as it is, without a name when it has none).
      if (!dump_form && value->kind == expr_kind::call && value->callee == callee_kind::op && value->text == ops::alloc_window_buffer) {
        bool named = false;
        for (auto& k : value->call->kwargs) named = named || k.name == "name";
        if (!named) {
          auto nm = make_str(n, value->loc);
          nm->flags |= expr_flags::implicit;
          value->call->kwargs.push_back({"name", std::move(nm)});
        }
      }
      type t = annotated ? std::move(*annotated) : type_of(*value);
      auto v = bind(n, std::move(t), at);
      body.push_back(make_assign(std::move(v), std::move(value), at));
      return;
    }
    auto e = parse_expr();
    expect_newline();
    body.push_back(make_expr_stmt(std::move(e), at));
  }
};

}  // namespace text_detail

/// The outcome of parse_program: a program, or the first error.
struct parse_result {
  std::optional<program> value;
  diagnostic error;
  diagnostics warnings;  ///< of a program read (severity::warning): `pld.` calls the reader does not know
  bool ok() const noexcept { return value.has_value(); }
};

/// Parses a host program; `file` names it in diagnostics and in program::file. Never throws for
/// bad input and never returns a partial program. O(size of text).
inline parse_result parse_program(std::string_view text, std::string_view file) {
  parse_result r;
  try {
    auto toks = text_detail::lexer(text).run();
    text_detail::parser ps(std::move(toks), text, file);
    r.value = ps.run();
    r.warnings = ps.warnings();
  } catch (const text_detail::failure& f) {
    r.value.reset();
    r.error = diagnostic{std::string(file), f.loc, f.message};
  }
  return r;
}

}  // namespace neuronrw::host
