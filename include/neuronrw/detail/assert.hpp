// neuronrw/detail/assert.hpp — NEURONRW_ASSERT and NEURONRW_CHECK: report `FILE:LINE: ...` and
// a message on stderr, then std::abort().
//
// Customization points: define NEURONRW_ENABLE_ASSERTS to keep NEURONRW_ASSERT under NDEBUG.
//
// The library's generic layers build without exceptions (LLVM and MLIR compile with
// -fno-exceptions), so a failure has three possible shapes, chosen by who can cause it:
//   * input a user can write (a bad module, a refused rewrite): an error value — a plan's
//     refusals, `diagnostics`, an optional. Never this header.
//   * a precondition only a bug in the caller can break (an option outside its documented
//     range, a detached node passed where an attached one is required): NEURONRW_ASSERT. Like
//     `assert`, it is compiled out under NDEBUG, so release builds pay nothing on hot paths.
//   * a limit that valid but huge input can reach (more than 2^32 - 1 ops in one structure of
//     32-bit ids): NEURONRW_CHECK, always on. Going on would silently corrupt the IR, and the
//     caller could not have checked it cheaply beforehand; a branch that is never taken costs
//     next to nothing next to the allocation it guards.
// Both print with std::fprintf, which needs no exceptions, no RTTI and no static constructor.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace neuronrw::detail {

/// Prints `file:line: neuronrw: message (failed: condition)` on stderr and aborts.
[[noreturn]] inline void check_failed(const char* file, int line, const char* condition,
                                      const char* message) noexcept {
  std::fprintf(stderr, "%s:%d: neuronrw: %s (failed: %s)\n", file, line, message, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace neuronrw::detail

/// Always-on check of a limit valid input can reach: aborts with file:line and `message` (a
/// string literal) when `condition` is false. Usable in constexpr functions (a failing check is
/// then a compile error).
#define NEURONRW_CHECK(condition, message)          \
  ((condition) ? static_cast<void>(0)              \
               : ::neuronrw::detail::check_failed(__FILE__, __LINE__, #condition, message))

/// A precondition only a bug can break: as NEURONRW_CHECK, but compiled out under NDEBUG (unless
/// NEURONRW_ENABLE_ASSERTS is defined). Compiled out, `condition` is not evaluated, but it stays
/// an unevaluated operand so the variables it names do not become "unused".
#if defined(NDEBUG) && !defined(NEURONRW_ENABLE_ASSERTS)
#define NEURONRW_ASSERT(condition, message) static_cast<void>(sizeof(!(condition)))
#else
#define NEURONRW_ASSERT(condition, message) NEURONRW_CHECK(condition, message)
#endif
