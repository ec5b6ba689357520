// Static tests for neuronrw/descriptors/kinds.hpp: ids, fixed_string, named_kind, kind_id_index.
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/fnv1a.hpp>

#include <array>
#include <string_view>
#include <type_traits>

namespace {

using namespace std::string_view_literals;
using neuronrw::kind_id_of;
using neuronrw::kind_id_v;
namespace kinds = neuronrw::kinds;
namespace detail = neuronrw::detail;

// FNV-1a reference values (computed independently in Python; "a" and "foobar" are also FNV's
// published test vectors). kind ids are the library's one FNV-1a (detail/fnv1a.hpp), 32-bit.
static_assert(neuronrw::detail::fnv1a_32_of("") == 0x811c9dc5u);
static_assert(neuronrw::detail::fnv1a_32_of("a") == 0xe40c292cu);
static_assert(neuronrw::detail::fnv1a_32_of("foobar") == 0xbf9cf968u);
static_assert(neuronrw::detail::fnv1a_64_of("") == 0xcbf29ce484222325ull);
static_assert(neuronrw::detail::fnv1a_64_of("a") == 0xaf63dc4c8601ec8cull);
static_assert(neuronrw::detail::fnv1a_64_of("foobar") == 0x85944171f73967e8ull);
static_assert(neuronrw::detail::fnv1a_64_of("all_gather") == 0xa9fa1f23b0968b2eull);
// The incremental form is the same hash fed in pieces.
static_assert(neuronrw::detail::fnv1a_64{}.update("foo").update("").update_byte('b').update("ar").value() ==
              neuronrw::detail::fnv1a_64_of("foobar"));
static_assert(neuronrw::detail::fnv1a_32{}.update("all_").update("gather").value() == 0x77f23e4eu);
// mix() is one step over a whole word: (h ^ w) * prime, from the seed given.
static_assert(neuronrw::detail::fnv1a_64{5}.mix(3).value() == (5ull ^ 3ull) * 0x100000001b3ull);
static_assert(kind_id_of("") == 2166136261u);
static_assert(kind_id_of("all_gather") == 0x77f23e4eu);
static_assert(kind_id_v<kinds::return_> == kind_id_of("return"));
static_assert(kind_id_v<kinds::all_gather> != neuronrw::unknown_kind);

// A tag made from a name is the same kind as the declared tag.
static_assert(neuronrw::named_kind<"all_gather">::name == "all_gather"sv);
static_assert(kind_id_v<neuronrw::named_kind<"all_gather">> == kind_id_v<kinds::all_gather>);
static_assert(neuronrw::kind_tag_type<neuronrw::named_kind<"x">>);
static_assert(!neuronrw::kind_tag_type<int>);

constexpr neuronrw::fixed_string fs = "Expm1";
static_assert(fs.size() == 5 && fs.view() == "Expm1"sv);

// The linear index (<= 8 ids) and the hashed index agree with a plain search.
constexpr std::array<std::string_view, 3> small_names{"a", "b", "c"};
constexpr auto small = detail::make_kind_id_index(small_names);
static_assert(!decltype(small)::hashed);
static_assert(small.find(kind_id_of("b")) == 1 && small.find(kind_id_of("d")) == detail::npos_index);
static_assert(small.find(neuronrw::unknown_kind) == detail::npos_index);
static_assert(small.conflict == detail::id_conflict::none);

constexpr std::array<std::string_view, 12> big_names{"k0", "k1", "k2", "k3", "k4",  "k5",
                                                     "k6", "k7", "k8", "k9", "k10", "k11"};
constexpr auto big = detail::make_kind_id_index(big_names);
static_assert(decltype(big)::hashed && decltype(big)::capacity == 32);
static_assert([] {
  for (std::size_t i = 0; i < big_names.size(); ++i)
    if (big.find(kind_id_of(big_names[i])) != i) return false;
  return big.find(kind_id_of("k12")) == detail::npos_index &&
         big.find(neuronrw::unknown_kind) == detail::npos_index;
}());

// Conflicts are recorded with the positions of the pair, not reported here.
constexpr std::array<std::string_view, 4> dup_names{"a", "b", "c", "b"};
static_assert(detail::make_kind_id_index(dup_names).conflict == detail::id_conflict::same_name);
static_assert(detail::make_kind_id_index(dup_names).conflict_first == 1);
static_assert(detail::make_kind_id_index(dup_names).conflict_second == 3);
// "nakmvxxv" and "tbdxatiq" collide under 32-bit FNV-1a.
static_assert(kind_id_of("nakmvxxv") == kind_id_of("tbdxatiq"));
constexpr std::array<std::string_view, 2> colliding{"nakmvxxv", "tbdxatiq"};
static_assert(detail::make_kind_id_index(colliding).conflict == detail::id_conflict::same_id);

}  // namespace
