// neuronrw/detail/try.hpp — NEURONRW_TRY: leave the enclosing function when a step failed.
//
// Customization points: none.
//
// The text readers (ir/ref/parse.hpp and its syntax/ layers, ir/host/text/parser.hpp) and the
// Python emitter (ir/ref/python_emitter.hpp) report bad input without exceptions, so they build
// and behave the same with -fno-exceptions (the fourth shape of detail/assert.hpp's list: input a
// user can write gets an error value). Each reader records its first error in its own state
// (`fail(at, message)` stores it and returns false); every step that can fail returns `bool`
// (true: done; its results go to out-parameters) and is [[nodiscard]], so a caller that forgets
// to look is a compile error under -Werror. A caller passes a failure on with
//
//   NEURONRW_TRY(parse_type(t));
//
// which returns `{}` from the enclosing function (false for `bool`, nullopt for an optional)
// when the step returned false. Nothing is unwound: the reader's state after a failure is
// abandoned by the entry point, which turns the recorded error into the diagnostic.
#pragma once

/// Returns `{}` from the enclosing function when `expr` (anything testable as a bool) is false.
#define NEURONRW_TRY(...)                \
  do {                                   \
    if (!(__VA_ARGS__)) [[unlikely]]     \
      return {};                         \
  } while (false)
