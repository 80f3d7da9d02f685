// Study files: strict parsing of workloads, fixed values and grid/list/random point sets.
#include "gpusched/sweep/study.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "gpusched/hw/presets.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/sweep/gpu_variants.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/workload_builder.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/support/text_file.h"

namespace gpusched::sweep {

namespace {

constexpr std::size_t kMaxValueLength = 4096;
constexpr std::size_t kMaxAxisValues = 1'000'000;

const char* const kSpecialNames[] = {"gpu", "policy", "exec", "workload"};

class StudyParser {
public:
    explicit StudyParser(Study& study) : s_(study) {
        for (const char* name : kSpecialNames) {
            Parameter p;
            p.name = name;
            p.kind = name == std::string("gpu")      ? ParamKind::gpu
                     : name == std::string("policy") ? ParamKind::policy
                     : name == std::string("exec")   ? ParamKind::exec
                                                     : ParamKind::workload;
            s_.params.push_back(p);
        }
    }

    void parse(const YAML::Node& root) {
        YamlFields top(root, s_.source, "");
        s_.name = top.string("study");
        for (char c : s_.name)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
                top.fail("study", "expected a name of letters, digits, '-', '_' or '.', got '" + s_.name + "'");
        (void)top.optional_string("description");
        parse_workloads(top.child("workloads"));
        if (auto fixed = top.optional_child("fixed")) parse_fixed(*fixed);
        const YAML::Node points = top.child("points");
        if (!points.IsSequence() || points.size() == 0)
            top.fail("points", "expected a non-empty list of point sets (each a mapping with grid:, list: or random:)");
        for (std::size_t i = 0; i < points.size(); ++i) parse_set(points[i], "points[" + std::to_string(i) + "]");
        top.finish();
        s_.fixed.resize(s_.params.size());
        check_workloads_needed();
        canonical_gpu_names();
    }

    /// GPU preset names as the preset spells them ("H100" -> "h100"), so results name a GPU one way.
    void canonical_gpu_names() {
        const auto canonical = [](std::string& value) {
            if (auto name = hw::canonical_preset_name(value)) value = *name;
        };
        if (!s_.fixed[kGpuParam].empty()) canonical(s_.fixed[kGpuParam]);
        for (auto& set : s_.sets) {
            for (auto& axis : set.axes)
                if (axis.param == kGpuParam)
                    for (auto& value : axis.values) canonical(value);
            for (auto& row : set.rows)
                for (auto& [param, value] : row)
                    if (param == kGpuParam) canonical(value);
            for (auto& axis : set.random_axes)
                if (axis.param == kGpuParam)
                    for (auto& value : axis.choices) canonical(value);
        }
    }

private:
    [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& what) const {
        throw InputError(yaml_location(at, s_.source) + ": key '" + key + "': " + what);
    }

    void parse_workloads(const YAML::Node& node) {
        YamlFields fields(node, s_.source, "workloads");  // checks it is a mapping without repeated keys
        if (node.size() == 0) fields.fail("", "expected at least one workload NAME: SPEC");
        for (auto it = node.begin(); it != node.end(); ++it) {
            WorkloadDef w;
            w.name = it->first.Scalar();
            w.where = yaml_location(it->first, s_.source);
            const std::string key = "workloads." + w.name;
            const YAML::Node v = it->second;
            if (v.IsScalar()) {
                w.specs.push_back(v.Scalar());
            } else if (v.IsSequence() && v.size() > 0) {
                for (const auto& item : v) {
                    if (!item.IsScalar()) fail(item, key, "expected kernel spec strings");
                    w.specs.push_back(item.Scalar());
                }
            } else if (v.IsMap()) {
                YamlFields f(v, s_.source, key);
                w.file = f.string("file");
                f.finish();
                std::filesystem::path path(w.file);
                if (path.is_relative() && !s_.base_dir.empty()) path = std::filesystem::path(s_.base_dir) / path;
                w.file = path.string();
                try {
                    w.file_text = read_text_file(w.file, "workload file", workloads::kMaxWorkloadFileBytes);
                } catch (const InputError& e) {
                    fail(v, key + ".file", e.what());
                }
            } else {
                fail(v, key, "expected a kernel spec, a list of kernel specs, or {file: WORKLOAD.yaml}");
            }
            const std::string broken = broken_placeholder(w.file.empty() ? "" : w.file_text, true);
            if (!broken.empty())
                fail(v, key + ".file", w.file + ": " + broken + ": a placeholder is ${NAME} (letters, digits, _)");
            for (const auto& spec : w.specs) {
                const std::string in_spec = broken_placeholder(spec);
                if (!in_spec.empty())
                    fail(v, key, "broken placeholder " + in_spec.substr(in_spec.find('\'')) +
                                     " in '" + spec + "': a placeholder is ${NAME} (letters, digits, _)");
            }
            for (const auto& spec : w.specs)
                if (spec_keys(spec).empty())
                    fail(v, key, "'" + spec + "' does not name a known kernel (gpusched list workloads)");
            s_.workloads.push_back(std::move(w));
        }
    }

    /// The index of parameter `name`, registering and classifying it on first use.
    std::size_t param(const YAML::Node& key_node) {
        const std::string name = key_node.Scalar();
        for (std::size_t i = 0; i < s_.params.size(); ++i)
            if (s_.params[i].name == name) return i;
        const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
        });
        if (!valid) fail(key_node, name, "a parameter name is letters, digits, '_' and '.'");
        const auto& metrics = metric_names();
        if (name == "point" || std::find(metrics.begin(), metrics.end(), name) != metrics.end())
            fail(key_node, name, "'" + name + "' names a results column (point or a metric): rename the parameter");
        Parameter p;
        p.name = name;
        bool workload = false;
        for (const auto& w : s_.workloads) workload = workload || feeds_workload(w, name);
        if (name.starts_with("gpu.")) {
            p.kind = ParamKind::gpu_field;
            p.gpu_path = name.substr(4);
        } else if (workload) {
            p.kind = ParamKind::workload_key;
        } else if (name.find('.') != std::string::npos) {
            p.kind = ParamKind::gpu_field;
            p.gpu_path = name;
        } else {
            std::optional<std::string> path;
            try {
                path = find_gpu_key(name);
            } catch (const InputError& e) {
                fail(key_node, name, e.what());
            }
            if (!path)
                fail(key_node, name,
                     "unknown parameter: not gpu, policy, exec or workload, not a ${" + name +
                         "} placeholder or a kernel key of any workload, and not a GPU key (docs/gpu-spec.md; "
                         "SECTION.KEY for keys no preset has)");
            p.kind = ParamKind::gpu_field;
            p.gpu_path = *path;
        }
        if (p.kind == ParamKind::gpu_field && p.gpu_path.empty())
            fail(key_node, name, "expected a GPU key after 'gpu.'");
        s_.params.push_back(std::move(p));
        return s_.params.size() - 1;
    }

    std::string value(const YAML::Node& node, const std::string& key) const {
        if (!node.IsScalar()) fail(node, key, "expected a single value");
        const std::string& text = node.Scalar();
        if (text.empty() || text.size() > kMaxValueLength) fail(node, key, "expected a non-empty value of at most 4096 characters");
        for (char c : text)
            if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
                fail(node, key, "expected printable ASCII, got '" + text + "'");
        return text;
    }

    void parse_fixed(const YAML::Node& node) {
        YamlFields fields(node, s_.source, "fixed");
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::size_t p = param(it->first);
            s_.fixed.resize(s_.params.size());
            s_.fixed[p] = value(it->second, "fixed." + s_.params[p].name);
        }
    }

    std::vector<std::string> axis_values(const YAML::Node& node, const std::string& key) {
        std::vector<std::string> values;
        if (node.IsSequence()) {
            if (node.size() == 0) fail(node, key, "empty list: an axis needs at least one value");
            for (const auto& item : node) values.push_back(value(item, key));
        } else if (node.IsMap()) {
            YamlFields f(node, s_.source, key);
            const std::int64_t from = f.integer("from", -(std::int64_t{1} << 53), std::int64_t{1} << 53);
            const std::int64_t to = f.integer("to", -(std::int64_t{1} << 53), std::int64_t{1} << 53);
            const std::int64_t step = f.optional_integer("step", 1, std::int64_t{1} << 53).value_or(1);
            f.finish();
            if (to < from) fail(node, key, "empty range: 'to' (" + std::to_string(to) + ") is below 'from' (" +
                                               std::to_string(from) + ")");
            if ((to - from) / step + 1 > static_cast<std::int64_t>(kMaxAxisValues))
                fail(node, key, "more than " + std::to_string(kMaxAxisValues) + " values");
            for (std::int64_t v = from; v <= to; v += step) values.push_back(std::to_string(v));
        } else {
            values.push_back(value(node, key));
        }
        return values;
    }

    std::uint64_t add_points(std::uint64_t count, const YAML::Node& at) {
        if (count > kMaxStudyPoints - s_.total_points)
            fail(at, "points", "the study has more than " + std::to_string(kMaxStudyPoints) +
                                   " points; split it into several studies");
        s_.total_points += count;
        return count;
    }

    void parse_set(const YAML::Node& node, const std::string& path) {
        YamlFields f(node, s_.source, path);
        PointSet set;
        set.where = yaml_location(node, s_.source);
        const int kinds = (f.has("grid") ? 1 : 0) + (f.has("list") ? 1 : 0) + (f.has("random") ? 1 : 0);
        if (kinds != 1) f.fail("", "expected exactly one of grid:, list: or random:");
        if (f.has("grid")) {
            const YAML::Node grid = f.child("grid");
            YamlFields axes(grid, s_.source, path + ".grid");
            if (grid.size() == 0) axes.fail("", "a grid needs at least one axis");
            std::uint64_t count = 1;
            for (auto it = grid.begin(); it != grid.end(); ++it) {
                Axis axis;
                axis.param = param(it->first);
                axis.where = yaml_location(it->first, s_.source);
                axis.values = axis_values(it->second, path + ".grid." + s_.params[axis.param].name);
                if (count > kMaxStudyPoints / axis.values.size())
                    fail(it->first, "points", "the grid has more than " + std::to_string(kMaxStudyPoints) + " points");
                count *= axis.values.size();
                set.axes.push_back(std::move(axis));
            }
            set.kind = PointSet::Kind::grid;
            set.count = add_points(count, grid);
        } else if (f.has("list")) {
            const YAML::Node list = f.child("list");
            if (!list.IsSequence() || list.size() == 0) f.fail("list", "expected a non-empty list of points (mappings)");
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string item_path = path + ".list[" + std::to_string(i) + "]";
                YamlFields item(list[i], s_.source, item_path);
                std::vector<std::pair<std::size_t, std::string>> row;
                for (auto it = list[i].begin(); it != list[i].end(); ++it) {
                    const std::size_t p = param(it->first);
                    row.emplace_back(p, value(it->second, item_path + "." + s_.params[p].name));
                }
                set.rows.push_back(std::move(row));
            }
            set.kind = PointSet::Kind::list;
            set.count = add_points(set.rows.size(), list);
        } else {
            const YAML::Node random = f.child("random");
            YamlFields r(random, s_.source, path + ".random");
            const std::int64_t count = r.integer("count", 1, static_cast<std::int64_t>(kMaxStudyPoints));
            set.seed = static_cast<std::uint64_t>(r.integer("seed", 0, std::numeric_limits<std::int64_t>::max()));
            const YAML::Node axes = r.child("axes");
            r.finish();
            YamlFields axes_fields(axes, s_.source, path + ".random.axes");
            if (axes.size() == 0) axes_fields.fail("", "random sampling needs at least one axis");
            for (auto it = axes.begin(); it != axes.end(); ++it)
                set.random_axes.push_back(random_axis(it->first, it->second, path + ".random.axes"));
            set.kind = PointSet::Kind::random;
            set.count = add_points(static_cast<std::uint64_t>(count), random);
        }
        f.finish();
        s_.sets.push_back(std::move(set));
    }

    RandomAxis random_axis(const YAML::Node& key, const YAML::Node& node, const std::string& path) {
        RandomAxis axis;
        axis.param = param(key);
        axis.where = yaml_location(key, s_.source);
        const std::string name = path + "." + s_.params[axis.param].name;
        if (node.IsSequence()) {
            axis.choices = axis_values(node, name);
            return axis;
        }
        if (!node.IsMap()) fail(node, name, "expected a list of choices or {min: LO, max: HI}");
        if (axis.param <= kWorkloadParam) fail(node, name, "expected a list of choices (a range is for numbers)");
        YamlFields f(node, s_.source, name);
        const YAML::Node lo = f.child("min"), hi = f.child("max");
        f.finish();
        const std::string lo_text = lo.IsScalar() ? lo.Scalar() : "", hi_text = hi.IsScalar() ? hi.Scalar() : "";
        const auto ilo = parse_integer(lo_text);
        const auto ihi = parse_integer(hi_text);
        if (ilo.has_value() && ihi.has_value()) {
            constexpr std::int64_t kLimit = std::int64_t{1} << 53;
            if (*ilo < -kLimit || *ihi > kLimit || *ilo > *ihi)
                fail(node, name, "expected integers min <= max within +-2^53");
            axis.int_lo = *ilo;
            axis.int_hi = *ihi;
            return axis;
        }
        const auto dlo = parse_number(lo_text);
        const auto dhi = parse_number(hi_text);
        if (!dlo || !dhi || *dlo > *dhi) fail(node, name, "expected numbers min <= max");
        axis.integer = false;
        axis.lo = *dlo;
        axis.hi = *dhi;
        return axis;
    }

    /// Several workloads need `workload` named in fixed: or in every point set.
    void check_workloads_needed() const {
        if (s_.workloads.size() < 2 || !s_.fixed[kWorkloadParam].empty()) return;
        for (const auto& set : s_.sets) {
            bool given = std::any_of(set.axes.begin(), set.axes.end(), [](const Axis& a) { return a.param == kWorkloadParam; }) ||
                         std::any_of(set.random_axes.begin(), set.random_axes.end(),
                                     [](const RandomAxis& a) { return a.param == kWorkloadParam; });
            for (const auto& row : set.rows)
                given = given || std::any_of(row.begin(), row.end(), [](const auto& kv) { return kv.first == kWorkloadParam; });
            if (!given)
                throw InputError(set.where + ": the study has " + std::to_string(s_.workloads.size()) +
                                 " workloads: give 'workload' in fixed: or in this point set");
        }
    }

    Study& s_;
};

}  // namespace

std::uint64_t fnv1a(const std::string& bytes) {
    std::uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

Study parse_study(const std::string& yaml, const std::string& source, const std::string& base_dir) {
    Study study;
    study.source = source;
    study.base_dir = base_dir;
    study.digest = fnv1a(yaml);
    const YAML::Node root = parse_yaml_document(yaml, source);
    try {
        StudyParser(study).parse(root);
    } catch (const YAML::Exception& e) {
        throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ": invalid study: " + e.msg);
    }
    return study;
}

Study load_study(const std::string& path) {
    return parse_study(read_text_file(path, "study file", kMaxStudyFileBytes), path,
                       std::filesystem::path(path).parent_path().string());
}

}  // namespace gpusched::sweep
