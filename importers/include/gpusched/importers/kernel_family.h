// Kernel families: an ordered rule table (name patterns and launch shape) that puts each traced kernel in a family.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::importers {

/// How a family's work can be estimated from a trace.
enum class FamilyKind : std::uint8_t {
    memory,   ///< bytes moved: elementwise, reduction, softmax, normalization, copy, index, optimizer
    compute,  ///< floating-point operations: gemm, conv, attention
    none,     ///< neither: elementwise_scalar, sort_scan, collective, triton, other (duration only)
};

/// One row of the table: a kernel whose name matches (and whose launch fits the shape) is in `family`.
struct FamilyRule {
    std::string_view family;       ///< a name of workloads::kernel_family_names()
    std::string_view patterns;     ///< '|'-separated: a kernel matches when its lower-cased name contains one
                                   ///< (a pattern starting with '^' must start the name after "void ")
    std::uint64_t max_blocks = 0;  ///< launch shape: the row applies only to grids of at most this many blocks; 0 any
    std::string_view description;
};

/// The ordered rule table (the first matching row wins; no row: `other`), docs/importing.md "Kernel families".
const std::vector<FamilyRule>& family_rules();

/// A kernel's family and the row that gave it (-1: no row matched, the fallback `other`).
struct FamilyMatch {
    std::string family;
    int rule = -1;
};

/// `text` in lower case (ASCII), as the rule tables match names.
std::string lowered_name(std::string_view text);

/// Whether a lower-cased kernel name contains one of the '|'-separated `patterns` (a pattern starting
/// with '^' must start the name after a leading "void ").
bool name_matches(std::string_view name, std::string_view patterns);

/// Classifies a kernel by its full (demangled or mangled) name and its grid.
FamilyMatch classify_kernel(std::string_view full_name, const std::array<std::uint32_t, 3>& grid);

/// memory, compute or none for a family name.
FamilyKind family_kind(std::string_view family);

}  // namespace gpusched::importers
