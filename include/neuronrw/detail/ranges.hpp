// neuronrw/detail/ranges.hpp — the C++20 range concepts, range access objects and view_base
// (std::ranges::range, input_range, range_value_t, sized_range, view, begin, end, size, empty,
// data, ...) without the views and range adaptors of <ranges>, which the headers that include
// this one do not use.
//
// Customization points: none. Builds with -fno-exceptions -fno-rtti.
//
// Why: <ranges> costs every TU that includes it about 9 MB of clang++'s memory and 5 MB of
// g++'s, nearly all of it for the views (docs/performance.md §"Compile cost of including
// neuronrw"). libstdc++ declares the concepts and access objects in <bits/ranges_base.h>, the
// header its own <span> and <string_view> include; with any other standard library (or a
// libstdc++ without that header) this is <ranges>. A header that uses a view or a ranges
// algorithm includes <ranges> or <algorithm> itself.
#pragma once

#include <version>  // defines __GLIBCXX__ under libstdc++

#if defined(__GLIBCXX__) && __has_include(<bits/ranges_base.h>)
// What <bits/ranges_base.h> needs and does not include itself (as <ranges> includes it).
#include <compare>
#include <initializer_list>
#include <iterator>
#include <bits/ranges_base.h>
#else
#include <ranges>
#endif
