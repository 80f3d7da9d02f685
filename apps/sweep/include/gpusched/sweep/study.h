// Study: a sweep's schema as read from STUDY.yaml (workloads, parameters, point sets); docs/sweep.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusched::sweep {

/// What a parameter sets.
enum class ParamKind {
    gpu,           ///< the GPU: a preset name or a GPU YAML file
    policy,        ///< the dispatch policy
    exec,          ///< the execution model: auto, fixed or shared
    workload,      ///< which of the study's workloads
    gpu_field,     ///< one key of the GPU's YAML (Parameter::gpu_path)
    workload_key,  ///< a ${NAME} placeholder, or a key of a one-spec workload's kernel
};

/// One column of the results: a parameter and how it was recognised.
struct Parameter {
    std::string name;
    ParamKind kind = ParamKind::workload_key;
    std::string gpu_path;  ///< gpu_field: dotted key path in the GPU YAML, e.g. "limits.max_blocks_per_sm"
};

/// A named workload: kernel specs (launched in order) or a workload file; either may hold
/// ${NAME} placeholders.
struct WorkloadDef {
    std::string name;
    std::vector<std::string> specs;
    std::string file;       ///< workload file path (relative ones resolved against the study's folder)
    std::string file_text;  ///< its contents, read once
    std::string where;      ///< "STUDY:LINE"
};

/// One axis of a grid: the values of one parameter, in order.
struct Axis {
    std::size_t param = 0;
    std::vector<std::string> values;
    std::string where;
};

/// One axis of a random set: a uniform choice among `choices`, or a uniform draw from
/// [lo, hi] (integers when both ends are integers).
struct RandomAxis {
    std::size_t param = 0;
    std::vector<std::string> choices;
    bool integer = true;
    std::int64_t int_lo = 0, int_hi = 0;
    double lo = 0, hi = 0;
    std::string where;
};

/// One entry of `points:`.
struct PointSet {
    enum class Kind { grid, list, random };
    Kind kind = Kind::grid;
    std::vector<Axis> axes;                                              ///< grid: first axis varies slowest
    std::vector<std::vector<std::pair<std::size_t, std::string>>> rows;  ///< list: (param, value) per point
    std::vector<RandomAxis> random_axes;                                 ///< random
    std::uint64_t seed = 0;                                              ///< random
    std::uint64_t count = 0;                                             ///< points in this set
    std::string where;
};

/// The first four parameters of every study, at these indices.
constexpr std::size_t kGpuParam = 0, kPolicyParam = 1, kExecParam = 2, kWorkloadParam = 3;

struct Study {
    std::string name;
    std::string source;           ///< the study file as given
    std::string base_dir;         ///< folder relative GPU and workload files are read from
    std::uint64_t digest = 0;     ///< FNV-1a of the study text (merge checks parts come from one study)
    std::vector<WorkloadDef> workloads;
    std::vector<Parameter> params;   ///< columns in order: gpu, policy, exec, workload, then first use
    std::vector<std::string> fixed;  ///< per parameter: the `fixed:` value, or empty
    std::vector<PointSet> sets;
    std::uint64_t total_points = 0;
};

/// Most points a study may have (the sum over its point sets).
constexpr std::uint64_t kMaxStudyPoints = 10'000'000;
constexpr std::size_t kMaxStudyFileBytes = std::size_t{4} << 20;

/// Parses study YAML. `source` names it in messages; `base_dir` is where relative paths
/// start. Throws InputError "SOURCE:LINE: ..." for an unknown key or parameter, a bad value,
/// an empty axis, or more than kMaxStudyPoints points.
Study parse_study(const std::string& yaml, const std::string& source, const std::string& base_dir);

/// Reads and parses a study file (relative paths inside it start at its folder).
Study load_study(const std::string& path);

/// FNV-1a 64-bit hash of bytes, as 16 hex digits in the results header.
std::uint64_t fnv1a(const std::string& bytes);

}  // namespace gpusched::sweep
