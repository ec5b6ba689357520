// registry.hpp — the passes a neuronrw-opt run knows, each registered from its descriptor alone
// (neuronrw/passes/protocol.hpp): `reg.register_pass<D>()` makes its pass_spec (name, display
// name, input, help line, options from the schema, the MLIR pass's name as an alias, the dry-run
// name when its schema has a `dry-run` option) and its runner (passes.hpp, run_descriptor). The
// names the driver accepts — flags, pipeline elements, --list-passes, --help — are the
// registered ones: canonical names and dry-run names in registration order, then the aliases.
//
//   neuronrw_opt::pass_registry reg = neuronrw_opt::builtin_passes();
//   reg.register_pass<my_prefetch>();
//   return neuronrw_opt::driver_main(argc, argv, reg);     // driver.hpp
#pragma once

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "pass_registry.hpp"
#include "passes.hpp"
#include "validate_kinds.hpp"

namespace neuronrw_opt {

class pass_registry {
 public:
  pass_registry() = default;
  pass_registry(const pass_registry& o) { *this = o; }
  pass_registry& operator=(const pass_registry& o) {
    if (this != &o) {
      specs_ = o.specs_;
      for (auto& s : specs_) s.options = s.own_options;  // the copies' own storage
      rebuild_names();
    }
    return *this;
  }

  /// Registers pass D (any pass descriptor whose plan, apply and describe accept the reference
  /// IR, or a host program for a `pass_input::host` pass).
  template <neuronrw::pass_descriptor D>
  pass_registry& register_pass() {
    namespace nr = neuronrw;
    pass_spec s{D::name,
                D::display,
                D::input == nr::pass_input::ops ? input_kind::mlir : input_kind::host,
                D::summary,
                {},
                {},
                {},
                {}};
    {
      const auto& schema = nr::option_infos_v<typename D::options, nr::option_tools::driver>;
      s.own_options.assign(schema.begin(), schema.end());
      if (D::input == nr::pass_input::ops)
        s.own_options.push_back(nr::option_info{nr::kinds_option, {}, nr::option_type::string, {}, nr::kinds_help,
                                                nr::option_check::none, false, nr::option_tools::all, {}});
      if (pass_detail::offers_check<D>())
        s.own_options.push_back(nr::option_info{nr::verify_rewrites_option, {}, nr::option_type::boolean, "false",
                                                nr::verify_rewrites_help, nr::option_check::none, false,
                                                nr::option_tools::all, {}});
      s.options = s.own_options;
    }
    s.check_options = &pass_detail::check_options<D>;
    s.implied_text = &pass_detail::implied_text<D>;
    if (D::input == nr::pass_input::ops) s.alias = nr::descriptor_mlir_name<D>();
    bool dry = false;
    for (const auto& o : s.options) dry |= o.name == "dry-run";
    if (dry && !nr::descriptor_dry_run_help<D>().empty())
      s.dry_run_help = std::string(D::name) + "{dry-run=true}: " + std::string(nr::descriptor_dry_run_help<D>());
    if constexpr (D::input == nr::pass_input::ops) {
      s.run_mlir = &pass_detail::run_descriptor<D, nr::ref::module>;
      if constexpr (requires { driver_extension<D>::draws_dot; })
        if (driver_extension<D>::draws_dot) s.plan_for_dot = &pass_detail::plan_for_dot<D>;
    } else {
      s.run_host = &pass_detail::run_descriptor<D, nr::host::program>;
    }
    specs_.push_back(std::move(s));
    rebuild_names();
    return *this;
  }

  /// Every registered pass, in registration order.
  const std::deque<pass_spec>& passes() const noexcept { return specs_; }
  /// Every accepted name: canonical and dry-run names in registration order, then the aliases.
  std::span<const pass_name> names() const noexcept { return names_; }
  const pass_name* find(std::string_view n) const noexcept {
    for (const auto& p : names_)
      if (p.name == n) return &p;
    return nullptr;
  }
  const pass_spec* find_pass(std::string_view name) const noexcept {
    for (const auto& s : specs_)
      if (s.name == name) return &s;
    return nullptr;
  }

 private:
  void rebuild_names() {
    names_.clear();
    dry_names_.clear();
    for (const auto& s : specs_) {
      names_.push_back({s.name, &s});
      if (s.dry_run_help.empty()) continue;
      dry_names_.push_back(std::string(s.name) + "-dry-run");
      names_.push_back({dry_names_.back(), &s, true, s.dry_run_help});
    }
    for (const auto& s : specs_)
      if (!s.alias.empty()) names_.push_back({s.alias, &s, false, {}, true});
  }

  std::deque<pass_spec> specs_;
  std::deque<std::string> dry_names_;
  std::vector<pass_name> names_;
};

/// neuronrw-opt's own passes: the library's five and validate-kinds, in --list-passes order.
inline pass_registry builtin_passes() {
  namespace p = neuronrw::passes;
  pass_registry r;
  r.register_pass<p::schedule_fusion>()
      .register_pass<p::schedule_fusion_composites>()
      .register_pass<p::fusion_to_composite>()
      .register_pass<validate_kinds_pass>()
      .register_pass<p::materialize_comm_domain_scopes>()
      .register_pass<p::synthesize_allreduce_signals>();
  return r;
}

/// The registry of this process's neuronrw-opt (the built-in passes).
inline const pass_registry& default_registry() {
  static const pass_registry r = builtin_passes();
  return r;
}

inline const pass_name* find_pass_name(std::string_view n, const pass_registry& reg = default_registry()) noexcept {
  return reg.find(n);
}

}  // namespace neuronrw_opt
