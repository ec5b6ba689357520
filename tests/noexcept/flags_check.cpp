// Compiled with the no-exceptions target's flags: fails to build if those flags stop taking
// effect, so the target cannot silently turn into an ordinary build.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "the no-exceptions target is built with exceptions enabled"
#endif
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
#error "the no-exceptions target is built with RTTI enabled"
#endif
#include <doctest/doctest.h>
#ifndef DOCTEST_CONFIG_NO_EXCEPTIONS
#error "doctest does not know exceptions are off"
#endif
