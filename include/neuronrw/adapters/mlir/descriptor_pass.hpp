// neuronrw/adapters/mlir/descriptor_pass.hpp — any pass descriptor (neuronrw/passes/protocol.hpp)
// as a real MLIR pass over a module, made from the descriptor alone (docs/mlir.md):
//
//   neuronrw::mlir_adapter::register_descriptor_pass<my_prefetch>();   // `neuronrw-prefetch`
//   pm.addPass(std::make_unique<neuronrw::mlir_adapter::descriptor_pass<my_prefetch>>());
//
// descriptor_pass<D> is an OperationPass<ModuleOp> whose argument is D's MLIR name
// (descriptor_mlir_name: `neuronrw-` + D::name unless D says otherwise), whose description is
// D's MLIR summary, whose Option<>s are made from D's options schema (schema_options, offered to
// the MLIR passes), and whose Statistic counters are D::statistics'. runOnOperation: check the
// options (an error naming the bad values fails the pass), plan (D::plan over the MLIR adapter),
// report the plan's refusals through to_diagnostics at their ops — under `remarks=true` or a dry
// run for a pass with a `remarks` option, always otherwise — fail when the plan is not ok() (or a
// refusal is an error), and apply unless it is a dry run (through an IRRewriter). Its type id is
// MLIR's own (MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID, as PassWrapper resolves it): no RTTI.
//
// Customization points: mlir_extension<D> (what a pass adds beyond the protocol; ScheduleFusion's
// dry run remarks on each cluster, passes.hpp); the kind table (constructor argument); the
// argument and description (constructor arguments, so one descriptor registers under several
// names); remarks_default() (what `remarks` defaults to).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <mlir/IR/Location.h>

#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/validate/check.hpp>

namespace neuronrw::mlir_adapter {

/// The default of every neuronrw pass's `remarks` option (a process-wide setting, read when a
/// pass is created: set it before the pass pipeline is built).
inline bool& remarks_default() {
  static bool on = false;
  return on;
}
inline void set_remarks_default(bool on) { remarks_default() = on; }

/// The kinds file every neuronrw pass reads (neuronrw-mlir-opt's --kinds=FILE; docs/kinds.md),
/// before its own `kinds=FILE`: a process-wide setting, read when a pass runs. Empty: none.
inline std::string& kinds_file_default() {
  static std::string file;
  return file;
}
inline void set_kinds_file_default(std::string file) { kinds_file_default() = std::move(file); }

/// Reads kinds file `path` into `out`; false after emitting its errors (located in the file) at
/// `anchor`'s context.
inline bool read_kinds_file(mlir::Operation* anchor, const std::string& path, kind_map& out) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    anchor->emitError() << path << ": cannot open the kinds file: " << buffer.getError().message();
    return false;
  }
  const llvm::StringRef text = (*buffer)->getBuffer();
  auto r = kind_map::parse(std::string_view(text.data(), text.size()), path);
  for (const auto& d : r.errors)
    mlir::emitError(mlir::FileLineColLoc::get(anchor->getContext(), path, d.loc.line, d.loc.col)) << d.message;
  if (!r.ok()) return false;
  out.merge(*r.map);
  return true;
}

/// The MLIR Option<>s of a pass, made from its options schema (neuronrw/passes/options.hpp) when
/// the pass is constructed, one per field the MLIR passes offer, in schema order (MLIR prints and
/// lists them sorted by name): `Option<std::uint64_t>`, `Option<std::string>` or `Option<bool>`,
/// with the field's name, MLIR help line and default (the descriptor's, when it gives one: a
/// pattern's budget). values() fills the options struct from them; problems() checks the
/// schema's constraints, in neuronrw-opt's words.
template <class Options>
class schema_options {
 public:
  template <class Descriptor>
  schema_options(mlir::Pass& pass, std::type_identity<Descriptor>) {
    for (const auto& f : option_schema_v<Options>) {
      if (!offers(f.tools, option_tools::mlir)) continue;
      const std::string def = descriptor_option_default<Descriptor>(f);
      const llvm::StringRef name(f.name.data(), f.name.size());
      const auto help = f.mlir_help.empty() ? f.help : f.mlir_help;
      const auto desc = llvm::cl::desc(llvm::StringRef(help.data(), help.size()));
      slot s{&f, nullptr, nullptr, nullptr, nullptr, nullptr};
      switch (f.type) {
        case option_type::uint64: {
          std::uint64_t v = 0;
          options_detail::parse_uint64(def, v);
          s.u64 = std::make_unique<mlir::Pass::Option<std::uint64_t>>(pass, name, desc, llvm::cl::init(v));
          break;
        }
        case option_type::string:
          s.str = std::make_unique<mlir::Pass::Option<std::string>>(pass, name, desc, llvm::cl::init(def));
          // Another accepted name (`kind` for `fusion-kind`), as in neuronrw-opt: empty unless given.
          if (!f.alias.empty()) {
            // cl::desc keeps a StringRef: the text lives in the slot, as long as the option.
            s.alias_help = std::make_unique<std::string>("The same as " + std::string(f.name));
            s.alias = std::make_unique<mlir::Pass::Option<std::string>>(
                pass, llvm::StringRef(f.alias.data(), f.alias.size()), llvm::cl::desc(*s.alias_help),
                llvm::cl::init(std::string()));
          }
          break;
        case option_type::boolean:
          s.flag = std::make_unique<mlir::Pass::Option<bool>>(pass, name, desc, llvm::cl::init(def == "true"));
          break;
      }
      slots_.push_back(std::move(s));
    }
  }

  /// The bool option `name` (a run-level one: `remarks`, `dry-run`), or null when there is none.
  mlir::Pass::Option<bool>* find_flag(std::string_view name) {
    for (auto& s : slots_)
      if (s.field->name == name && s.flag) return s.flag.get();
    return nullptr;
  }
  /// The bool option `name`; aborts when there is none.
  mlir::Pass::Option<bool>& flag(std::string_view name) {
    if (auto* f = find_flag(name)) return *f;
    llvm::report_fatal_error("neuronrw::mlir_adapter::schema_options: no bool option of that name");
  }

  /// The options struct; its strings view the options' values (valid while the pass lives and its
  /// options are not changed).
  Options values() const {
    Options o;
    for (const auto& s : slots_) {
      if (!s.field->member) continue;
      if (s.str && s.alias && !s.alias->getValue().empty()) s.field->member.set(o, s.alias->getValue());
      else if (s.str) s.field->member.set(o, s.str->getValue());
      else if (s.u64) s.field->member.set(o, std::to_string(s.u64->getValue()));
      else s.field->member.set(o, s.flag->getValue() ? "true" : "false");
    }
    return o;
  }

  /// The first value that breaks its option's check (neuronrw/passes/options.hpp's
  /// check_option_value, in schema order), worded exactly as neuronrw-opt words it for pass
  /// `pass`: `option 'terminator' of pass 'P' must name a terminator, ... not 'x'`. Nothing when
  /// every value holds. One check for both tools: they accept and refuse the same options.
  std::optional<std::string> problems(std::string_view pass) const {
    for (const auto& s : slots_) {
      if (!s.str) continue;  // integers and flags: LLVM's parser took them
      const bool by_alias = s.alias && !s.alias->getValue().empty();
      const std::string& v = by_alias ? s.alias->getValue() : s.str->getValue();
      std::string canonical;
      if (auto problem = check_option_value(info_of(*s.field), v, canonical))
        return "option '" + std::string(by_alias ? s.field->alias : s.field->name) + "' of pass '" + std::string(pass) +
               "' " + *problem;
    }
    return std::nullopt;
  }

 private:
  struct slot {
    const option_field<Options>* field;
    std::unique_ptr<mlir::Pass::Option<std::string>> str;
    std::unique_ptr<mlir::Pass::Option<std::string>> alias;  ///< the field's alias, when it has one
    std::unique_ptr<std::string> alias_help;                 ///< its help text (cl::desc views it)
    std::unique_ptr<mlir::Pass::Option<std::uint64_t>> u64;
    std::unique_ptr<mlir::Pass::Option<bool>> flag;
  };
  std::vector<slot> slots_;
};

/// What every neuronrw MLIR pass has: its argument and description (given at construction, so one
/// pass class can be registered under several names) and the kind table it reads ops through.
template <class Derived>
class module_pass : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
 public:
  module_pass(std::string argument, std::string description, kind_table kinds)
      : argument_(std::move(argument)), description_(std::move(description)), kinds_(std::move(kinds)) {}
  module_pass(const module_pass& o)
      : mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>>(o),
        argument_(o.argument_),
        description_(o.description_),
        kinds_(o.kinds_) {}

  llvm::StringRef getArgument() const override { return argument_; }
  llvm::StringRef getDescription() const override { return description_; }
  /// The name --mlir-timing, --mlir-pass-statistics and "IR Dump After" print: the argument (the
  /// default, the C++ type name, differs between compilers and runs to hundreds of characters).
  llvm::StringRef getName() const override { return argument_; }

 protected:
  /// The adapter over the module this run works on, mutating through `rewriter`.
  ir adapter(mlir::RewriterBase& rewriter) { return ir(this->getOperation(), kinds_, &rewriter); }
  /// The registered kind table (to extend with kinds files for one run).
  const kind_table& kind_table_copy() const { return kinds_; }

 private:
  std::string argument_, description_;
  kind_table kinds_;
};

/// What an MLIR pass adds beyond the protocol for descriptor D: none by default. A
/// specialization may give `dry_run_remarks(op, g, plan, argument)`: remarks a dry run emits
/// before the refusals (`op` is the pass's module op).
template <class D>
struct mlir_extension {};

/// Pass descriptor D as an MLIR pass over a module (see the header comment).
template <pass_descriptor D>
class descriptor_pass : public module_pass<descriptor_pass<D>> {
  using base = module_pass<descriptor_pass<D>>;
  using options_type = typename D::options;

 public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(descriptor_pass)
  using descriptor = D;

  explicit descriptor_pass(std::string argument = descriptor_mlir_name<D>(),
                           std::string description = std::string(descriptor_mlir_summary<D>()),
                           kind_table kinds = kind_table::defaults())
      : base(std::move(argument), std::move(description), std::move(kinds)) {
    if (remarks_) *remarks_ = remarks_default();
  }
  descriptor_pass(const descriptor_pass& o) : base(o) {}

  /// The options of a pipeline (`pass{k=v}`) or pass flag, refused where they are read when a
  /// value breaks its schema check or the options break the descriptor's rules: the same options
  /// and the same words as neuronrw-opt (which prints them with a caret; mlir-opt, at the pipeline).
  mlir::LogicalResult initializeOptions(llvm::StringRef options,
                                        llvm::function_ref<mlir::LogicalResult(const llvm::Twine&)> error_handler) override {
    if (mlir::failed(base::initializeOptions(options, error_handler))) return mlir::failure();
    if (auto problem = options_problem()) return error_handler(*problem);
    return mlir::success();
  }

  /// What is wrong with the options, in neuronrw-opt's words; nothing when they hold.
  std::optional<std::string> options_problem() const {
    const std::string_view pass(this->getArgument().data(), this->getArgument().size());
    if (auto problem = options_.problems(pass)) return problem;
    if (auto problem = descriptor_check_options<D>(options_.values()))
      return "option '" + std::string(problem->option) + "' of pass '" + std::string(pass) + "' " + problem->message;
    return std::nullopt;
  }

  void runOnOperation() override {
    mlir::IRRewriter rewriter(&this->getContext());
    // Options set in code (not through a pipeline, which initializeOptions checked) are checked here.
    if (auto problem = options_problem()) {
      this->getOperation()->emitError() << *problem;
      return this->signalPassFailure();
    }
    const options_type opt = options_.values();
    // The kinds files: --kinds's, then the pass's own, over the registered table.
    kind_map files;
    for (const std::string& path : {kinds_file_default(), kinds_file_->getValue()})
      if (!path.empty() && !read_kinds_file(this->getOperation(), path, files)) return this->signalPassFailure();
    std::optional<kind_table> table;
    if (!files.empty()) table.emplace(this->kind_table_copy()).add(files);
    ir g = table ? ir(this->getOperation(), *table, &rewriter) : this->adapter(rewriter);
    const ir& cg = g;
    auto plan = D::plan(cg, opt);
    const bool dry = dry_run_ && dry_run_->getValue();
    if (remarks_ ? remarks_->getValue() || dry : dry || remarks_default()) {
      const auto missing = descriptor_missing_kinds<D>(cg, plan);
      if (!missing.empty())
        this->getOperation()->emitRemark()
            << nothing_found_message(std::string_view(this->getArgument().data(), this->getArgument().size()), missing,
                                     files.known_kinds());
    }
    count(descriptor_statistics<D>(cg, plan, !dry));
    auto ds = to_diagnostics(cg, plan, op_locator{}, {.pass = std::string_view(this->getArgument())});
    bool failed = false;
    for (const auto& d : ds) failed |= d.sev == severity::error;
    if constexpr (requires { plan.ok(); }) failed = !plan.ok();
    if (!remarks_ || remarks_->getValue() || dry) {
      if constexpr (requires { mlir_extension<D>::dry_run_remarks(this->getOperation(), cg, plan, this->getArgument()); })
        if (dry) mlir_extension<D>::dry_run_remarks(this->getOperation(), cg, plan, this->getArgument());
      for (const auto& d : ds) mlir_adapter::emit(d);
    }
    if (failed) return this->signalPassFailure();
    const bool verify = verify_rewrites_ && verify_rewrites_->getValue();
    if constexpr (checkable)
      if (verify && dry) {
        const auto scope = D::check_scope(cg, plan);
        this->getOperation()->emitRemark() << this->getArgument() << ": verify-rewrites: the check will cover " << scope.ops
                                           << " ops (a snapshot of " << scope.bytes << " bytes)";
      }
    if (dry || !plan.has_changes()) return this->markAllAnalysesPreserved();
    if constexpr (checkable)
      if (verify) {
        auto r = D::apply_checked(g, plan, op_printer{});
        if (r.check.ok()) return;
        for (auto d : to_diagnostics(cg, r.check, op_locator{}, std::string_view(this->getArgument()))) {
          if (!d.loc) d.loc = this->getOperation();
          for (auto& n : d.notes)
            if (!n.loc) n.loc = this->getOperation();
          mlir_adapter::emit(d);
        }
        return this->signalPassFailure();
      }
    D::apply(g, plan);
  }

  /// The pass's options, made from D's schema (`options_.flag("remarks")`, `options_.values()`).
  schema_options<options_type> options_{*this, std::type_identity<D>{}};

 private:
  /// Adds a run's counters to the pass's Statistics, made at the first run from D::statistics'
  /// names (MLIR prints them sorted by name).
  void count(const std::vector<pass_statistic>& stats) {
    if (stats_.empty())
      for (const auto& s : stats) {
        names_.push_back(std::make_unique<std::string>(s.name));
        descriptions_.push_back(std::make_unique<std::string>(s.description));
        stats_.push_back(std::make_unique<typename base::Statistic>(this, names_.back()->c_str(),
                                                                    descriptions_.back()->c_str()));
      }
    for (std::size_t i = 0; i < stats.size() && i < stats_.size(); ++i) *stats_[i] += stats[i].value;
  }

  /// D has a checked apply (docs/validation.md): the pass then has a `verify-rewrites` option.
  static constexpr bool checkable = checked_pass<D, ir, op_printer>;
  std::unique_ptr<mlir::Pass::Option<bool>> verify_rewrites_ =
      checkable ? std::make_unique<mlir::Pass::Option<bool>>(*this, mlir_adapter::ref(verify_rewrites_option),
                                                             llvm::cl::desc(mlir_adapter::ref(verify_rewrites_help)),
                                                             llvm::cl::init(false))
                : nullptr;
  std::unique_ptr<mlir::Pass::Option<std::string>> kinds_file_ = std::make_unique<mlir::Pass::Option<std::string>>(
      *this, mlir_adapter::ref(kinds_option), llvm::cl::desc(mlir_adapter::ref(kinds_help)), llvm::cl::init(std::string()));
  mlir::Pass::Option<bool>* remarks_ = options_.find_flag("remarks");
  mlir::Pass::Option<bool>* dry_run_ = options_.find_flag("dry-run");
  std::vector<std::unique_ptr<std::string>> names_, descriptions_;
  std::vector<std::unique_ptr<typename base::Statistic>> stats_;
};

/// Registers descriptor D's MLIR pass (for the command line and textual pipelines) under its MLIR
/// name, or under `argument` / `description` when given.
template <pass_descriptor D>
void register_descriptor_pass(std::string argument = descriptor_mlir_name<D>(),
                              std::string description = std::string(descriptor_mlir_summary<D>()),
                              kind_table kinds = kind_table::defaults()) {
  mlir::PassRegistration<descriptor_pass<D>>([=] {
    auto p = std::make_unique<descriptor_pass<D>>(argument, description, kinds);
    return p;
  });
}

}  // namespace neuronrw::mlir_adapter
