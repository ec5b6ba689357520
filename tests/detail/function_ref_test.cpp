// detail::function_ref: calls reach the referenced callable itself (its state, not a copy's),
// the result converts to the signature's, copies refer to the same callable, and plain
// functions, const callables and mutable lambdas all bind.
#include <doctest/doctest.h>

#include <string>

#include <neuronrw/detail/function_ref.hpp>

namespace {

using neuronrw::detail::function_ref;

int twice(int x) { return 2 * x; }

int call_with(function_ref<int(int)> f, int x) { return f(x); }

struct counter {
  int calls = 0;
  bool operator()(int x) {
    ++calls;
    return x > 0;
  }
};

struct const_only {
  int operator()(int x) const { return x + 1; }
};

}  // namespace

TEST_CASE("function_ref calls the referenced callable, not a copy") {
  counter c;
  function_ref<bool(int)> f(c);
  CHECK(f(1));
  CHECK_FALSE(f(-1));
  CHECK(c.calls == 2);
  const function_ref<bool(int)> copy = f;  // a copy refers to the same counter
  CHECK(copy(5));
  CHECK(c.calls == 3);
}

TEST_CASE("function_ref binds functions, const callables and mutable lambdas") {
  CHECK(call_with(twice, 21) == 42);
  CHECK(call_with(const_only{}, 41) == 42);  // a temporary lives until the call returns
  int total = 0;
  auto add = [&total](int x) mutable {
    total += x;
    return total;
  };
  CHECK(call_with(add, 40) == 40);
  CHECK(call_with(add, 2) == 42);
  CHECK(total == 42);
}

TEST_CASE("function_ref converts the callable's result to the signature's") {
  auto length = [](const std::string& s) { return s.size(); };  // std::size_t → bool
  function_ref<bool(const std::string&)> nonempty(length);
  CHECK(nonempty("x"));
  CHECK_FALSE(nonempty(""));
  int seen = 0;
  auto store = [&seen](int x) { return seen = x; };  // named: a function_ref never owns
  function_ref<void(int)> sink(store);               // the result is dropped
  sink(7);
  CHECK(seen == 7);
}
