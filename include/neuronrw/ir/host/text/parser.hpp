// neuronrw/ir/host/text/parser.hpp — the parser of the host text format (ir/host/text.hpp):
// reads the lexer's tokens into a program by recursive descent, binding names lexically as
// Python does, and WindowBuffers (declared first in a function body) once the body is read.
//
//   parse_program(std::string_view text, std::string_view file, std::uint32_t first_line = 1) -> parse_result
//   parse_program(std::string_view text, std::string_view file, const program_location&) -> parse_result
//   parse_result                  the program, or the first error; the warnings of a program read
//   text_detail::parser           what parse_program runs over the lexer's tokens
//
// Customization points: none.
//
// No exceptions (this builds with -fno-exceptions): the first error is recorded by `fail`, which
// returns false; every step that can fail returns `bool` with its result in an out-parameter, or
// a pointer that is null only on failure (an expression, a window), and callers pass a failure
// on at once (NEURONRW_TRY, neuronrw/detail/try.hpp). parse_program turns the recorded error
// into the diagnostic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
#include <neuronrw/detail/string_literal.hpp>
#include <neuronrw/detail/try.hpp>
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
    if (t_.empty()) t_.push_back(token{});  // (the lexer ends every text with the end token)
    cur_ = t_.begin();
    prog_.file = std::string(file);
  }

  /// The warnings of the program read (op_spelling).
  const diagnostics& warnings() const noexcept { return warnings_; }
  /// Names bound by lines around the program the reader did not read (locate.hpp), for the
  /// error at a use of one; `names` must outlive run().
  void set_unread_bindings(const std::vector<std::pair<std::string, std::uint32_t>>* names) noexcept { unread_ = names; }
  /// Parameters of the functions around the program (locate.hpp): a use of one the program does
  /// not bind adds it to the program's constants where first used, as `NAME = VALUE` when its
  /// value is given, `NAME = SYMBOL` when it stands for a pypto name (a dtype: its default or the
  /// caller's `factory_parameter::symbol`), and as the dynamic dimension `NAME =
  /// pl.dynamic("NAME")` otherwise; `params` must outlive run().
  void set_parameters(const std::vector<factory_parameter>* params) noexcept { params_ = params; }
  /// The names the program calls by their bare name that are bound to a `@pl.function` or
  /// `@pl.inline` function read before the class, each with that function's decorator line
  /// (locate.hpp, program_location::functions); without them each such function binds its own
  /// name. `names` must outlive run().
  void set_function_names(const std::vector<std::pair<std::string, std::uint32_t>>* names) noexcept {
    function_bindings_ = names;
  }

  /// The program is one pypto's JIT front end builds (program_location::jit_functions): its
  /// functions are `@pl.jit` ones, read as pypto's specializer rewrites them (docs/host-programs.md
  /// §"pypto's JIT functions"); `where` must outlive run().
  void set_jit(const program_location* where) {
    jit_ = where;
    for (const auto& n : where->jit_functions) jit_names_.insert(n);
  }

  /// The program into `out`; false (see error()) on bad input.
  [[nodiscard]] bool run(program& out) {
    if (!parse_program() || failed_) return false;
    out = std::move(prog_);
    return true;
  }
  /// The first error, after run() returned false.
  const failure& error() const noexcept { return error_; }

 private:
  [[nodiscard]] bool parse_program() {
    while (at_name("import") || at_name("from")) NEURONRW_TRY(parse_import());
    // Module-level integer constants (`SIZE = 256`), before the program as in pypto's sources;
    // read from a larger file (locate.hpp), also those of the blocks around the class, each
    // block one indentation deeper, and their imports.
    // And the functions outside the class it calls by their bare names (docs/host-programs.md
    // §"Functions outside the class").
    std::size_t blocks = 0;
    for (;;) {
      if (is(tok::name) && at_punct("=", 1)) NEURONRW_TRY(parse_constant());
      else if (blocks > 0 && (at_name("import") || at_name("from"))) NEURONRW_TRY(parse_import());
      else if (is(tok::indent) && blocks < max_nesting) next(), ++blocks;
      else if (at_punct("@") && at_name("pl", 1) && at_punct(".", 2) && at_name("inline", 3)) NEURONRW_TRY(parse_inline_def());
      else if (at_punct("@") && at_name("pl", 1) && at_punct(".", 2) && at_name("function", 3)) NEURONRW_TRY(parse_function(true));
      else if (jit_ != nullptr && at_punct("@") && at_name("pl", 1) && at_punct(".", 2) && at_name("jit", 3)) NEURONRW_TRY(parse_jit_function());
      else if (jit_ != nullptr && is(tok::dedent) && blocks > 0) next(), --blocks;  // a JIT function in a block, the next outside it
      else break;
    }
    if (jit_ != nullptr) return finish_jit_program(blocks);
    NEURONRW_TRY(expect_punct("@", "at the start of the program (@pl.program)"));
    NEURONRW_TRY(expect_path("pl.program", "a program decorator"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect_keyword("class"));
    NEURONRW_TRY(binding_name("a program name", prog_.name));  // Python: `class yield:` is a syntax error
    NEURONRW_TRY(expect_punct(":", "after the class name"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect(tok::indent, "an indented class body"));
    if (is(tok::string) && peek(1).kind == tok::newline) {  // the class's docstring
      prog_.doc = std::string(text(next()));
      next();
    }
    if (at_name("pass")) {
      next();
      NEURONRW_TRY(expect_newline());
    } else {
      while (!is(tok::dedent) && !is(tok::eof)) NEURONRW_TRY(parse_function());
    }
    NEURONRW_TRY(expect(tok::dedent, "the end of the class body"));
    for (; blocks > 0; --blocks) NEURONRW_TRY(expect(tok::dedent, "the end of the block around the program"));
    NEURONRW_TRY(expect(tok::eof, "the end of input after the program"));
    // The @pl.function functions called by a bare name join the program after its own, in the
    // order of their first calls, as pypto adds them.
    for (const std::size_t k : called_externals_)
      if (function_names_.count(externals_[k].name))
        return fail(externals_[k].first_call, "External function '" + externals_[k].name +
                                                  "' conflicts with program function '" + externals_[k].name + "'");
    for (const std::size_t k : called_externals_) {
      function_names_.insert(externals_[k].name);
      prog_.functions.push_back(std::move(externals_[k].fn));
    }
    for (auto& [name, loc] : calls_)
      if (!function_names_.count(name)) return fail(loc, "call of undefined function '" + name + "'");
    return true;
  }

  std::deque<token> t_;
  std::string strings_;  ///< the string literals' decoded values (token::off of a string token)
  std::string_view src_;
  std::size_t i_ = 0;
  std::deque<token>::const_iterator cur_;  // see peek
  /// The index of t_.front(): the tokens before the current function are dropped when it starts
  /// (nothing reads back across functions), so the tokens left shrink as the program grows and
  /// the peak is about the program alone.
  std::size_t base_ = 0;
  program prog_;
  std::vector<std::pair<std::string, source_loc>> calls_;
  diagnostics warnings_;  // see op_spelling
  std::unordered_set<std::uint64_t> warned_at_;  // the locations warnings_ has warned at (line << 32 | column)
  std::unordered_set<std::string> function_names_;  // a set: a linear find per call was quadratic
  std::size_t depth_ = 0;
  std::unordered_set<std::string> pld_aliases_;            // import aliases of pypto.language.distributed
  std::unordered_map<std::string, std::int64_t> constants_;  // module constants by name
  std::unordered_set<std::string> dynamic_;  // module dynamic dimensions (pl.dynamic) by name
  std::unordered_map<std::string, std::string> symbols_;  // module constants bound to pypto names (`pl.FP32`)
  const std::vector<std::pair<std::string, std::uint32_t>>* unread_ = nullptr;  // see set_unread_bindings
  const std::vector<factory_parameter>* params_ = nullptr;                       // see set_parameters
  const std::vector<std::pair<std::string, std::uint32_t>>* function_bindings_ = nullptr;  // see set_function_names
  const program_location* jit_ = nullptr;       // see set_jit
  bool jit_def_ = false;                        // reading the `def` of a JIT function
  bool jit_annotation_failed_ = false;          // jit_annotation failed (never kept as written)
  std::unordered_set<std::string> jit_names_;  // its JIT functions' names

  /// A `@pl.function` or `@pl.inline` function defined outside the class.
  struct external {
    std::string name;  ///< its def's name
    source_loc loc;    ///< its decorator's
    bool is_inline = false;
    std::unique_ptr<function> fn;  ///< @pl.function: the function, until the program takes it
    std::vector<std::string> params;  ///< @pl.inline: its parameters' names
    std::vector<token> body;          ///< @pl.inline: its body's tokens, then a dedent and the end
    bool called = false;
    source_loc first_call;
  };
  std::vector<external> externals_;
  std::unordered_map<std::string, std::size_t> external_names_;  // a bare name → externals_
  std::vector<std::size_t> called_externals_;  // @pl.function ones, in the order of their first calls
  /// The inline expansions under way, innermost last: the parameters' arguments (a use of a
  /// parameter is a copy of its argument) and what its `return` gives.
  struct inline_frame {
    std::size_t ext = 0;
    std::unordered_map<std::string, expr_ptr> args;
    expr_ptr value;
    bool returned = false;
  };
  std::vector<inline_frame> inlines_;
  /// What the inline expansions have cost so far: the tokens read and the expression nodes copied
  /// for parameters, at most max_inline_work (one inline function calling another twice, and so
  /// on, would otherwise grow the program exponentially).
  std::size_t inline_work_ = 0;
  static constexpr std::size_t max_inline_work = std::size_t{1} << 20;
  std::vector<stmt_ptr>* sink_ = nullptr;  // the statement list parse_stmt is adding to

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
  using scope_map = std::unordered_map<std::string, var*>;
  std::vector<scope_map> scopes_;
  /// Per scope: whether its block yields (`x = pl.yield_(...)`, `pl.yield_(...)`) and the names it
  /// yields to, for what the block leaves to the code after it (parse_block).
  struct yield_record {
    bool any = false;
    std::vector<std::string> names;
  };
  std::vector<yield_record> yields_;
  std::unordered_map<std::string, std::vector<var*>> bindings_;  // every binding of the function
  std::unordered_map<std::string, window_entry> windows_;
  std::vector<std::string> window_order_;
  names names_ = names::lexical;
  std::string window_label_;  // the WindowBuffer whose size is being parsed function-wide
  std::string function_name_;
  failure error_;  // the first error (fail)
  bool failed_ = false;
  std::size_t bad_from_ = 0;  // see first_bad

  // ---- tokens -----------------------------------------------------------------------------
  // The current token is *cur_, t_[i_ - base_] (the last one, the end, once reached): peek() and
  // next() step an iterator instead of indexing the deque.
  const token& peek(std::size_t k = 0) const {
    return k == 0 ? *cur_ : t_[std::min(i_ + k, base_ + t_.size() - 1) - base_];
  }
  const token& next() {
    const token& tk = *cur_;
    if (i_ < base_ + t_.size() - 1) {
      ++i_;
      ++cur_;
    }
    return tk;
  }
  /// Moves the cursor to token `i` (an index counted from the first token lexed).
  void seek(std::size_t i) {
    i_ = i;
    cur_ = t_.begin() + static_cast<std::ptrdiff_t>(std::min(i_, base_ + t_.size() - 1) - base_);
  }
  bool is(tok k) const { return peek().kind == k; }
  std::string_view text(const token& tk) const {
    return (tk.kind == tok::string ? std::string_view(strings_) : src_).substr(tk.off, tk.len);
  }
  /// Whether token `tk` (a name or punctuation: their text is the source's) spells `s`.
  bool spells(const token& tk, std::string_view s) const noexcept {
    return tk.len == s.size() && std::memcmp(src_.data() + tk.off, s.data(), s.size()) == 0;
  }
  bool at_punct(std::string_view p, std::size_t k = 0) const {
    const token& tk = peek(k);
    return tk.kind == tok::punct && spells(tk, p);
  }
  bool at_name(std::string_view n, std::size_t k = 0) const {
    const token& tk = peek(k);
    return tk.kind == tok::name && spells(tk, n);
  }
  /// Records the first error and returns false, for `return fail(...)`.
  /// A bad token (tok::bad) read at or before the current one is the error instead: the lexer's,
  /// where it found it.
  bool fail(source_loc at, std::string msg) {
    if (!failed_) {
      failed_ = true;
      if (const std::size_t b = first_bad(i_ + 1); b <= i_) {
        const token& tk = t_[b - base_];
        error_ = failure{tk.loc, std::string(std::string_view(strings_).substr(tk.off, tk.len))};
      } else {
        error_ = failure{at, std::move(msg)};
      }
    }
    return false;
  }
  /// The index of the first bad token in [bad_from_, end), or `end` when there is none. The
  /// tokens before bad_from_ were read (no rule reads a bad token) or kept as written.
  std::size_t first_bad(std::size_t end) const {
    for (std::size_t k = std::max(bad_from_, base_); k < end && k < base_ + t_.size(); ++k)
      if (t_[k - base_].kind == tok::bad) return k;
    return end;
  }

  std::string describe(const token& tk) const {
    switch (tk.kind) {
      case tok::name:
      case tok::integer:
      case tok::floating:
      case tok::punct: return "'" + std::string(text(tk)) + "'";
      case tok::string: return "string " + quote(text(tk));
      case tok::newline: return "end of line";
      case tok::indent: return "indent";
      case tok::dedent: return "dedent";
      case tok::eof: return "end of input";
      case tok::bad: return "a bad token";  // (never shown: fail reports the bad token itself)
    }
    return "token";
  }
  /// `expected WANTED, got TOKEN` at the current token; returns false.
  bool unexpected(std::string_view wanted) {
    return fail(peek().loc, "expected " + std::string(wanted) + ", got " + describe(peek()));
  }
  [[nodiscard]] bool expect(tok k, std::string_view wanted) {
    if (!is(k)) return unexpected(wanted);
    next();
    return true;
  }
  [[nodiscard]] bool expect_newline() {
    if (!is(tok::newline)) return unexpected("end of line");
    next();
    return true;
  }
  [[nodiscard]] bool expect_punct(std::string_view p, std::string_view where) {
    if (!at_punct(p)) return unexpected("'" + std::string(p) + "' " + std::string(where));
    next();
    return true;
  }
  [[nodiscard]] bool expect_keyword(std::string_view k) {
    if (!at_name(k)) return unexpected("'" + std::string(k) + "'");
    next();
    return true;
  }
  [[nodiscard]] bool expect_ident(std::string_view what, std::string& out) {
    if (!is(tok::name)) return unexpected(what);
    out = std::string(text(next()));
    return true;
  }
  [[nodiscard]] bool expect_string(std::string_view what, std::string& out) {
    if (!is(tok::string)) return unexpected(what);
    out = std::string(text(next()));
    return true;
  }
  /// NAME ('.' NAME)*
  [[nodiscard]] bool dotted(std::string& path) {
    NEURONRW_TRY(expect_ident("a name", path));
    while (at_punct(".") && peek(1).kind == tok::name) {
      next();
      path += '.';
      path += text(next());
    }
    if (at_punct(".")) {
      next();
      return unexpected("a name after '.'");
    }
    return true;
  }
  [[nodiscard]] bool expect_path(std::string_view path, std::string_view what) {
    const source_loc at = peek().loc;
    if (!is(tok::name)) return unexpected(what);
    std::string got;
    NEURONRW_TRY(dotted(got));
    if (got != path) return fail(at, "expected '" + std::string(path) + "' (" + std::string(what) + "), got '" + got + "'");
    return true;
  }

  /// One level of the nesting the parser recurses through; `ok` is false (the error recorded)
  /// when it is one too many: `depth_guard g(*this); NEURONRW_TRY(g.ok);`.
  struct depth_guard {
    parser& p;
    bool ok;
    explicit depth_guard(parser& q) : p(q), ok(++q.depth_ <= max_nesting || q.fail(q.peek().loc, "nesting too deep")) {}
    ~depth_guard() { --p.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
  };

  /// The parser as a detail::punct_cursor, for detail::parse_list.
  struct list_cursor {
    parser& p;
    bool at_punct(std::string_view s) const { return p.at_punct(s); }
    bool expect_punct(std::string_view s, std::string_view where) const { return p.expect_punct(s, where); }
    void next() const { p.next(); }
  };
  /// OPEN element (SEP element)* SEP? CLOSE: detail::parse_list(syntax, element[, at_close]);
  /// each callable returns false when it failed.
  template <class... F>
  [[nodiscard]] bool list(const neuronrw::detail::list_syntax& syntax, F&&... f) {
    list_cursor c{*this};
    return neuronrw::detail::parse_list(c, syntax, f...);
  }

  // ---- names ------------------------------------------------------------------------------
  var* lookup(const std::string& n) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(n); f != it->end()) return f->second;
    return nullptr;
  }
  /// A bare name as a value, per the current `names_` mode, into `out` (null in the skip mode).
  [[nodiscard]] bool resolve(const std::string& n, source_loc at, std::string_view where, var*& out) {
    switch (names_) {
      case names::skip: out = nullptr; return true;
      case names::function_wide: return resolve_function_name(n, window_label_, at, "size variable", out);
      case names::lexical: break;
    }
    out = lookup(n);
    if (!out) {
      std::string why;
      if (unread_ != nullptr)
        for (const auto& [name, line] : *unread_)
          if (name == n)
            why = " (line " + std::to_string(line) +
                  " binds it to a value the reader does not evaluate: a constant is an integer expression of integers, "
                  "constants, + - * // % ** << >> & | ^ ~ and pl.DTYPE.get_byte())";
      return fail(at, "undefined variable '" + n + "'" + std::string(where) + why);
    }
    return true;
  }
  var_ptr bind(const std::string& n, type t, source_loc loc) {
    if (!inlines_.empty()) inlines_.back().args.erase(n);  // an inline function rebinding its parameter
    auto v = make_var(n, std::move(t), loc);
    scopes_.back()[n] = v.get();
    bindings_[n].push_back(v.get());
    return v;
  }
  [[nodiscard]] bool binding_name(std::string_view what, std::string& n) {
    const source_loc at = peek().loc;
    NEURONRW_TRY(expect_ident(what, n));
    if (is_reserved(n)) return fail(at, "cannot bind the reserved name '" + n + "'");
    return true;
  }

  // ---- imports and module constants --------------------------------------------------------
  /// `import M [as A] {, M [as A]}` or `from M import N [as A] {, N [as A]}`. An alias of pypto's
  /// distributed package (`import pypto.language.distributed as dist`, `from pypto.language import
  /// distributed as dist`) spells `pld` (op calls under it read as pld's; see alias_path).
  [[nodiscard]] bool parse_import() {
    const bool from = at_name("from");
    next();
    std::string module;
    if (from) {
      NEURONRW_TRY(dotted(module));
      NEURONRW_TRY(expect_keyword("import"));
    }
    for (;;) {
      import_decl d;
      std::string first;
      NEURONRW_TRY(dotted(first));
      if (from) {
        d.module = module;
        d.name = first;
      } else {
        d.module = first;
      }
      if (at_name("as")) {
        next();
        NEURONRW_TRY(binding_name("an import alias", d.alias));
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
    return expect_newline();
  }
  /// `NAME = integer expression`: its uses read as integer constants spelled with its name.
  [[nodiscard]] bool parse_constant() {
    const source_loc at = peek().loc;
    std::string n;
    NEURONRW_TRY(binding_name("a constant name", n));
    NEURONRW_TRY(expect_punct("=", "in a constant definition"));
    scopes_.assign(1, {});
    auto value = parse_expr();
    NEURONRW_TRY(value);
    NEURONRW_TRY(expect_newline());
    for (auto& c : prog_.constants)
      if (c.name == n) return fail(at, "duplicate module constant '" + n + "'");
    // pypto's dynamic dimension: `NR = pl.dynamic("NR")`; or an integer expression over dynamic
    // dimensions (`nr = n_ranks`, `ROUNDS = 2 * (NR - 1)`), itself one.
    if ((value->kind == expr_kind::call && value->text == "pl.dynamic" && value->args.size() == 1 &&
         value->args[0]->kind == expr_kind::str_const && value->call->kwargs.empty() && value->call->attrs.empty()) ||
        over_dynamic(*value) == 1) {
      dynamic_.insert(n);
      prog_.constants.push_back({std::move(n), std::move(value), 0, at, true});
      return true;
    }
    // A pypto name (`DTYPE = pl.FP32`, `OP = pld.ReduceOp.Sum`): a use of the constant is that name.
    if (value->kind == expr_kind::symbol && is_pypto_name(value->text)) {
      symbols_[n] = value->text;
      prog_.constants.push_back({std::move(n), std::move(value), 0, at});
      return true;
    }
    std::int64_t v = 0;
    NEURONRW_TRY(constant_value(*value, at, v));
    constants_[n] = v;
    prog_.constants.push_back({std::move(n), std::move(value), v, at});
    return true;
  }
  /// Whether `e` is an integer expression over dynamic dimensions: 1 when it is (integers,
  /// constants, arithmetic and at least one dynamic dimension), 0 when it is one without a
  /// dynamic dimension, -1 when it is no integer expression.
  int over_dynamic(const expr& e) const {
    switch (e.kind) {
      case expr_kind::int_const: return 0;
      case expr_kind::symbol: return dynamic_.count(e.text) ? 1 : -1;
      case expr_kind::arith: {
        if (op_of(e) == arith_op::truediv) return -1;  // a float
        int r = 0;
        for (const auto& a : e.args) {
          const int x = a ? over_dynamic(*a) : -1;
          if (x < 0) return -1;
          r = std::max(r, x);
        }
        return r;
      }
      default: return -1;
    }
  }
  /// A parameter of a function around the program used as a value (set_parameters): the
  /// program's constant or dynamic dimension from now on.
  void factory_parameter_use(const std::string& n) {
    for (const auto& q : *params_) {
      if (q.name != n) continue;
      const source_loc def{q.line, 1};
      if (q.value) {
        constants_[n] = *q.value;
        prog_.constants.push_back({n, make_int(*q.value, def), *q.value, def});
        return;
      }
      if (is_pypto_name(q.symbol)) {  // a dtype or an enum value: `NAME = pl.FP16`
        symbols_[n] = q.symbol;
        prog_.constants.push_back({n, make_symbol(q.symbol, def), 0, def});
        return;
      }
      std::vector<expr_ptr> args;
      args.push_back(make_str(n, def));
      auto value = make_call(callee_kind::op, "pl.dynamic", std::move(args), {}, {}, {}, def);
      value->call->type = infer_call_type(*value);
      dynamic_.insert(n);
      prog_.constants.push_back({n, std::move(value), 0, def, true});
      return;
    }
  }
  /// The value of a constant's expression (integers, other constants, arithmetic) into `out`:
  /// errors are located at the operator at fault.
  [[nodiscard]] bool constant_value(const expr& e, source_loc at, std::int64_t& out) {
    switch (e.kind) {
      case expr_kind::int_const: out = e.value; return true;
      case expr_kind::arith: {
        const arith_op op = op_of(e);
        std::int64_t a = 0, b = 0;
        NEURONRW_TRY(constant_value(*e.args[0], at, a));
        if (!is_unary(op)) NEURONRW_TRY(constant_value(*e.args[1], at, b));
        std::string why;
        if (!arith(op, a, b, out, why)) return fail(e.loc.known() ? e.loc : at, why);
        return true;
      }
      default: return fail(e.loc.known() ? e.loc : at, "a module constant must be an integer expression");
    }
  }
  /// Python's integer operators on int64; false (and why) on overflow, division by zero, a
  /// negative shift count or a result that is no integer (`/`, a negative power).
  static bool arith(arith_op op, std::int64_t a, std::int64_t b, std::int64_t& out, std::string& why) {
    const std::string sym(spelling(op));
    const std::string operands = is_unary(op) ? sym + std::to_string(a) : std::to_string(a) + " " + sym + " " + std::to_string(b);
    const auto overflow = [&] { return why = "integer overflow in '" + sym + "' (" + operands + ")", false; };
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
    switch (op) {
      case arith_op::add: return !__builtin_add_overflow(a, b, &out) || overflow();
      case arith_op::sub: return !__builtin_sub_overflow(a, b, &out) || overflow();
      case arith_op::mul: return !__builtin_mul_overflow(a, b, &out) || overflow();
      case arith_op::neg:
        if (a == min) return overflow();
        out = -a;
        return true;
      case arith_op::pos: out = a; return true;
      case arith_op::invert: out = ~a; return true;  // -a - 1, as Python's
      case arith_op::floordiv:
      case arith_op::mod: {
        if (b == 0)
          return why = std::string(op == arith_op::mod ? "modulo" : "division") + " by zero in '" + sym + "' (" + operands + ")", false;
        if (a == min && b == -1) {
          if (op == arith_op::mod) return out = 0, true;
          return overflow();
        }
        std::int64_t q = a / b, r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
          --q;
          r += b;
        }
        out = op == arith_op::floordiv ? q : r;
        return true;
      }
      case arith_op::truediv:
        return why = "'/' is true division, whose value is a float (" + operands + "): an integer constant uses '//'", false;
      case arith_op::pow: {
        if (b < 0) return why = "a negative exponent makes a float (" + operands + "): an integer constant needs one >= 0", false;
        // |a| ** b by square and multiply on magnitudes, saturating above 2**63 (so that
        // (-2) ** 63, the least int64, is exact), then the sign.
        constexpr std::uint64_t limit = std::uint64_t{1} << 63;
        std::uint64_t m = 1, base = a < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(a) : static_cast<std::uint64_t>(a);
        for (std::int64_t e = b; e > 0; e >>= 1) {
          if ((e & 1) && (__builtin_mul_overflow(m, base, &m) || m > limit)) return overflow();
          if (e > 1 && (__builtin_mul_overflow(base, base, &base) || base > limit)) base = limit + 1;
        }
        const bool negative = a < 0 && (b & 1);
        if (!negative && m == limit) return overflow();
        out = negative ? static_cast<std::int64_t>(std::uint64_t{0} - m) : static_cast<std::int64_t>(m);
        return true;
      }
      case arith_op::lshift:
      case arith_op::rshift: {
        if (b < 0) return why = "negative shift count in '" + sym + "' (" + operands + ")", false;
        if (op == arith_op::rshift) {
          out = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;  // floor, as Python's
          return true;
        }
        if (a == 0) return out = 0, true;
        if (b >= 63) return b == 63 && a == -1 ? (out = min, true) : overflow();
        const std::int64_t r = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
        if ((r >> b) != a) return overflow();
        out = r;
        return true;
      }
      case arith_op::bitand_: out = a & b; return true;
      case arith_op::bitor_: out = a | b; return true;
      case arith_op::bitxor: out = a ^ b; return true;
    }
    return false;
  }

  // ---- program structure ------------------------------------------------------------------
  /// A `@pl.function` method of the class, or (`external`) one defined outside it, which the
  /// class may call by its bare name: its `def` has no `self`.
  [[nodiscard]] bool parse_function(bool external = false) {
    if (first_bad(i_) < i_) return fail(peek().loc, "");  // (fail reports the bad token)
    for (; base_ < i_; ++base_) t_.pop_front();
    bad_from_ = i_;
    const source_loc at = peek().loc;
    const std::size_t line_begin = peek().off - (at.col - 1);  // indentation is spaces only
    NEURONRW_TRY(expect_punct("@", "before a function (@pl.function)"));
    NEURONRW_TRY(expect_path("pl.function", "a function decorator"));
    auto f = std::make_unique<function>();
    f->loc = at;
    std::optional<failure> other_keyword;  // the error at the first keyword pypto's decorator does not have
    bool attrs_seen = false;               // `attrs={}`: empty, but given
    if (at_punct("(")) {
      NEURONRW_TRY(list({.open = "(", .open_what = "after @pl.function", .sep = ",", .close = ")",
                         .close_what = "to close @pl.function("},
                        [&]() -> bool {
                          const source_loc kat = peek().loc;
                          std::string key;
                          NEURONRW_TRY(expect_ident("type=, level= or role=", key));
                          NEURONRW_TRY(expect_punct("=", "after a decorator keyword"));
                          // pypto's other keywords: kept (function::options, function::attrs).
                          if (key == "attrs" || key == "strict_ssa" || key == "auto_scope" || key == "external_source") {
                            bool dup = key == "attrs" && (!f->attrs.empty() || attrs_seen);
                            for (auto& o : f->options) dup = dup || o.name == key;
                            if (dup) return fail(kat, "duplicate keyword '" + key + "'");
                            const std::size_t value_at = i_;
                            bool read = false;
                            if (key == "attrs") {
                              attrs_seen = true;
                              read = parse_dict(f->attrs);
                            } else if (auto v = parse_expr()) {
                              f->options.push_back({key, std::move(v)});
                              read = true;
                            }
                            if (read) return true;
                            // A value the grammar does not read (`external_source=cpp`, a name of
                            // the test): an error unless the function is kept as written (below).
                            if (!other_keyword) other_keyword = error_;
                            failed_ = false;
                            error_ = {};
                            seek(value_at);
                            skip_keyword_value();
                            return true;
                          }
                          if (key == "level") {
                            if (!f->level.empty()) return fail(kat, "duplicate keyword 'level'");
                            return enum_value("pl.Level", f->level);
                          }
                          if (key == "role") {
                            if (!f->role.empty()) return fail(kat, "duplicate keyword 'role'");
                            return enum_value("pl.Role", f->role);
                          }
                          if (key == "type") {
                            if (!f->type.empty()) return fail(kat, "duplicate keyword 'type'");
                            return enum_value("pl.FunctionType", f->type);
                          }
                          // pypto's other keywords (`attrs={...}`, ...): an error unless the
                          // function is kept as written (below); the value is stepped over.
                          if (!other_keyword)
                            other_keyword = failure{kat, "unknown @pl.function keyword '" + key +
                                                             "' (expected type, level, role, attrs, strict_ssa, auto_scope or external_source)"};
                          skip_keyword_value();
                          return true;
                        }));
    }
    return finish_function(std::move(f), at, line_begin, external, std::move(other_keyword));
  }

  /// The rest of a function whose decorator `f` holds (read from `at`, its line starting at
  /// `line_begin`): its `def` and body, read, or kept as written when below the host and out of
  /// the grammar. A `jit_decorator` (not empty) makes it a JIT function (parse_jit_function),
  /// whose `def` has no `self`, and which is the program's; its text, when kept as written, is
  /// rewritten as pypto's specializer rewrites it (that decorator in place of the JIT one; `self`;
  /// `self.NAME(` for a call of another).
  [[nodiscard]] bool finish_function(std::unique_ptr<function> f, source_loc at, std::size_t line_begin, bool external,
                                     std::optional<failure> other_keyword, std::string_view jit_decorator = {}) {
    const bool jit = !jit_decorator.empty();
    // pypto's Function: a type implies a level and a role; an explicit one must agree.
    if (const auto l = implied_level(f->type); !l.empty() && !f->level.empty() && f->level != l)
      return fail(at, "Function has func_type=" + f->type + " which implies level=" + std::string(l) + ", but explicit level=" +
                   f->level + " was provided");
    if (const auto r = implied_role(f->type); !r.empty() && !f->role.empty() && f->role != r)
      return fail(at, "Function has func_type=" + f->type + " which implies role=" + std::string(r) + ", but explicit role=" +
                   f->role + " was provided");
    NEURONRW_TRY(expect_newline());
    // A function below the host (a kernel: InCore, AIC, AIV, Group; a chip orchestrator; any
    // explicit level but HOST) is read like any function when the host grammar reads it, else
    // kept as written: pypto's kernels load, store and compute on tiles, its chip orchestrators
    // use pl.at, pl.parallel, ..., and no pass of the host IR looks inside either (a host
    // orchestrator's dispatch names a chip orchestrator, nothing more).
    const std::string_view level = effective_level(*f);
    const bool below_host = effective_role(*f) == "SubWorker" || (!level.empty() && level != "HOST");
    const auto keep = [&] {
      if (jit && !function_names_.insert(f->name).second) return fail(f->loc, "duplicate function '" + f->name + "'");
      if (external && !jit) add_external(std::move(f));
      else prog_.functions.push_back(std::move(f));
      return true;
    };
    if (!below_host) {
      if (other_keyword) return fail(other_keyword->loc, other_keyword->message);
      NEURONRW_TRY(parse_def(*f, external || jit));
      return keep();
    }
    const std::size_t def_at = i_, calls = calls_.size(), warnings = warnings_.size(), names = function_names_.size();
    if (!other_keyword && parse_def(*f, external || jit)) return keep();
    if (jit_annotation_failed_) return false;  // not a function out of the grammar: one the file cannot give
    const failure why = other_keyword ? *other_keyword : error_;
    failed_ = false;
    error_ = {};
    names_ = names::lexical;  // a failure inside a WindowBuffer's size leaves another mode
    seek(def_at);
    calls_.resize(calls);
    warnings_.resize(warnings);
    if (function_names_.size() > names) function_names_.erase(f->name);  // not an earlier function's (a duplicate)
    f->params.clear();
    f->directions.clear();
    f->return_type.reset();
    f->body.clear();
    f->doc.clear();
    f->options.clear();
    f->attrs.clear();
    if (!keep_as_written(*f, line_begin, external || jit)) {
      error_ = why;  // not even a def with an indented body: the grammar's error says more
      return false;
    }
    if (external || jit) {  // a method of the program from now on: `def NAME(self, ...)`
      const std::string head = "def " + f->name + "(";
      if (const auto at_def = f->verbatim.find(head); at_def != std::string::npos) {
        std::size_t k = at_def + head.size();
        while (k < f->verbatim.size() && (f->verbatim[k] == ' ' || f->verbatim[k] == '\n')) ++k;
        f->verbatim.insert(at_def + head.size(), k < f->verbatim.size() && f->verbatim[k] == ')' ? "self" : "self, ");
        if (jit) {
          // pypto's decorator in place of the JIT one(s), and its `self.NAME(` for each call of
          // another JIT function of the program.
          const std::size_t line = f->verbatim.rfind('\n', at_def);
          f->verbatim.replace(0, line == std::string::npos ? 0 : line + 1, std::string(jit_decorator) + "\n");
          f->verbatim = qualify_jit_calls(f->verbatim);
        }
      }
    }
    return keep();
  }

  /// `text` (a JIT function kept as written) with `self.` before each call of a JIT function of
  /// the program by its bare name (outside strings and comments; not an attribute).
  std::string qualify_jit_calls(const std::string& text) const {
    std::string out;
    std::size_t copied = 0;
    for_each_bare_name(text, [&](std::string_view n) {
      const std::size_t b = static_cast<std::size_t>(n.data() - text.data());
      std::size_t k = b + n.size();
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      if (k >= text.size() || text[k] != '(' || !jit_names_.count(std::string(n))) return;
      // not the `def NAME(` of the function itself
      std::size_t d = b;
      while (d > 0 && (text[d - 1] == ' ' || text[d - 1] == '\t')) --d;
      if (d >= 3 && text.compare(d - 3, 3, "def") == 0 && (d == 3 || !is_ident_char(text[d - 4]))) return;
      out.append(text, copied, b - copied);
      out += "self.";
      copied = b;
    });
    out.append(text, copied, std::string::npos);
    return out;
  }

  /// A `@pl.jit` function of a JIT program (set_jit): its decorator, as pypto's specializer
  /// rewrites it (`@pl.jit` → `@pl.function(type=pl.FunctionType.Orchestration)`, `@pl.jit.host`
  /// → `@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)`, `@pl.jit.incore[(level=L)]`
  /// → `@pl.function(type=pl.FunctionType.InCore[, level=L])`, `@pl.jit.inline` → `Inline`,
  /// `@pl.jit.opaque` → `Opaque`; `auto_scope=False` kept), then the function as any other.
  [[nodiscard]] bool parse_jit_function() {
    if (first_bad(i_) < i_) return fail(peek().loc, "");  // (fail reports the bad token)
    for (; base_ < i_; ++base_) t_.pop_front();
    bad_from_ = i_;
    const source_loc at = peek().loc;
    const std::size_t line_begin = peek().off - (at.col - 1);
    for (int k = 0; k < 4; ++k) next();  // @ pl . jit
    std::string kind = "jit";  // as pypto's errors name it
    if (at_punct(".")) {
      next();
      std::string sub;
      NEURONRW_TRY(expect_ident("a JIT decorator (host, incore, inline, opaque)", sub));
      kind = "jit." + sub;
      if (sub == "extern")
        return fail(at, "pypto's @pl.jit.extern kernels (C++ sources named by the decorator) are not read");
      if (sub != "host" && sub != "incore" && sub != "inline" && sub != "opaque")
        return fail(at, "unknown JIT decorator '@pl." + kind + "' (pypto's are @pl.jit, @pl.jit.host, @pl.jit.incore, "
                        "@pl.jit.inline, @pl.jit.opaque and @pl.jit.extern)");
    }
    auto f = std::make_unique<function>();
    f->loc = at;
    if (kind == "jit") f->type = "Orchestration";
    else if (kind == "jit.host") f->level = "HOST", f->role = "Orchestrator";
    else if (kind == "jit.incore") f->type = "InCore";
    else if (kind == "jit.inline") f->type = "Inline";
    else f->type = "Opaque";
    bool scope_seen = false;
    if (at_punct("(")) {
      NEURONRW_TRY(list({.open = "(", .open_what = "after @pl." + kind, .sep = ",", .close = ")",
                         .close_what = "to close @pl." + kind + "("},
                        [&]() -> bool {
                          const source_loc kat = peek().loc;
                          std::string key;
                          NEURONRW_TRY(expect_ident("a keyword argument", key));
                          NEURONRW_TRY(expect_punct("=", "after a decorator keyword"));
                          if (key == "level" && kind == "jit.incore") {
                            if (!f->level.empty()) return fail(kat, "duplicate keyword 'level'");
                            return enum_value("pl.Level", f->level);
                          }
                          if (key == "auto_scope" && (kind == "jit" || kind == "jit.host" || kind == "jit.inline")) {
                            if (scope_seen) return fail(kat, "duplicate keyword 'auto_scope'");
                            scope_seen = true;
                            const source_loc vat = peek().loc;
                            if (!at_name("True") && !at_name("False"))
                              return fail(vat, "expected True or False for auto_scope=");
                            // pypto writes `auto_scope=False` only; True is its default
                            if (text(next()) == "False") f->options.push_back({key, make_bool(false, vat)});
                            return true;
                          }
                          if (key == "level") return fail(kat, "@pl." + kind + " does not accept a level= argument");
                          if (key == "auto_scope")
                            return fail(kat, "@pl." + kind + " does not accept an auto_scope= argument (auto_scope is only "
                                             "meaningful for the Orchestration entry, the HOST orchestrator, and inline "
                                             "sub-functions)");
                          return fail(kat, "@pl." + kind + " got an unexpected keyword argument '" + key + "'");
                        }));
    }
    std::string deco = "@pl.function(";
    if (!f->type.empty()) deco += "type=pl.FunctionType." + f->type;
    if (!f->level.empty()) deco += std::string(f->type.empty() ? "" : ", ") + "level=pl.Level." + f->level;
    if (!f->role.empty()) deco += ", role=pl.Role." + f->role;
    if (!f->options.empty()) deco += ", auto_scope=False";
    deco += ")";
    jit_def_ = true;
    const bool ok = finish_function(std::move(f), at, line_begin, false, std::nullopt, deco);
    jit_def_ = false;
    return ok;
  }

  /// The annotation of the JIT function's parameter `pn` at the cursor: an error for those whose
  /// meaning pypto's JIT takes from the call (a bare `pl.Tensor`: the tensor's shape and dtype; a
  /// bare dtype: the scalar's value), which is not in the file.
  [[nodiscard]] bool jit_annotation(const std::string& pn) {
    std::size_t k = 0;
    if (at_name("pl") && at_punct(".", 1) && (at_name("Out", 2) || at_name("InOut", 2)) && at_punct("[", 3)) k = 4;
    if (!(at_name("pl", k) || at_name("pld", k)) || !at_punct(".", k + 1) || peek(k + 2).kind != tok::name ||
        at_punct("[", k + 3) || at_punct(".", k + 3))
      return true;
    const std::string written = std::string(text(peek(k))) + "." + std::string(text(peek(k + 2)));
    const std::string n(text(peek(k + 2)));
    const source_loc at = peek(k).loc;
    jit_annotation_failed_ = true;
    if (n == "Tensor" || n == "DistributedTensor")
      return fail(at, "parameter '" + pn + "': a bare " + written + " takes its shape and dtype from the tensor the @pl.jit "
                      "function is called with, which the file does not hold; give them (" + written +
                      "[[64, 128], pl.FP32]) to read the function without a call");
    if (n == "Scalar" || (k == 0 && text(peek(k)) == "pl" && ops::dtype_bytes(n) != 0))
      return fail(at, "parameter '" + pn + "': a scalar annotated " + written + " takes the value the @pl.jit function "
                      "is called with, which the file does not hold; annotate it pl.Scalar[" +
                      (n == "Scalar" ? std::string("pl.INDEX") : written) + "] to read it as a parameter");
    jit_annotation_failed_ = false;
    return true;
  }

  /// The end of a JIT program (set_jit): its functions in pypto's order, its name pypto's.
  [[nodiscard]] bool finish_jit_program(std::size_t blocks) {
    for (; blocks > 0; --blocks) NEURONRW_TRY(expect(tok::dedent, "the end of the block around the program"));
    NEURONRW_TRY(expect(tok::eof, "the end of input after the program's functions"));
    prog_.name = jit_->name;
    std::unordered_map<std::string_view, std::size_t> rank;
    for (std::size_t k = jit_->jit_functions.size(); k-- > 0;) rank[jit_->jit_functions[k]] = k;
    const auto rank_of = [&](const std::string& n) {
      const auto it = rank.find(n);
      return it == rank.end() ? rank.size() : it->second;
    };
    std::stable_sort(prog_.functions.begin(), prog_.functions.end(),
                     [&](const auto& a, const auto& b) { return rank_of(a->name) < rank_of(b->name); });
    for (auto& [name, loc] : calls_)
      if (!function_names_.count(name)) return fail(loc, "call of undefined function '" + name + "'");
    return true;
  }

  /// Records the function `f`, defined outside the class, under its own name.
  void add_external(std::unique_ptr<function> f) {
    external e;
    e.name = f->name;
    e.loc = f->loc;
    e.fn = std::move(f);
    externals_.push_back(std::move(e));
    bind_names(externals_.size() - 1);
  }

  /// `@pl.inline` then `def NAME(PARAMS) [-> T]:` and a body, outside the class: the body is kept
  /// as tokens, read at each call (expand_inline); the annotations are not read (pypto binds each
  /// parameter to its argument as it is).
  [[nodiscard]] bool parse_inline_def() {
    external e;
    e.is_inline = true;
    e.loc = peek().loc;
    next();  // '@'
    NEURONRW_TRY(expect_path("pl.inline", "a function decorator"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect_keyword("def"));
    NEURONRW_TRY(binding_name("a function name", e.name));
    NEURONRW_TRY(expect_punct("(", "after the function name"));
    // Steps over an annotation, to the `stop` punctuation at the depth it starts at.
    const auto skip_to = [&](std::string_view stop_a, std::string_view stop_b) {
      for (std::size_t open = 0; !is(tok::eof) && !is(tok::newline); next()) {
        if (open == 0 && (at_punct(stop_a) || at_punct(stop_b))) return;
        if (at_punct("(") || at_punct("[") || at_punct("{")) ++open;
        else if (at_punct(")") || at_punct("]") || at_punct("}")) --open;
      }
    };
    while (!at_punct(")")) {
      const source_loc pat = peek().loc;
      std::string pn;
      NEURONRW_TRY(binding_name("a parameter name", pn));
      for (const auto& other : e.params)
        if (other == pn) return fail(pat, "duplicate parameter '" + pn + "'");
      e.params.push_back(std::move(pn));
      if (at_punct(":")) {
        next();
        skip_to(",", ")");
      }
      if (!at_punct(",")) break;
      next();
    }
    NEURONRW_TRY(expect_punct(")", "to close the parameter list"));
    if (at_punct("->")) {
      next();
      skip_to(":", ":");
    }
    NEURONRW_TRY(expect_punct(":", "after the function signature"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect(tok::indent, "an indented function body"));
    for (std::size_t depth = 1;;) {
      if (is(tok::eof)) return expect(tok::dedent, "the end of the function body");
      if (is(tok::indent)) ++depth;
      else if (is(tok::dedent) && --depth == 0) break;
      e.body.push_back(peek());
      next();
    }
    e.body.push_back(peek());  // the dedent
    token end = peek();
    end.kind = tok::eof;
    e.body.push_back(end);
    next();
    externals_.push_back(std::move(e));
    bind_names(externals_.size() - 1);
    return true;
  }

  /// Binds the names of `externals_[k]`, just read: those locate.hpp lists for its line, or its
  /// own name. A function read later may call it (in pypto, a function calls those defined
  /// before it).
  void bind_names(std::size_t k) {
    if (function_bindings_ == nullptr) {
      external_names_[externals_[k].name] = k;
      return;
    }
    for (const auto& [n, line] : *function_bindings_)
      if (externals_[k].loc.line == line) external_names_[n] = k;
  }

  /// Whether a keyword argument `NAME=` is among the arguments of the call whose '(' is the next
  /// token: its location then in `*at`.
  bool keyword_in_call(source_loc* at, std::string* name) const {
    std::size_t open = 0;
    for (std::size_t k = 0; peek(k).kind != tok::eof; ++k) {
      if (at_punct("(", k) || at_punct("[", k) || at_punct("{", k)) ++open;
      else if (at_punct(")", k) || at_punct("]", k) || at_punct("}", k)) {
        if (--open == 0) return false;
      } else if (open == 1 && peek(k).kind == tok::name && at_punct("=", k + 1)) {
        *at = peek(k).loc;
        *name = std::string(text(peek(k)));
        return true;
      }
    }
    return false;
  }

  /// A call of the function `externals_[k]` by the bare name `local`: a @pl.function one is a
  /// call of the program's function of its name (the function joins the program at the end);
  /// an @pl.inline one is expanded where it is called.
  expr_ptr call_external(std::size_t k, source_loc at) {
    {
      source_loc kat;
      std::string kn;
      if (keyword_in_call(&kat, &kn)) {
        fail(kat, "Function '" + externals_[k].name + "' does not accept keyword argument '" + kn + "'");
        return {};
      }
    }
    if (externals_[k].is_inline) return expand_inline(k, at);
    external& e = externals_[k];
    for (const std::size_t o : called_externals_)
      if (o != k && externals_[o].name == e.name) {
        fail(at, "Conflicting external functions with name '" + e.name + "'");
        return {};
      }
    auto c = parse_call(callee_kind::function, e.name, at);
    NEURONRW_TRY(c);
    external& e2 = externals_[k];
    const function* f = e2.fn.get();  // joins the program only after the class is read
    if (f != nullptr && f->verbatim.empty() && c->args.size() != f->params.size()) {
      fail(at, "Function '" + e2.name + "' expects " + std::to_string(f->params.size()) + " argument(s), got " +
                   std::to_string(c->args.size()));
      return {};
    }
    if (!e2.called) {
      e2.called = true;
      e2.first_call = at;
      called_externals_.push_back(k);
    }
    return c;
  }

  /// A copy of the argument `arg` of the parameter `n`, at a use of `n` at `at` in an inline body.
  /// A copy nests at most max_nesting deep, so that expressions built of copies stay as shallow as
  /// the parser's own (the printer, hash and clone recurse over them); the copies count towards
  /// max_inline_work.
  expr_ptr argument_copy(const expr& arg, const std::string& n, source_loc at) {
    std::size_t nodes = 0, deepest = 0;
    std::vector<std::pair<const expr*, std::size_t>> todo{{&arg, 1}};
    while (!todo.empty()) {
      const auto [e, depth] = todo.back();
      todo.pop_back();
      ++nodes;
      deepest = std::max(deepest, depth);
      if (deepest > max_nesting) break;
      for (const auto& a : e->args)
        if (a) todo.emplace_back(a.get(), depth + 1);
      if (e->call)
        for (const auto* ks : {&e->call->kwargs, &e->call->attrs})
          for (const auto& kw : *ks)
            if (kw.value) todo.emplace_back(kw.value.get(), depth + 1);
    }
    if (deepest > max_nesting) {
      fail(at, "the argument of parameter '" + n + "' nests more than " + std::to_string(max_nesting) +
                   " expressions deep (inline calls nested in their own arguments): too deep");
      return {};
    }
    inline_work_ += nodes;
    if (inline_work_ > max_inline_work) {
      fail(at, "the inline expansions reach " + std::to_string(max_inline_work) + " tokens and copied arguments at this use "
                   "of parameter '" + n + "': too large");
      return {};
    }
    return cloner{}.clone_expr(arg);
  }

  /// The call of the inline function `externals_[k]` whose '(' is the next token: its body's
  /// statements are read into the statement list being read, each parameter standing for its
  /// argument, and the call is the value its `return` gives (pypto's @pl.inline).
  expr_ptr expand_inline(std::size_t k, source_loc at) {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    const std::string name = externals_[k].name;
    std::vector<expr_ptr> args;
    NEURONRW_TRY(list({.open = "(", .open_what = "to open the arguments", .sep = ",", .close = ")",
                       .close_what = "to close the arguments"},
                      [&] {
                        args.push_back(parse_expr());
                        return args.back() != nullptr;
                      }));
    const auto& params = externals_[k].params;
    if (args.size() != params.size()) {
      fail(at, "Inline function '" + name + "' expects " + std::to_string(params.size()) + " argument(s), got " +
                   std::to_string(args.size()));
      return {};
    }
    if (sink_ == nullptr) {
      fail(at, "a call of inline function '" + name + "' outside a statement of a function body (its body is "
                   "expanded into the statements where it is called)");
      return {};
    }
    for (const auto& f : inlines_)
      if (f.ext == k) {
        fail(at, "inline function '" + name + "' calls itself (an inline function is expanded at every call, so a "
                     "recursive one never ends)");
        return {};
      }
    inline_work_ += externals_[k].body.size();
    if (inline_work_ > max_inline_work) {
      fail(at, "the inline expansions reach " + std::to_string(max_inline_work) + " tokens and copied arguments at this call "
                   "of '" + name + "' (each call expands the whole body, and its inline calls in turn): too large");
      return {};
    }
    inline_frame frame;
    frame.ext = k;
    for (std::size_t a = 0; a < args.size(); ++a) frame.args[params[a]] = std::move(args[a]);
    inlines_.push_back(std::move(frame));
    // Read the body's tokens in place of the program's, then go back.
    std::deque<token> body(externals_[k].body.begin(), externals_[k].body.end());
    std::swap(t_, body);
    const std::size_t saved_i = i_, saved_base = base_, saved_bad = bad_from_;
    base_ = bad_from_ = 0;
    seek(0);
    if (is(tok::string) && peek(1).kind == tok::newline) next(), next();  // the docstring
    bool ok = true;
    while (ok && !is(tok::dedent) && !is(tok::eof)) ok = parse_stmt(*sink_);
    std::swap(t_, body);
    base_ = saved_base;
    bad_from_ = saved_bad;
    seek(saved_i);
    inline_frame done = std::move(inlines_.back());
    inlines_.pop_back();
    if (!ok) return {};
    if (!done.returned || !done.value) {
      fail(at, "Inline function '" + name + "' has no return value");
      return {};
    }
    return std::move(done.value);
  }

  /// Steps over a decorator keyword's value, to the ',' or ')' after it.
  void skip_keyword_value() {
    for (std::size_t open = 0; !is(tok::eof) && !is(tok::newline);) {
      if (open == 0 && (at_punct(",") || at_punct(")"))) break;
      if (at_punct("(") || at_punct("[") || at_punct("{")) ++open;
      else if (at_punct(")") || at_punct("]") || at_punct("}")) --open;
      next();
    }
  }

  /// Function `f` kept as written (function::verbatim): its name from `def NAME`, then every
  /// token to the end of its indented body, read as Python's layout only.
  [[nodiscard]] bool keep_as_written(function& f, std::size_t line_begin, bool external = false) {
    NEURONRW_TRY(expect_keyword("def"));
    const source_loc name_at = peek().loc;
    NEURONRW_TRY(binding_name("a function name", f.name));
    if (!external && !function_names_.insert(f.name).second) return fail(name_at, "duplicate function '" + f.name + "'");
    while (!is(tok::newline) && !is(tok::eof)) next();  // the signature's logical line
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect(tok::indent, "an indented function body"));
    std::size_t depth = 1;
    std::uint32_t end = 0;  // the source offset of the body's last line end
    while (depth > 0) {
      if (is(tok::eof)) return expect(tok::dedent, "the end of the function body");
      if (is(tok::indent)) ++depth;
      else if (is(tok::dedent)) --depth;
      else if (is(tok::newline)) end = peek().off;
      next();
    }
    bad_from_ = i_;
    // The text from the decorator's line to the body's last line end, without f's indentation.
    // The function's indentation as the lexer measures it: its spaces (a form feed counts none).
    std::size_t width = 0;
    for (std::size_t k = line_begin; k < line_begin + (f.loc.col - 1); ++k) width += src_[k] == ' ';
    std::size_t b = line_begin;
    std::string& out = f.verbatim;
    while (b < end) {
      std::size_t e = b;
      while (e < end && src_[e] != '\n' && src_[e] != '\r') ++e;
      // Each line loses its leading spaces and form feeds up to `width` spaces.
      std::size_t k = b;
      for (std::size_t spaces = 0; k < e && spaces < width && (src_[k] == ' ' || src_[k] == '\f'); ++k)
        spaces += src_[k] == ' ';
      if (b != line_begin) out += '\n';
      out.append(src_.substr(k, e - k));
      b = e + (e < end && src_[e] == '\r' && e + 1 < end && src_[e + 1] == '\n' ? 2 : 1);
    }
    // A body whose last line ends in a line continuation takes in the blank lines after it; they
    // print as empty lines that read back as fewer (found by the DSL mutation test): dropped.
    for (std::size_t nl = out.rfind('\n'); nl != std::string::npos && out.find_first_not_of(" \t\f", nl + 1) == std::string::npos;
         nl = out.rfind('\n'))
      out.erase(nl);
    return true;
  }

  /// `def NAME(self, params) -> T:` and the indented body, into `f`.
  [[nodiscard]] bool parse_def(function& f_, bool external = false) {
    function* f = &f_;
    NEURONRW_TRY(expect_keyword("def"));
    const source_loc name_at = peek().loc;
    NEURONRW_TRY(binding_name("a function name", f->name));
    if (!external && !function_names_.insert(f->name).second) return fail(name_at, "duplicate function '" + f->name + "'");
    function_name_ = f->name;
    scopes_.assign(1, {});
    yields_.assign(1, {});
    bindings_.clear();
    windows_.clear();
    window_order_.clear();
    NEURONRW_TRY(expect_punct("(", "after the function name"));
    // Not parse_list: `self` must come first, and `def f()` says so ("expected 'self'"); a
    // function outside the class has none.
    bool first = external;
    if (!external) NEURONRW_TRY(expect_keyword("self"));
    while (first ? !at_punct(")") : at_punct(",")) {
      if (!first) next();
      first = false;
      if (at_punct(")")) break;
      const source_loc pat = peek().loc;
      std::string pn;
      NEURONRW_TRY(binding_name("a parameter name", pn));
      if (scopes_.back().count(pn)) return fail(pat, "duplicate parameter '" + pn + "'");
      type pt;
      param_direction dir = param_direction::in;
      if (at_punct(":")) {
        next();
        if (jit_def_) NEURONRW_TRY(jit_annotation(pn));
        // pypto's direction wrappers: `x: pl.Out[T]`, `x: pl.InOut[T]`.
        if ((at_name("pl") && at_punct(".", 1) && (at_name("Out", 2) || at_name("InOut", 2))) && at_punct("[", 3)) {
          next();
          next();
          dir = text(next()) == "Out" ? param_direction::out : param_direction::inout;
          next();
          NEURONRW_TRY(parse_type(pt));
          NEURONRW_TRY(expect_punct("]", dir == param_direction::out ? "to close pl.Out[" : "to close pl.InOut["));
        } else {
          NEURONRW_TRY(parse_type(pt));
        }
      }
      if (dir != param_direction::in || !f->directions.empty()) {
        f->directions.resize(f->params.size(), param_direction::in);
        f->directions.push_back(dir);
      }
      f->params.push_back(bind(pn, std::move(pt), pat));
    }
    NEURONRW_TRY(expect_punct(")", "to close the parameter list"));
    if (at_punct("->")) {
      next();
      NEURONRW_TRY(parse_type(f->return_type.emplace()));
    }
    NEURONRW_TRY(expect_punct(":", "after the function signature"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect(tok::indent, "an indented function body"));
    if (is(tok::string) && peek(1).kind == tok::newline) {  // the docstring
      f->doc = std::string(text(next()));
      next();
    }
    // WindowBuffer declarations come first; their base and size bind once the body is parsed.
    while (at_window_decl()) NEURONRW_TRY(parse_window_decl());
    while (!is(tok::dedent) && !is(tok::eof)) NEURONRW_TRY(parse_stmt(f->body));
    NEURONRW_TRY(expect(tok::dedent, "the end of the function body"));
    NEURONRW_TRY(finish_windows());
    return true;
  }

  [[nodiscard]] bool enum_value(std::string_view prefix, std::string& out) {
    const source_loc at = peek().loc;
    std::string path;
    NEURONRW_TRY(dotted(path));
    const std::string want = std::string(prefix) + ".";
    if (path.size() <= want.size() || path.compare(0, want.size(), want) != 0 ||
        path.find('.', want.size()) != std::string::npos)
      return fail(at, "expected " + std::string(prefix) + ".NAME, got '" + path + "'");
    out = path.substr(want.size());
    return true;
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
  [[nodiscard]] bool parse_window_decl() {
    const source_loc at = peek().loc;
    for (int k = 0; k < 5; ++k) next();
    NEURONRW_TRY(expect_punct("(", "after pl._dump.window_buffer"));
    const std::size_t sig_begin = i_;
    const source_loc label_at = peek().loc;
    std::string label;
    NEURONRW_TRY(expect_label(label));
    std::optional<std::string> base;
    bool have_base = false, have_size = false, have_load = false, have_store = false;
    std::size_t size_token = 0;
    bool load = false, store = false;
    // Not parse_list: the label must come first, and `pl._dump.window_buffer()` says so.
    while (at_punct(",")) {
      next();
      if (at_punct(")")) break;
      const source_loc kat = peek().loc;
      std::string key;
      NEURONRW_TRY(expect_ident("base=, size=, load_from_host= or store_to_host=", key));
      NEURONRW_TRY(expect_punct("=", "after '" + key + "'"));
      auto once = [&](bool& seen) {
        if (seen) return fail(kat, "duplicate keyword '" + key + "'");
        seen = true;
        return true;
      };
      if (key == "base") {
        NEURONRW_TRY(once(have_base));
        if (at_name("None")) next();
        else NEURONRW_TRY(expect_string("a base variable name string or None", base.emplace()));
      } else if (key == "size") {
        NEURONRW_TRY(once(have_size));
        if (at_name("None") && (at_punct(",", 1) || at_punct(")", 1))) {
          next();
        } else {
          size_token = i_;
          names_ = names::skip;
          NEURONRW_TRY(parse_expr());  // syntax only: the names bind in finish_windows
          names_ = names::lexical;
        }
      } else if (key == "load_from_host") {
        NEURONRW_TRY(once(have_load));
        NEURONRW_TRY(parse_bool(load));
      } else if (key == "store_to_host") {
        NEURONRW_TRY(once(have_store));
        NEURONRW_TRY(parse_bool(store));
      } else {
        return fail(kat, "unknown pl._dump.window_buffer keyword '" + key + "'");
      }
    }
    const std::size_t sig_end = i_;
    NEURONRW_TRY(expect_punct(")", "to close pl._dump.window_buffer("));
    NEURONRW_TRY(expect_newline());
    if (!have_base) return fail(at, "pl._dump.window_buffer(" + quote(label) + ") needs base=");
    if (!have_size) return fail(at, "pl._dump.window_buffer(" + quote(label) + ") needs size=");
    std::string signature;
    for (std::size_t k = sig_begin + 1; k < sig_end; ++k) {
      signature += std::to_string(static_cast<int>(t_[k - base_].kind)) + ":";
      signature += text(t_[k - base_]);
      signature += "\x1f";
    }
    window_entry& w = entry(label);
    if (w.declared) {
      if (w.signature == signature) return fail(label_at, "duplicate window " + quote(label));
      return fail(label_at, "conflicting window " + quote(label) + ": declared again with a different base, size or flags");
    }
    w.declared = true;
    w.decl_loc = at;
    w.signature = std::move(signature);
    w.base = std::move(base);
    w.size_token = size_token;
    w.obj->load_from_host = load;
    w.obj->store_to_host = store;
    w.obj->loc = at;
    return true;
  }

  [[nodiscard]] bool parse_bool(bool& out) {
    if (at_name("True")) {
      next();
      out = true;
      return true;
    }
    if (at_name("False")) {
      next();
      out = false;
      return true;
    }
    return unexpected("True or False");
  }

  /// A window label: a non-empty string (pypto's parser rejects an empty one too).
  [[nodiscard]] bool expect_label(std::string& label) {
    const source_loc at = peek().loc;
    NEURONRW_TRY(expect_string("a window label string", label));
    if (label.empty()) return fail(at, "a window label must not be empty");
    return true;
  }

  /// The window named by `pl._dump.window_ref("label")`; null on failure.
  window_ptr parse_window_ref() {
    const source_loc at = peek().loc;
    std::string path;
    NEURONRW_TRY(dotted(path));
    if (path != "pl._dump.window_ref") {
      fail(at, "expected pl._dump.window_ref(\"label\"), got '" + path + "'");
      return {};
    }
    NEURONRW_TRY(expect_punct("(", "after pl._dump.window_ref"));
    std::string label;
    NEURONRW_TRY(expect_label(label));
    NEURONRW_TRY(expect_punct(")", "to close pl._dump.window_ref("));
    window_entry& w = entry(label);
    if (!w.declared && !w.first_ref.known()) w.first_ref = at;
    return w.obj;
  }

  /// A name in a WindowBuffer's base or size: exactly one binding of the function must have it.
  [[nodiscard]] bool resolve_function_name(const std::string& n, const std::string& label, source_loc at,
                                           std::string_view what, var*& out) {
    auto it = bindings_.find(n);
    if (it == bindings_.end() || it->second.empty())
      return fail(at, "window " + quote(label) + ": " + std::string(what) + " '" + n + "' is not defined in function '" +
                   function_name_ + "'");
    if (it->second.size() > 1)
      return fail(at, "window " + quote(label) + ": " + std::string(what) + " '" + n + "' is ambiguous (bound " +
                   std::to_string(it->second.size()) + " times in function '" + function_name_ + "')");
    out = it->second.front();
    return true;
  }

  [[nodiscard]] bool finish_windows() {
    for (const std::string& label : window_order_) {
      window_entry& w = windows_[label];
      if (!w.declared) return fail(w.first_ref, "undefined window reference " + quote(label));
      if (w.base) {
        var* base = nullptr;
        NEURONRW_TRY(resolve_function_name(*w.base, label, w.decl_loc, "base", base));
        w.obj->base = base;
      }
      if (w.size_token) {
        const std::size_t resume = i_;
        seek(w.size_token);
        names_ = names::function_wide;
        window_label_ = label;
        w.obj->size = parse_expr();
        NEURONRW_TRY(w.obj->size);
        names_ = names::lexical;
        seek(resume);
      }
    }
    return true;
  }

  // ---- types ------------------------------------------------------------------------------
  [[nodiscard]] bool dtype(std::string& out) {
    const source_loc at = peek().loc;
    std::string path;
    NEURONRW_TRY(dotted(path));
    if (path.find('.') == std::string::npos) {  // a constant bound to a dtype, or a factory's parameter
      if (params_ != nullptr && !dynamic_.count(path) && !constants_.count(path) && !symbols_.count(path))
        factory_parameter_use(path);
      if (const auto s = symbols_.find(path); s != symbols_.end()) {
        if (s->second.size() > 3 && s->second.starts_with("pl.") && s->second.find('.', 3) == std::string::npos) {
          out = s->second.substr(3);
          return true;
        }
        return fail(at, "expected a dtype pl.NAME, got '" + path + "' (= " + s->second + ")");
      }
      if (dynamic_.count(path))
        return fail(at, "expected a dtype pl.NAME, got '" + path +
                            "', an integer known at run time (a factory's parameter without a value the reader "
                            "knows, or a constant over one): give the parameter its dtype "
                            "(neuronrw-opt --host-parameter=NAME=pl.FP32)");
    }
    if (path.size() <= 3 || path.compare(0, 3, "pl.") != 0 || path.find('.', 3) != std::string::npos)
      return fail(at, "expected a dtype pl.NAME, got '" + path + "'");
    out = path.substr(3);
    return true;
  }
  [[nodiscard]] bool shape(std::vector<dim>& out) {
    return list({.open = "[", .open_what = "to open a shape", .sep = ",", .close = "]", .close_what = "to close a shape"},
                [&]() -> bool {
                  auto e = parse_expr();
                  NEURONRW_TRY(e);
                  if (e->kind == expr_kind::float_const || e->kind == expr_kind::boolean)
                    return fail(e->loc, "a shape dimension is an integer expression, not a float or a condition");
                  if (const expr* d = true_division(*e))
                    return fail(d->loc, "'/' is true division, whose value is a float: a shape dimension uses '//'");
                  out.push_back(dim_of(std::move(e)));
                  return true;
                });
  }
  /// The first `/` of the arithmetic `e` is (itself or an operand's, to any depth), or null.
  static const expr* true_division(const expr& e) {
    if (e.kind != expr_kind::arith) return nullptr;
    if (op_of(e) == arith_op::truediv) return &e;
    for (const auto& a : e.args)
      if (const expr* d = a ? true_division(*a) : nullptr) return d;
    return nullptr;
  }
  /// A shape dimension: an integer, a variable, or any other integer expression (`SIZE`,
  /// `pld.world_size()`, `n * 2`), kept as written.
  static dim dim_of(expr_ptr e) {
    if (e->kind == expr_kind::int_const && e->text.empty() && !(e->flags & expr_flags::parenthesized))
      return {e->value, nullptr};
    if (e->kind == expr_kind::var_ref && !(e->flags & expr_flags::parenthesized)) return {0, e->ref};
    return {0, nullptr, std::shared_ptr<const expr>(std::move(e))};
  }
  [[nodiscard]] bool parse_type(type& out) {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    const source_loc at = peek().loc;
    if (!is(tok::name)) return unexpected("a type");
    std::string spelled;
    NEURONRW_TRY(dotted(spelled));
    const std::string path = alias_path(spelled);
    if (path == "pl.UnknownType") {
      out = type::unknown();
      return true;
    }
    if (path == "tuple" || path == "pl.Tuple") {  // pypto's pl.Tuple[...] is Python's tuple[...]
      std::vector<type> elems;
      const std::string after = "after " + path, close = "to close " + path + "[";
      NEURONRW_TRY(list({.open = "[", .open_what = after, .sep = ",", .close = "]", .close_what = close},
                        [&] { return parse_type(elems.emplace_back()); }));
      out = type::tuple(std::move(elems));
      return true;
    }
    if (path == "pl.Ptr") {
      out = type::ptr();
      return true;
    }
    if (path == "pld.CommCtx" || path == "pld.CommCtxType") {  // pypto's DSL name and its IR's, one type
      out = type::comm_ctx();
      return true;
    }
    if (path == "pl.Scalar") {
      NEURONRW_TRY(expect_punct("[", "after pl.Scalar"));
      std::string d;
      NEURONRW_TRY(dtype(d));
      NEURONRW_TRY(expect_punct("]", "to close pl.Scalar["));
      out = type::scalar(std::move(d));
      return true;
    }
    if (path == "pl.Tensor" || path == "pld.DistributedTensor" || path == "pl.Tile") {
      NEURONRW_TRY(expect_punct("[", "after " + path));
      std::vector<dim> s;
      NEURONRW_TRY(shape(s));
      NEURONRW_TRY(expect_punct(",", "after the shape"));
      std::string d;
      NEURONRW_TRY(dtype(d));
      window_ptr w;
      if (path == "pld.DistributedTensor" && at_punct(",") && !at_punct("]", 1)) {
        next();
        w = parse_window_ref();
        NEURONRW_TRY(w);
      }
      // A tensor's or tile's further arguments (memory space, layout, MemRef, view), as written.
      std::vector<std::shared_ptr<const expr>> extras;
      while (path != "pld.DistributedTensor" && at_punct(",") && !at_punct("]", 1)) {
        next();
        auto x = parse_expr();
        NEURONRW_TRY(x);
        extras.push_back(std::shared_ptr<const expr>(std::move(x)));
      }
      if (at_punct(",")) next();
      NEURONRW_TRY(expect_punct("]", "to close " + path + "["));
      out = path == "pl.Tensor" ? type::tensor(std::move(s), std::move(d))
            : path == "pl.Tile" ? type::tile(std::move(s), std::move(d))
                                : type::distributed(std::move(s), std::move(d), std::move(w));
      out.extras = std::move(extras);
      return true;
    }
    return fail(at, "unknown type '" + path + "'");
  }

  // ---- expressions ------------------------------------------------------------------------
  /// An integer literal (`-` and the lexer's tok::integer: decimal, 0x, 0o, 0b, with `_`); its
  /// spelling into `spelled` when it is not plain decimal digits (it prints as written).
  [[nodiscard]] bool parse_int(std::int64_t& out, std::string* spelled = nullptr) {
    const source_loc at = peek().loc;
    bool negative = false;
    if (at_punct("-")) {
      next();
      negative = true;
      if (!is(tok::integer)) return unexpected("an integer after '-'");
    }
    std::string_view digits = text(next());
    std::uint64_t base = 10;
    if (digits.size() > 2 && digits[0] == '0' && digits[1] != '_' && (digits[1] < '0' || digits[1] > '9')) {
      base = digits[1] == 'x' || digits[1] == 'X' ? 16 : digits[1] == 'o' || digits[1] == 'O' ? 8 : 2;
      if (spelled) *spelled = (negative ? "-" : "") + std::string(digits);
      digits.remove_prefix(2);
    } else if (spelled && digits.find('_') != std::string_view::npos) {
      *spelled = (negative ? "-" : "") + std::string(digits);
    }
    std::uint64_t v = 0;
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    for (char c : digits) {
      if (c == '_') continue;
      const auto d = static_cast<std::uint64_t>(neuronrw::detail::hex_digit_value(c));
      if (v > (limit - d) / base) return fail(at, "integer literal out of range");
      v = v * base + d;
    }
    if (negative)
      out = v == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
    else
      out = static_cast<std::int64_t>(v);
    return true;
  }

  /// `key=`'s value, read and appended to `ks`; a key already in `ks` is `WHY 'key'` at `kat`.
  [[nodiscard]] bool push_keyword(std::vector<keyword>& ks, std::string key, source_loc kat, std::string_view why) {
    for (auto& k : ks)
      if (k.name == key) return fail(kat, std::string(why) + " '" + key + "'");
    auto value = parse_expr();
    NEURONRW_TRY(value);
    ks.push_back({std::move(key), std::move(value)});
    return true;
  }
  [[nodiscard]] bool parse_dict(std::vector<keyword>& out) {
    out.clear();
    return list({.open = "{", .open_what = "to open a dict", .sep = ",", .close = "}", .close_what = "to close a dict"},
                [&]() -> bool {
                  const source_loc at = peek().loc;
                  std::string key;
                  NEURONRW_TRY(expect_string("a string key", key));
                  for (auto& k : out)
                    if (k.name == key) return fail(at, "duplicate key " + quote(key));
                  NEURONRW_TRY(expect_punct(":", "after a dict key"));
                  auto value = parse_expr();
                  NEURONRW_TRY(value);
                  out.push_back({std::move(key), std::move(value)});
                  return true;
                });
  }

  // expr    := or
  // or      := and { 'or' and }           and := not { 'and' not }
  // not     := 'not' not | compare        compare := bitor [ ('==' | '!=' | '<' | '<=' | '>' | '>=') bitor ]
  // bitor   := bitxor { '|' bitxor }      bitxor := bitand { '^' bitand }
  // bitand  := shift { '&' shift }        shift := sum { ('<<' | '>>') sum }
  // sum     := term { ('+' | '-') term }
  // term    := unary { ('*' | '/' | '//' | '%') unary }
  // unary   := '-' INT | ('-' | '+' | '~') unary | power    (`-5` is the integer -5, unless `**` follows)
  // power   := primary [ '**' unary ]
  // Each returns the expression, or null when it failed (the error recorded).
  // One depth level per expression, as before the boolean levels (parse_unary takes the other):
  // an integer expression walks `or`, `and`, `not`, the comparison and the bitwise operators
  // with a token test each.
  expr_ptr parse_expr() {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    auto lhs = parse_and(parse_not());
    while (lhs && at_name("or")) {
      const source_loc at = peek().loc;
      next();
      auto rhs = parse_and(parse_not());
      NEURONRW_TRY(rhs);
      lhs = make_bool_op(bool_op::or_, std::move(lhs), std::move(rhs), at);
    }
    return lhs;
  }
  /// `lhs { 'and' not }`, grouping to the left; null when lhs is (the error recorded).
  expr_ptr parse_and(expr_ptr lhs) {
    while (lhs && at_name("and")) {
      const source_loc at = peek().loc;
      next();
      auto rhs = parse_not();
      NEURONRW_TRY(rhs);
      lhs = make_bool_op(bool_op::and_, std::move(lhs), std::move(rhs), at);
    }
    return lhs;
  }
  expr_ptr parse_not() {
    if (at_name("not")) {
      depth_guard g(*this);  // `not not ...` recurses here
      NEURONRW_TRY(g.ok);
      const source_loc at = peek().loc;
      next();
      auto operand = parse_not();
      NEURONRW_TRY(operand);
      return make_bool_op(bool_op::not_, std::move(operand), nullptr, at);
    }
    return parse_compare();
  }
  /// The comparison operator at the cursor, if any.
  std::optional<bool_op> at_compare() const {
    if (!is(tok::punct)) return std::nullopt;
    const std::string_view t = text(peek());
    if (t.empty() || (t[0] != '=' && t[0] != '!' && t[0] != '<' && t[0] != '>')) return std::nullopt;  // most punctuation
    if (t == "==") return bool_op::eq;
    if (t == "!=") return bool_op::ne;
    if (t == "<") return bool_op::lt;
    if (t == "<=") return bool_op::le;
    if (t == ">") return bool_op::gt;
    if (t == ">=") return bool_op::ge;
    return std::nullopt;
  }
  expr_ptr parse_compare() {
    auto lhs = parse_bitwise();
    NEURONRW_TRY(lhs);
    if (const auto op = at_compare()) {
      const source_loc at = peek().loc;
      next();
      auto rhs = parse_bitwise();
      NEURONRW_TRY(rhs);
      if (at_compare()) {
        fail(peek().loc, "a chained comparison (a < b < c) is not in the host-program grammar: write (a < b) and (b < c)");
        return {};
      }
      return make_bool_op(*op, std::move(lhs), std::move(rhs), at);
    }
    return lhs;
  }
  /// The bitwise operator at the cursor and its level (`|` 0, `^` 1, `&` 2, `<<` `>>` 3), or
  /// level -1 when there is none.
  std::pair<arith_op, int> at_bitwise() const {
    if (!is(tok::punct)) return {arith_op::add, -1};
    const std::string_view t = text(peek());
    if (t == "|") return {arith_op::bitor_, 0};
    if (t == "^") return {arith_op::bitxor, 1};
    if (t == "&") return {arith_op::bitand_, 2};
    if (t == "<<") return {arith_op::lshift, 3};
    if (t == ">>") return {arith_op::rshift, 3};
    return {arith_op::add, -1};
  }
  /// `|`, `^`, `&` and the shifts over sums, each level grouping to the left (precedence
  /// climbing): an expression without them costs one token test, no call per level.
  expr_ptr parse_bitwise() { return climb_bitwise(parse_sum(), 0); }
  expr_ptr climb_bitwise(expr_ptr lhs, int min_level) {
    while (lhs) {
      const auto [op, level] = at_bitwise();
      if (level < min_level) break;
      const source_loc at = peek().loc;
      next();
      auto rhs = parse_sum();
      NEURONRW_TRY(rhs);
      for (int next_level = at_bitwise().second; next_level > level; next_level = at_bitwise().second) {
        rhs = climb_bitwise(std::move(rhs), next_level);
        NEURONRW_TRY(rhs);
      }
      lhs = make_arith(op, std::move(lhs), std::move(rhs), at);
    }
    return lhs;
  }
  expr_ptr parse_sum() {
    auto lhs = parse_term();
    NEURONRW_TRY(lhs);
    while (at_punct("+") || at_punct("-")) {
      const source_loc at = peek().loc;
      const arith_op op = text(next()) == "+" ? arith_op::add : arith_op::sub;
      auto rhs = parse_term();
      NEURONRW_TRY(rhs);
      lhs = make_arith(op, std::move(lhs), std::move(rhs), at);
    }
    return lhs;
  }
  expr_ptr parse_term() {
    auto lhs = parse_unary();
    NEURONRW_TRY(lhs);
    for (;;) {
      const source_loc at = peek().loc;
      arith_op op;
      if (at_punct("*")) {
        op = arith_op::mul;
      } else if (at_punct("//")) {
        op = arith_op::floordiv;
      } else if (at_punct("%")) {
        op = arith_op::mod;
      } else if (at_punct("/")) {
        op = arith_op::truediv;
      } else {
        return lhs;
      }
      next();
      auto rhs = parse_unary();
      NEURONRW_TRY(rhs);
      lhs = make_arith(op, std::move(lhs), std::move(rhs), at);
    }
  }
  expr_ptr parse_unary() {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    const source_loc at = peek().loc;
    // `-5` is the literal -5 (parse_primary), but `-2 ** 2` is -(2 ** 2), as in Python.
    if ((at_punct("-") && (peek(1).kind != tok::integer || at_punct("**", 2))) || at_punct("+") || at_punct("~")) {
      const arith_op op = at_punct("-") ? arith_op::neg : at_punct("+") ? arith_op::pos : arith_op::invert;
      next();
      auto operand = parse_unary();
      NEURONRW_TRY(operand);
      return make_arith(op, std::move(operand), nullptr, at);
    }
    auto e = parse_postfix();
    NEURONRW_TRY(e);
    if (at_punct("**")) {  // right-assoc, and its right operand may be unary: `a ** -b`
      const source_loc pat = peek().loc;
      next();
      auto rhs = parse_unary();
      NEURONRW_TRY(rhs);
      e = make_arith(arith_op::pow, std::move(e), std::move(rhs), pat);
    }
    return e;
  }
  /// One index of a subscript: an expression or a slice `[lower] ':' [upper] [':' [step]]`.
  expr_ptr parse_index() {
    const source_loc at = peek().loc;
    expr_ptr lower;
    if (!at_punct(":")) {
      lower = parse_expr();
      NEURONRW_TRY(lower);
      if (!at_punct(":")) return lower;
    }
    next();  // ':'
    const auto part_ends = [this] { return at_punct(",") || at_punct("]") || at_punct(":"); };
    expr_ptr upper, step;
    if (!part_ends()) {
      upper = parse_expr();
      NEURONRW_TRY(upper);
    }
    bool step_colon = false;
    if (at_punct(":")) {
      next();
      if (!part_ends()) {
        step = parse_expr();
        NEURONRW_TRY(step);
      } else {
        step_colon = true;
      }
    }
    auto e = make_slice(std::move(lower), std::move(upper), std::move(step), at);
    if (step_colon) e->flags |= expr_flags::step_colon;
    return e;
  }
  /// A primary and its subscripts.
  expr_ptr parse_postfix() {
    auto e = parse_primary();
    NEURONRW_TRY(e);
    // pypto's per-rank slice of a host tensor: `inputs[r]`, `inputs[rd, r]` (the indices a tuple);
    // device code's slices, `x[:, 64:128]`.
    while (at_punct("[")) {
      const source_loc sat = peek().loc;
      next();
      std::vector<expr_ptr> indices;
      for (;;) {
        auto index = parse_index();
        NEURONRW_TRY(index);
        indices.push_back(std::move(index));
        if (!at_punct(",") || at_punct("]", 1)) break;
        next();
      }
      const bool comma = at_punct(",");  // `x[i,]`: a tuple of one, as in Python
      if (comma) next();
      NEURONRW_TRY(expect_punct("]", "to close the subscript"));
      expr_ptr index = indices.size() == 1 && !comma ? std::move(indices.front()) : make_tuple(std::move(indices), sat);
      e = make_subscript(std::move(e), std::move(index), sat);
    }
    return e;
  }
  expr_ptr parse_primary() {
    const source_loc at = peek().loc;
    if (at_punct("-") || is(tok::integer)) {
      std::int64_t v = 0;
      std::string spelled;
      NEURONRW_TRY(parse_int(v, &spelled));
      auto e = make_int(v, at);
      e->text = std::move(spelled);  // `0x1F`, `1_000`: printed as written
      return e;
    }
    if (is(tok::floating)) return make_float(std::string(text(next())), at);
    if (at_punct("(")) {  // `(e)`, a tuple `(a, b)` / `(a,)`, or `()`
      std::vector<expr_ptr> elems;
      bool comma = false;
      NEURONRW_TRY(list({.open = "(", .open_what = "to open a parenthesized expression", .sep = ",", .close = ")",
                         .close_what = "to close a parenthesized expression"},
                        [&]() -> bool {
                          if (!elems.empty()) comma = true;
                          elems.push_back(parse_expr());
                          return elems.back() != nullptr;
                        },
                        [&] {
                          comma = comma || (!elems.empty() && i_ > base_ && text(t_[i_ - 1 - base_]) == ",");
                          return true;
                        }));
      if (elems.size() == 1 && !comma) {
        elems[0]->flags |= expr_flags::parenthesized;
        return std::move(elems[0]);
      }
      return make_tuple(std::move(elems), at);
    }
    if (is(tok::string)) return make_str(std::string(text(next())), at);
    if (at_punct("[")) {
      std::vector<expr_ptr> elems;
      NEURONRW_TRY(list({.open = "[", .open_what = "to open a list", .sep = ",", .close = "]", .close_what = "to close a list"},
                        [&] {
                          elems.push_back(parse_expr());
                          return elems.back() != nullptr;
                        }));
      return make_list(std::move(elems), at);
    }
    if (!is(tok::name)) {
      unexpected("an expression");
      return {};
    }
    if (!at_punct(".", 1)) {
      const std::string n(text(next()));
      if (n == "True" || n == "False") return make_bool(n == "True", at);
      if (n == "None") return make_none(at);
      if (at_punct("(")) {
        // A call of a JIT function of the program: pypto's specializer writes it `self.NAME(...)`.
        if (!jit_names_.empty() && jit_names_.count(n) && !lookup(n)) return parse_call(callee_kind::function, n, at);
        if (const auto e = external_names_.find(n); e != external_names_.end()) return call_external(e->second, at);
        fail(at, "call of the bare name '" + n + "': ops are dotted (pld.tensor.window) and functions are called "
                 "as self." + n + "(...) (or defined outside the class with @pl.function or @pl.inline)");
        return {};
      }
      // A parameter of the inline function being expanded: a copy of its argument.
      if (!inlines_.empty())
        if (const auto a = inlines_.back().args.find(n); a != inlines_.back().args.end()) return argument_copy(*a->second, n, at);
      if (is_reserved(n)) {
        fail(at, "unexpected '" + n + "'");
        return {};
      }
      // A parameter of a function the program is defined in (a factory's), used for the first
      // time: a module constant or dynamic dimension from now on.
      if (params_ != nullptr && !params_->empty() && names_ != names::skip && !dynamic_.count(n) && !constants_.count(n) &&
          !symbols_.count(n) && !lookup(n))
        factory_parameter_use(n);
      // A name the function does not bind but the module defines as a dynamic dimension.
      if (dynamic_.count(n) && (names_ == names::skip || !lookup(n))) return make_symbol(n, at);
      // ... or as a pypto name: that name (pypto reads the closure's value).
      if (!symbols_.empty())
        if (auto s = symbols_.find(n); s != symbols_.end() && (names_ == names::skip || !lookup(n)))
          return make_symbol(s->second, at);
      // A name the function does not bind but the module defines as a constant.
      if (auto c = constants_.find(n); c != constants_.end() && (names_ == names::skip || !lookup(n))) {
        auto e = make_int(c->second, at);
        e->text = n;
        return e;
      }
      var* v = nullptr;
      NEURONRW_TRY(resolve(n, at, "", v));
      return make_var_ref(v, at);
    }
    std::string path;
    NEURONRW_TRY(dotted(path));
    if (!at_punct("(")) return make_symbol(path, at);
    if (ends_with(path, ".get_byte") && starts_with(path, "pl.") && std::count(path.begin(), path.end(), '.') == 2) {
      // `pl.FP32.get_byte()`: the dtype's byte size, an integer constant (pypto folds it).
      NEURONRW_TRY(expect_punct("(", "after get_byte"));
      NEURONRW_TRY(expect_punct(")", "(get_byte takes no arguments)"));
      const std::string dt = path.substr(3, path.size() - 3 - 9);
      const std::int64_t bytes = ops::dtype_bytes(dt);
      if (bytes == 0) {
        fail(at, "'pl." + dt + "' has no whole byte size (get_byte)");
        return {};
      }
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
    NEURONRW_TRY(list({.open = "(", .open_what = "to open the arguments", .sep = ",", .close = ")",
                       .close_what = "to close the arguments"},
                      [&]() -> bool {
                        if (is(tok::name) && at_punct("=", 1)) {
                          const source_loc kat = peek().loc;
                          std::string key(text(next()));
                          next();
                          seen_keyword = true;
                          if (key == "attrs") {
                            if (seen_attrs) return fail(kat, "duplicate keyword argument 'attrs'");
                            seen_attrs = true;
                            return parse_dict(attrs);
                          }
                          if (ck == callee_kind::function && key == "device") {
                            if (device) return fail(kat, "duplicate keyword argument 'device'");
                            auto value = parse_expr();
                            NEURONRW_TRY(value);
                            device = keyword{key, std::move(value)};
                            return true;
                          }
                          return push_keyword(kwargs, std::move(key), kat, "duplicate keyword argument");
                        }
                        if (seen_keyword) return fail(peek().loc, "positional argument follows keyword argument");
                        args.push_back(parse_expr());
                        return args.back() != nullptr;
                      }));
    if (device) {
      for (auto& a : attrs)
        if (a.name == "device") {
          fail(at, "duplicate attribute 'device' (device= and attrs={\"device\": ...})");
          return {};
        }
      attrs.insert(attrs.begin(), std::move(*device));
    }
    if (ck == callee_kind::function) calls_.emplace_back(callee, at);
    std::string spelling = op_spelling(ck, callee, at);
    if (ck == callee_kind::op && callee == ops::alloc_window_buffer) NEURONRW_TRY(alloc_shape_form(args, kwargs, at));
    auto c = make_call(ck, std::move(callee), std::move(args), std::move(kwargs), std::move(attrs), {}, at);
    c->call->spelling = std::move(spelling);
    c->call->type = infer_call_type(*c);
    return c;
  }

  /// pypto's shape form of an allocation, `pld.alloc_window_buffer([d0, d1, ...], dtype=pl.X)`,
  /// becomes its byte form as pypto's DSL op makes it: the size is d0 * d1 * ... * bytes(X), one
  /// integer when every dimension is one (constant arithmetic folded, as pypto folds it), else
  /// the product left to right from the first dimension (((d0 * d1) * d2) * bytes), each constant
  /// dimension an integer. pypto's errors: a shape without `dtype=`, `dtype=` with a byte size,
  /// an empty shape, a constant dimension below 1; the reader's: a dtype without a whole byte
  /// size, a size beyond 64 bits. (The pl._dump.call form is read as written.)
  [[nodiscard]] bool alloc_shape_form(std::vector<expr_ptr>& args, std::vector<keyword>& kwargs, source_loc at) {
    const std::string op(ops::alloc_window_buffer);
    auto dt = std::find_if(kwargs.begin(), kwargs.end(), [](const keyword& k) { return k.name == "dtype"; });
    const bool shape = !args.empty() && (args[0]->kind == expr_kind::list || args[0]->kind == expr_kind::tuple);
    if (!shape) {
      if (dt == kwargs.end()) return true;
      return fail(dt->value->loc.known() ? dt->value->loc : at,
                  op + " dtype= is only valid when the first argument is a shape (list / tuple), not a scalar byte size");
    }
    if (dt == kwargs.end())
      return fail(at, op + " requires dtype= when the first argument is a shape (list / tuple of per-rank dimensions)");
    const expr& d = *dt->value;
    const std::int64_t bytes =
        d.kind == expr_kind::symbol && starts_with(d.text, "pl.") ? ops::dtype_bytes(std::string_view(d.text).substr(3)) : 0;
    if (bytes == 0)
      return fail(d.loc.known() ? d.loc : at, op + " dtype= must be a pypto dtype with a whole byte size (pl.FP32, "
                                                   "pl.INT8, ...)" + (d.kind == expr_kind::symbol ? ", got '" + d.text + "'" : ", got an expression that is none"));
    std::vector<expr_ptr>& dims = args[0]->args;  // (moved from: args[0] is replaced below)
    if (dims.empty()) return fail(args[0]->loc.known() ? args[0]->loc : at, op + " shape must be non-empty");
    // Each dimension: its value when it is a constant expression, else it stays an expression.
    std::vector<std::optional<std::int64_t>> value(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const source_loc dat = dims[i]->loc.known() ? dims[i]->loc : at;
      if (over_dynamic(*dims[i]) != 0) continue;
      std::int64_t v = 0;
      NEURONRW_TRY(constant_value(*dims[i], dat, v));
      if (v <= 0)
        return fail(dat, op + " shape dimension[" + std::to_string(i) + "] is " + std::to_string(v) +
                             "; all dimensions must be positive");
      value[i] = v;
    }
    const auto too_large = [&] { return fail(at, op + " size in bytes does not fit in 64 bits"); };
    expr_ptr size;
    if (std::all_of(value.begin(), value.end(), [](const auto& v) { return v.has_value(); })) {
      std::int64_t folded = bytes;
      for (const auto& v : value)
        if (__builtin_mul_overflow(folded, *v, &folded)) return too_large();
      size = make_int(folded, at);
    } else {  // pypto's chain: ((d0 * d1) * ...) * bytes, from the first dimension, none folded
      for (std::size_t i = 0; i < dims.size(); ++i) {
        expr_ptr dim = value[i] ? make_int(*value[i], dims[i]->loc) : std::move(dims[i]);
        size = size ? make_arith(arith_op::mul, std::move(size), std::move(dim), at) : std::move(dim);
      }
      size = make_arith(arith_op::mul, std::move(size), make_int(bytes, d.loc), at);
    }
    args[0] = std::move(size);
    kwargs.erase(dt);
    return true;
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
    // (An inline function's body expanded twice warns once.)
    if (starts_with(c, "pld.") && !ops::known(c) &&
        warned_at_.insert(std::uint64_t{at.line} << 32 | std::uint64_t{at.col}).second) {
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
      NEURONRW_TRY(expect_punct("(", "after pl._dump.call"));
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
        return {};
      }
      NEURONRW_TRY(expect_punct(",", "after the callee"));
      std::vector<expr_ptr> args;
      NEURONRW_TRY(list({.open = "[", .open_what = "to open the argument list", .sep = ",", .close = "]",
                         .close_what = "to close the argument list"},
                        [&] {
                          args.push_back(parse_expr());
                          return args.back() != nullptr;
                        }));
      NEURONRW_TRY(expect_punct(",", "before the result type"));
      type t;
      NEURONRW_TRY(parse_type(t));
      std::vector<keyword> kwargs, attrs;
      bool have_kwargs = false, have_attrs = false;
      // Not parse_list: these follow the result type inside pl._dump.call(...), each after a ','.
      while (at_punct(",")) {
        next();
        if (at_punct(")")) break;
        const source_loc kat = peek().loc;
        std::string key;
        NEURONRW_TRY(expect_ident("kwargs= or attrs=", key));
        NEURONRW_TRY(expect_punct("=", "after '" + key + "'"));
        if (key == "kwargs" && !have_kwargs) {
          have_kwargs = true;
          NEURONRW_TRY(parse_dict(kwargs));
        } else if (key == "attrs" && !have_attrs) {
          have_attrs = true;
          NEURONRW_TRY(parse_dict(attrs));
        } else {
          fail(kat, (key == "kwargs" || key == "attrs" ? "duplicate keyword '" : "unknown pl._dump.call keyword '") +
                        key + "'");
          return {};
        }
      }
      NEURONRW_TRY(expect_punct(")", "to close pl._dump.call("));
      if (ck == callee_kind::function) calls_.emplace_back(callee, at);
      std::string spelling = op_spelling(ck, callee, at);
      auto c = make_call(ck, std::move(callee), std::move(args), std::move(kwargs), std::move(attrs), std::move(t), at);
      c->call->spelling = std::move(spelling);
      return c;
    }
    if (path == "pl._dump.alloc_window_buffer") {
      NEURONRW_TRY(expect_punct("(", "after pl._dump.alloc_window_buffer"));
      std::vector<expr_ptr> args;
      args.push_back(parse_expr());
      NEURONRW_TRY(args.back());
      NEURONRW_TRY(expect_punct(",", "after the size"));
      NEURONRW_TRY(expect_keyword("name"));
      NEURONRW_TRY(expect_punct("=", "after 'name'"));
      const source_loc nat = peek().loc;
      std::string n;
      NEURONRW_TRY(expect_string("the allocation name string", n));
      if (at_punct(",")) next();
      NEURONRW_TRY(expect_punct(")", "to close pl._dump.alloc_window_buffer("));
      std::vector<keyword> kwargs;
      kwargs.push_back({"name", make_str(std::move(n), nat)});
      return make_call(callee_kind::op, std::string(ops::alloc_window_buffer), std::move(args), std::move(kwargs), {},
                       type::ptr(), at);
    }
    if (path == "pl._dump.symbol") {
      NEURONRW_TRY(expect_punct("(", "after pl._dump.symbol"));
      std::string s;
      NEURONRW_TRY(expect_string("a symbol string", s));
      NEURONRW_TRY(expect_punct(")", "to close pl._dump.symbol("));
      return make_symbol(std::move(s), at);
    }
    if (path == "pl._dump.window_buffer")
      fail(at, "pl._dump.window_buffer(...) must come before the statements of a function body");
    else if (path == "pl._dump.window_ref")
      fail(at, "pl._dump.window_ref(...) is only valid in a type or in the slots of pl._dump.comm_domain");
    else if (path == "pl._dump.comm_domain")
      fail(at, "pl._dump.comm_domain(...) is only valid in a with statement");
    else
      fail(at, "unknown form '" + path + "'");
    return {};
  }

  // ---- statements -------------------------------------------------------------------------
  /// ':' NEWLINE INDENT stmt+ DEDENT in a scope of its own that binds `binds` (a loop's variables)
  /// first. What the block leaves to the code after it goes into `leaked`, as pypto's parser
  /// scopes it: every binding of the block (Python's rule: a plain loop, an if's branch, a with
  /// scope), except that a block that yields (`x = pl.yield_(...)`) leaves only the names it yields
  /// to, and a loop with carried variables (`for i, (acc,) in ...`) leaves nothing but those.
  /// The caller merges `leaked` into the enclosing scope (merge_leaked), after an if's last branch.
  [[nodiscard]] bool parse_block(std::vector<stmt_ptr>& body, const std::vector<var*>& binds, scope_map& leaked,
                                 bool carried = false) {
    NEURONRW_TRY(expect_punct(":", "to open a block"));
    NEURONRW_TRY(expect_newline());
    NEURONRW_TRY(expect(tok::indent, "an indented block"));
    scopes_.emplace_back();
    yields_.emplace_back();
    for (var* v : binds) {
      scopes_.back()[v->name] = v;
      bindings_[v->name].push_back(v);
    }
    while (!is(tok::dedent) && !is(tok::eof)) NEURONRW_TRY(parse_stmt(body));
    NEURONRW_TRY(expect(tok::dedent, "the end of the block"));
    scope_map inner = std::move(scopes_.back());
    const yield_record y = std::move(yields_.back());
    scopes_.pop_back();
    yields_.pop_back();
    if (y.any) {
      for (auto& n : y.names)
        if (auto it = inner.find(n); it != inner.end()) leaked[n] = it->second;
    } else if (!carried) {
      for (auto& [n, v] : inner) leaked[n] = v;
    }
    return true;
  }
  /// parse_block for a block whose bindings the code after it sees at once (a loop, a with scope).
  [[nodiscard]] bool parse_block(std::vector<stmt_ptr>& body, const std::vector<var*>& binds = {}, bool carried = false) {
    scope_map leaked;
    NEURONRW_TRY(parse_block(body, binds, leaked, carried));
    merge_leaked(leaked);
    return true;
  }
  void merge_leaked(const scope_map& leaked) {
    for (auto& [n, v] : leaked) scopes_.back()[n] = v;
  }
  /// A statement assigning `value` to `names`: a yield (`pl.yield_(...)`) is recorded for parse_block.
  void note_yield(const expr& value, std::vector<std::string> names) {
    if (value.kind != expr_kind::call || value.callee != callee_kind::op || value.text != "pl.yield_") return;
    yields_.back().any = true;
    for (auto& n : names) yields_.back().names.push_back(std::move(n));
  }
  /// The loop iterators of pypto's DSL: range-like (1 to 3 bounds) and SPMD-like (one count).
  static bool range_like(std::string_view it) {
    return it == "pl.range" || it == "pl.parallel" || it == "pl.unroll" || it == "pl.pipeline";
  }
  static bool count_like(std::string_view it) { return it == "pl.spmd" || it == "pl.split_aiv"; }

  /// Restores the statement list being added to (sink_) when a statement is read.
  struct sink_guard {
    parser& p;
    std::vector<stmt_ptr>* saved;
    sink_guard(parser& q, std::vector<stmt_ptr>& body) : p(q), saved(q.sink_) { q.sink_ = &body; }
    ~sink_guard() { p.sink_ = saved; }
    sink_guard(const sink_guard&) = delete;
    sink_guard& operator=(const sink_guard&) = delete;
  };

  [[nodiscard]] bool parse_stmt(std::vector<stmt_ptr>& body) {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    sink_guard sg(*this, body);
    const source_loc at = peek().loc;
    if (is(tok::indent)) return fail(at, "unexpected indent");
    if (at_name("pass")) {
      next();
      return expect_newline();
    }
    if (at_name("return")) {
      next();
      std::vector<expr_ptr> values;
      if (!is(tok::newline)) {
        values.push_back(parse_expr());
        NEURONRW_TRY(values.back());
        // Not parse_list: no brackets, and a ',' is always followed by a value (no trailing one).
        while (at_punct(",")) {
          next();
          values.push_back(parse_expr());
          NEURONRW_TRY(values.back());
        }
      }
      NEURONRW_TRY(expect_newline());
      if (!inlines_.empty()) {  // in an inline function: the value of its call
        inline_frame& f = inlines_.back();
        f.returned = true;
        if (values.size() == 1) f.value = std::move(values[0]);
        else if (values.size() > 1) f.value = make_tuple(std::move(values), at);
        return true;
      }
      body.push_back(make_return(std::move(values), at));
      return true;
    }
    if (at_name("for")) {
      next();
      const source_loc vat = peek().loc;
      std::string vn;
      // pypto's carried variables: `for i, (acc, s) in pl.range(n, init_values=(a, b)):`; a
      // pl.while_ loop has no loop variable, only carried ones: `for (x,) in pl.while_(...)`,
      // `for x, y in pl.while_(...)`.
      std::vector<std::pair<std::string, source_loc>> carried_names;
      const auto carried_name = [&]() -> bool {
        const source_loc cat = peek().loc;
        std::string cn;
        NEURONRW_TRY(binding_name("a carried variable", cn));
        for (auto& [other, oat] : carried_names)
          if (other == cn || cn == vn) return fail(cat, "duplicate loop variable '" + cn + "'");
        carried_names.emplace_back(std::move(cn), cat);
        return true;
      };
      const auto carried_list = [&](std::string_view what) {
        return list({.open = "(", .open_what = std::string(what), .sep = ",", .close = ")",
                     .close_what = "to close the carried variables"},
                    carried_name,
                    [&] { return !carried_names.empty() || fail(peek().loc, "expected a carried variable, got ')'"); });
      };
      bool carried_form = false;  // a loop variable and carried ones
      bool only_carried = false;  // carried ones alone (pl.while_)
      bool parenthesized = false;
      if (at_punct("(")) {
        only_carried = parenthesized = true;
        NEURONRW_TRY(carried_list("to open the carried variables (for (x,) in pl.while_(...))"));
      } else {
        NEURONRW_TRY(binding_name("a loop variable", vn));
        if (at_punct(",") && peek(1).kind != tok::name) {
          carried_form = true;
          next();
          NEURONRW_TRY(carried_list("to open the carried variables (for i, (acc,) in ...)"));
        } else if (at_punct(",")) {  // `for x, y in pl.while_(...)`
          only_carried = true;
          carried_names.emplace_back(std::exchange(vn, std::string()), vat);
          while (at_punct(",") && !at_name("in", 1)) {
            next();
            NEURONRW_TRY(carried_name());
          }
          if (at_punct(",")) next();  // `for x, in ...`
        }
      }
      NEURONRW_TRY(expect_keyword("in"));
      const source_loc iat = peek().loc;
      std::string iter;
      if (!is(tok::name)) return unexpected("a loop iterator (pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, pl.while_)");
      NEURONRW_TRY(dotted(iter));
      const bool while_loop = iter == "pl.while_";
      if (!range_like(iter) && !count_like(iter) && !while_loop)
        return fail(iat, "expected a loop iterator (pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, "
                         "pl.while_), got '" + iter + "'");
      if (while_loop && !vn.empty()) {  // `for x in pl.while_(...)`: x is carried
        only_carried = true;
        carried_names.emplace_back(std::exchange(vn, std::string()), vat);
      }
      if (only_carried && !while_loop)
        return fail(vat, "only a pl.while_ loop carries all its variables: write for i, (" + carried_names.front().first +
                             ", ...) in " + iter + "(...)");
      std::vector<expr_ptr> bounds;
      std::vector<keyword> kwargs;
      type vt = type::scalar("INDEX");
      bool have_type = false;
      NEURONRW_TRY(list({.open = "(", .open_what = "after " + iter, .sep = ",", .close = ")", .close_what = "to close " + iter + "("},
                        [&]() -> bool {
                          const source_loc kat = peek().loc;
                          if (is(tok::name) && at_punct("=", 1)) {
                            std::string key(text(next()));
                            next();
                            if (key == "var_type") {
                              if (have_type) return fail(kat, "duplicate keyword 'var_type'");
                              NEURONRW_TRY(parse_type(vt));
                              have_type = true;
                              return true;
                            }
                            return push_keyword(kwargs, std::move(key), kat, "duplicate keyword");
                          }
                          if (have_type || !kwargs.empty()) return fail(kat, "positional argument follows keyword argument");
                          if (while_loop) return fail(kat, "pl.while_ takes keyword arguments only (init_values=(...))");
                          bounds.push_back(parse_expr());
                          return bounds.back() != nullptr;
                        },
                        [&] {
                          if (while_loop) return !have_type || fail(peek().loc, "pl.while_ has no loop variable to give var_type=");
                          if (count_like(iter) && bounds.size() != 1)
                            return fail(peek().loc, iter + " takes one count (" + iter + "(n, ...))");
                          if (bounds.empty() || bounds.size() > 3)
                            return fail(peek().loc, iter + " takes 1 to 3 bounds (stop | start, stop[, step])");
                          return true;
                        }));
      const expr* init = nullptr;
      for (auto& k : kwargs)
        if (k.name == "init_values") init = k.value.get();
      if (carried_form || only_carried) {
        if (!init) return fail(iat, "a loop with carried variables needs init_values=(...), one value each");
        const std::size_t n = init->kind == expr_kind::tuple || init->kind == expr_kind::list ? init->args.size() : 1;
        if (n != carried_names.size())
          return fail(init->loc, "init_values has " + std::to_string(n) + " value" + (n == 1 ? "" : "s") + " for " +
                                     std::to_string(carried_names.size()) + " carried variable" +
                                     (carried_names.size() == 1 ? "" : "s"));
      }
      expr_ptr start, stop, step;
      if (bounds.size() == 1) {
        start = make_int(0, at);
        stop = std::move(bounds[0]);
      } else if (!bounds.empty()) {
        start = std::move(bounds[0]);
        stop = std::move(bounds[1]);
      }
      if (!bounds.empty()) step = bounds.size() == 3 ? std::move(bounds[2]) : make_int(1, at);
      auto lv = only_carried ? nullptr : make_var(vn, std::move(vt), vat);
      auto s = make_for(nullptr, std::move(start), std::move(stop), std::move(step), {}, at);
      if (parenthesized) s->flags |= stmt_flags::parenthesized;
      std::vector<var*> binds;
      if (lv) binds.push_back(lv.get());
      if (iter != "pl.range" || !kwargs.empty() || carried_form || only_carried) {
        s->loop = std::make_unique<loop_data>();
        s->loop->iterator = iter == "pl.range" ? std::string() : iter;
        for (std::size_t i = 0; i < carried_names.size(); ++i) {
          const bool tuple = init->kind == expr_kind::tuple || init->kind == expr_kind::list;
          const expr* v = tuple ? init->args[i].get() : init;
          s->loop->carried.push_back(make_var(carried_names[i].first, v ? type_of(*v) : type{}, carried_names[i].second));
          binds.push_back(s->loop->carried.back().get());
        }
        s->loop->kwargs = std::move(kwargs);
      }
      NEURONRW_TRY(parse_block(s->body, binds, carried_form || only_carried));
      s->target = std::move(lv);
      body.push_back(std::move(s));
      return true;
    }
    if (at_name("if")) return parse_if(body, false);
    if (at_name("break") || at_name("continue")) {
      const stmt_kind k = at_name("break") ? stmt_kind::break_stmt : stmt_kind::continue_stmt;
      next();
      NEURONRW_TRY(expect_newline());
      body.push_back(make_jump(k, at));
      return true;
    }
    if (at_name("while")) {
      next();
      auto cond = parse_expr();
      NEURONRW_TRY(cond);
      auto s = make_while(std::move(cond), {}, at);
      NEURONRW_TRY(parse_block(s->body));
      body.push_back(std::move(s));
      return true;
    }
    if (at_name("with")) {
      next();
      if (!(at_name("pl") && at_punct(".", 1) && at_name("_dump", 2) && at_punct(".", 3) && at_name("comm_domain", 4))) {
        // pypto's other scopes (`pl.at(level=...)`, `pl.manual_scope()`, `pl.cluster()`, ...).
        auto context = parse_expr();
        NEURONRW_TRY(context);
        var_ptr target;
        if (at_name("as")) {
          next();
          const source_loc tat = peek().loc;
          std::string tn;
          NEURONRW_TRY(binding_name("a name after 'as'", tn));
          target = bind(tn, type{}, tat);
        }
        auto s = make_with(std::move(context), nullptr, {}, at);
        s->target = std::move(target);
        NEURONRW_TRY(parse_block(s->body));
        body.push_back(std::move(s));
        return true;
      }
      NEURONRW_TRY(expect_path("pl._dump.comm_domain", "with pl._dump.comm_domain(...)"));
      auto s = make_scope({}, {}, {}, {}, {}, at);
      bool have[4] = {false, false, false, false};
      NEURONRW_TRY(list(
          {.open = "(", .open_what = "after pl._dump.comm_domain", .sep = ",", .close = ")",
           .close_what = "to close pl._dump.comm_domain("},
          [&]() -> bool {
            const source_loc kat = peek().loc;
            std::string key;
            NEURONRW_TRY(expect_ident("name=, devices=, slots= or attrs=", key));
            NEURONRW_TRY(expect_punct("=", "after '" + key + "'"));
            const int k = key == "name" ? 0 : key == "devices" ? 1 : key == "slots" ? 2 : key == "attrs" ? 3 : -1;
            if (k < 0) return fail(kat, "unknown pl._dump.comm_domain keyword '" + key + "'");
            if (have[k]) return fail(kat, "duplicate keyword '" + key + "'");
            have[k] = true;
            if (k == 0) return expect_string("a scope name string", s->scope->name);
            if (k == 1)
              return list({.open = "[", .open_what = "to open the device list", .sep = ",", .close = "]",
                           .close_what = "to close the device list"},
                          [&]() -> bool {
                            if (!at_punct("-") && !is(tok::integer)) return unexpected("a device number");
                            return parse_int(s->scope->devices.emplace_back());
                          });
            if (k == 2)
              return list({.open = "[", .open_what = "to open the slot list", .sep = ",", .close = "]",
                           .close_what = "to close the slot list"},
                          [&]() -> bool {
                            if (at_name("None")) {
                              next();
                              s->scope->slots.push_back(nullptr);
                              return true;
                            }
                            s->scope->slots.push_back(parse_window_ref());
                            return s->scope->slots.back() != nullptr;
                          });
            return parse_dict(s->scope->attrs);
          }));
      NEURONRW_TRY(parse_block(s->body));
      body.push_back(std::move(s));
      return true;
    }
    if (is(tok::name) && at_punct(",", 1)) return parse_tuple_assign(body);
    if (at_parenthesized_targets()) return parse_tuple_assign(body);
    if (is(tok::name) && (at_punct("=", 1) || at_punct(":", 1))) {
      std::string n;
      NEURONRW_TRY(binding_name("an assignment target", n));
      std::optional<type> annotated;
      if (at_punct(":")) {
        next();
        NEURONRW_TRY(parse_type(annotated.emplace()));
      }
      NEURONRW_TRY(expect_punct("=", "in an assignment"));
      const bool dump_form = at_name("pl") && at_punct(".", 1) && at_name("_dump", 2);
      expr_ptr value = parse_expr();
      NEURONRW_TRY(value);
      NEURONRW_TRY(expect_newline());
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
      note_yield(*value, {n});
      auto v = bind(n, std::move(t), at);
      body.push_back(make_assign(std::move(v), std::move(value), at));
      return true;
    }
    auto e = parse_expr();
    NEURONRW_TRY(e);
    if (at_punct("=") && e->kind == expr_kind::subscript && !(e->flags & expr_flags::parenthesized)) {
      next();  // `out[:, 0:n] = value`: a store into the subscripted variable, no new binding
      auto value = parse_expr();
      NEURONRW_TRY(value);
      NEURONRW_TRY(expect_newline());
      body.push_back(make_subscript_assign(std::move(e), std::move(value), at));
      return true;
    }
    NEURONRW_TRY(expect_newline());
    note_yield(*e, {});
    body.push_back(make_expr_stmt(std::move(e), at));
    return true;
  }

  /// `if c: ... { elif c: ... } [else: ...]`; `elif` is the else branch holding one if (flagged).
  /// Each branch is a scope; what they leave is seen after the whole statement (a use in the else
  /// branch does not see the then branch's bindings).
  [[nodiscard]] bool parse_if(std::vector<stmt_ptr>& body, bool elif) {
    depth_guard g(*this);
    NEURONRW_TRY(g.ok);
    const source_loc at = peek().loc;
    next();  // `if` / `elif`
    auto cond = parse_expr();
    NEURONRW_TRY(cond);
    auto s = make_if(std::move(cond), {}, {}, false, at);
    if (elif) s->flags |= stmt_flags::elif;
    scope_map leaked;
    NEURONRW_TRY(parse_block(s->body[0]->body, {}, leaked));
    if (at_name("elif") || at_name("else")) {
      s->body.push_back(make_block({}, peek().loc));
      if (at_name("elif")) {
        // The nested if merges its own branches' bindings into a scope of the else branch's.
        scopes_.emplace_back();
        yields_.emplace_back();
        // An inline call in the elif's condition expands into the else branch, as pypto reads it.
        bool ok = false;
        {
          sink_guard sg(*this, s->body[1]->body);
          ok = parse_if(s->body[1]->body, true);
        }
        scope_map inner = std::move(scopes_.back());
        scopes_.pop_back();
        yields_.pop_back();
        NEURONRW_TRY(ok);
        for (auto& [n, v] : inner) leaked[n] = v;
      } else {
        next();
        NEURONRW_TRY(parse_block(s->body[1]->body, {}, leaked));
      }
    }
    merge_leaked(leaked);
    body.push_back(std::move(s));
    return true;
  }

  /// `a, b = value` (`a, = value` a tuple of one): each target takes the element type when the
  /// value's type is a tuple of as many, else pl.UnknownType.
  /// `( NAME { ',' NAME } [','] ) =` at the cursor: a tuple assignment with its targets in
  /// parentheses, `(r,) = pl.yield_(x)` (an expression statement starts with '(' otherwise).
  bool at_parenthesized_targets() const {
    if (!at_punct("(")) return false;
    for (std::size_t k = 1;; k += 2) {
      if (peek(k).kind != tok::name) return false;
      if (at_punct(")", k + 1)) return at_punct("=", k + 2);
      if (!at_punct(",", k + 1)) return false;
      if (at_punct(")", k + 2)) return at_punct("=", k + 3);
    }
  }
  [[nodiscard]] bool parse_tuple_assign(std::vector<stmt_ptr>& body) {
    const source_loc at = peek().loc;
    const bool parenthesized = at_punct("(");
    if (parenthesized) next();
    std::vector<std::pair<std::string, source_loc>> names;
    for (;;) {
      const source_loc nat = peek().loc;
      std::string n;
      NEURONRW_TRY(binding_name("an assignment target", n));
      for (auto& [other, oat] : names)
        if (other == n) return fail(nat, "duplicate assignment target '" + n + "'");
      names.emplace_back(std::move(n), nat);
      if (!at_punct(",")) break;
      next();
      if (at_punct("=") || at_punct(")")) break;
    }
    if (parenthesized) NEURONRW_TRY(expect_punct(")", "to close the assignment targets"));
    NEURONRW_TRY(expect_punct("=", "after the assignment targets"));
    auto value = parse_expr();
    NEURONRW_TRY(value);
    NEURONRW_TRY(expect_newline());
    const type vt = type_of(*value);
    std::vector<var_ptr> targets;
    std::vector<std::string> yielded;
    for (std::size_t i = 0; i < names.size(); ++i) {
      type t = vt.kind == type_kind::tuple && vt.elements.size() == names.size() ? vt.elements[i] : type{};
      targets.push_back(bind(names[i].first, std::move(t), names[i].second));
      yielded.push_back(names[i].first);
    }
    note_yield(*value, std::move(yielded));
    body.push_back(make_tuple_assign(std::move(targets), std::move(value), at));
    if (parenthesized) body.back()->flags |= stmt_flags::parenthesized;
    return true;
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

namespace text_detail {
/// The program of what `lx` lexes of `text`, or the first error.
inline parse_result parse_lexed(lexer& lx, std::string_view text, std::string_view file,
                                const program_location* where = nullptr) {
  parse_result r;
  lexed toks;
  if (!lx.run(toks)) {
    r.error = diagnostic{std::string(file), lx.error().loc, lx.error().message};
    return r;
  }
  parser ps(std::move(toks), text, file);
  if (where != nullptr) {
    ps.set_unread_bindings(&where->unread_bindings);
    ps.set_parameters(&where->parameters);
    ps.set_function_names(&where->functions);
    if (!where->jit_functions.empty()) ps.set_jit(where);
  }
  program p;
  if (!ps.run(p)) {
    r.error = diagnostic{std::string(file), ps.error().loc, ps.error().message};
    return r;
  }
  r.value = std::move(p);
  r.warnings = ps.warnings();
  return r;
}
}  // namespace text_detail

/// Parses the host program `where` of `text` (locate_programs: its pieces only); `file` names it
/// in diagnostics and in program::file, and diagnostics and locations carry the text's line
/// numbers. Never throws for bad input and never returns a partial program. O(size of the
/// pieces).
inline parse_result parse_program(std::string_view text, std::string_view file, const program_location& where) {
  text_detail::lexer lx(text, where.pieces);
  return text_detail::parse_lexed(lx, text, file, &where);
}

/// Parses the host program of `text`: its one `@pl.program` class, read with the imports and
/// constants visible where it is defined (locate.hpp), whatever other Python surrounds it. A text
/// with several programs is an error at the second (read each with the overload above); one
/// with none is read whole, so its error is at its first text out of the grammar. `file` names
/// it in diagnostics and in program::file. `first_line` is the line number of the text's first
/// line (0 reads as 1): a piece of a larger file (one `--split-input-file` chunk) is parsed as it
/// stands, and its diagnostics and locations carry the whole file's line numbers. Never throws
/// for bad input and never returns a partial program. O(size of text).
inline parse_result parse_program(std::string_view text, std::string_view file, std::uint32_t first_line = 1) {
  const auto programs = locate_programs(text, first_line);
  if (programs.size() == 1) return parse_program(text, file, programs.front());
  parse_result r;
  if (programs.size() > 1) {
    const auto& p = programs[1];
    r.error = diagnostic{std::string(file), source_loc{p.line, p.column},
                         (p.jit_functions.empty() ? "a second @pl.program class" + (p.name.empty() ? std::string() : " '" + p.name + "'")
                                                  : "a second program, the JIT entry '" + p.jit_functions.back() + "'") +
                             " (the first is at line " + std::to_string(programs[0].line) +
                             "): a program is read on its own (neuronrw-opt reads each of a file in turn)"};
    return r;
  }
  if (const auto jit = text_detail::first_jit_decorator(text, first_line)) {
    r.error = diagnostic{std::string(file), *jit,
                         "no @pl.program class, and no @pl.jit function that no other calls (pypto's JIT builds a "
                         "program from such an entry and the JIT functions it calls)"};
    return r;
  }
  text_detail::lexer lx(text, first_line);
  return text_detail::parse_lexed(lx, text, file);
}

}  // namespace neuronrw::host
