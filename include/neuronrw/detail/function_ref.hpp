// neuronrw/detail/function_ref.hpp — a non-owning reference to a callable, for the cold paths
// that take a callback: one instantiation per signature instead of one per caller's lambda.
//
// Customization points: none. Builds with -fno-exceptions -fno-rtti.
//
// Why: a template that takes `F&& f` is instantiated once per distinct lambda type. On a path that
// is rarely taken (the producers nested in an op's regions, for instance) that buys no speed and
// costs every translation unit that instantiates the callers a copy of the path per caller
// (docs/performance.md §"Compile cost of including neuronrw"). function_ref<R(Args...)> erases
// the callable behind one indirect call; the referenced callable must outlive the call it is
// passed to (it is never stored).
#pragma once

#include <type_traits>
#include <utility>

namespace neuronrw::detail {

template <class Signature>
class function_ref;

template <class R, class... Args>
class function_ref<R(Args...)> {
 public:
  /// References `f` (a callable object, or a function), which must outlive every call through
  /// this object.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref> && std::is_invocable_r_v<R, F&, Args...>)
  function_ref(F&& f) noexcept {  // NOLINT: implicit, as std::function_ref (C++26) is
    using T = std::remove_reference_t<F>;
    if constexpr (std::is_function_v<T>) {
      target_.function = reinterpret_cast<void (*)()>(&f);
      call_ = [](target t, Args... args) -> R {
        return static_cast<R>(reinterpret_cast<T*>(t.function)(std::forward<Args>(args)...));
      };
    } else {
      // std::addressof without <memory>, which drags in <pthread.h> and <unistd.h> (and their
      // global names, such as read) into every TU that includes the algorithms.
      target_.object = const_cast<void*>(static_cast<const void*>(__builtin_addressof(f)));
      call_ = [](target t, Args... args) -> R {
        return static_cast<R>((*static_cast<T*>(t.object))(std::forward<Args>(args)...));
      };
    }
  }

  R operator()(Args... args) const { return call_(target_, std::forward<Args>(args)...); }

 private:
  union target {
    void* object;
    void (*function)();
  };
  target target_;
  R (*call_)(target, Args...);
};

}  // namespace neuronrw::detail
