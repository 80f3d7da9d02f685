// Calibration files: strict YAML reading with FILE:LINE errors, exact writing, and merging into kernel specs.
#include "gpusched/calibrate/calibration_file.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::calibrate {

namespace {

constexpr std::size_t kMaxCalibrationBytes = std::size_t{1} << 20;
constexpr double kMaxKeyValue = 1e12;
constexpr double kMaxFactor = 1e6;

std::string key_names(const workloads::KernelGeneratorInfo& generator) {
    std::string out;
    for (const auto& k : generator.keys) out += (out.empty() ? "" : ", ") + k.name;
    return out;
}

}  // namespace

std::string exact_number(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

Calibration parse_calibration(const std::string& yaml, const std::string& source) {
    const YAML::Node root = parse_yaml_document(yaml, source);
    Calibration out;
    YamlFields top(root, source, "");
    out.kernel = top.string("kernel");
    const auto* generator = workloads::find_kernel_generator(out.kernel);
    if (generator == nullptr)
        top.fail("kernel", "unknown kernel '" + out.kernel + "' (known kernels: " + workloads::kernel_generator_names() +
                               ")");
    if (auto keys = top.optional_child("keys")) {
        if (!keys->IsMap()) top.fail("keys", "expected a mapping of " + out.kernel + " keys to numbers");
        YamlFields fields(*keys, source, "keys");
        for (const auto& entry : *keys) {
            if (!entry.first.IsScalar())
                throw InputError(yaml_location(entry.first, source) + ": key 'keys': expected key names of " +
                                 out.kernel + ", got " +
                                 (entry.first.IsSequence() ? "a list" : entry.first.IsMap() ? "a mapping" : "nothing") +
                                 " as a key");
            const std::string name = entry.first.Scalar();
            const bool known = std::any_of(generator->keys.begin(), generator->keys.end(),
                                           [&](const workloads::SpecKeyInfo& k) { return k.name == name; });
            if (!known)
                fields.fail(name, "not a key of " + out.kernel + " (its keys: " + key_names(*generator) + ")");
            out.keys.emplace_back(name, fields.number(name, 0, kMaxKeyValue));
            out.key_where.push_back(yaml_location(entry.first, source));
        }
        fields.finish();
    }
    if (auto interval = top.optional_child("interval")) {
        if (!interval->IsMap()) top.fail("interval", "expected a mapping with f and launch_us");
        YamlFields fields(*interval, source, "interval");
        IntervalFactor factor;
        factor.f = fields.number("f", 1e-9, kMaxFactor);
        factor.launch_us = fields.optional_number("launch_us", 0, kMaxFactor);
        fields.finish();
        out.interval = factor;
    }
    if (out.keys.empty() && !out.interval) top.fail("", "a calibration needs 'keys' or 'interval' (or both)");
    top.finish();
    return out;
}

std::vector<Calibration> load_calibrations(const std::vector<std::string>& paths) {
    std::vector<Calibration> out;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (paths[i].empty()) throw KeyError("calibration", "expected a file name, got ''");
        out.push_back(load_calibration(paths[i]));
        for (std::size_t j = 0; j < i; ++j)
            if (out[j].kernel == out[i].kernel)
                throw KeyError("calibration", paths[i],
                               "calibrates kernel '" + out[i].kernel + "', as '" + paths[j] +
                                   "' does: give one calibration per kernel");
    }
    return out;
}

Calibration load_calibration(const std::string& path) {
    return parse_calibration(read_text_file(path, "calibration file", kMaxCalibrationBytes), path);
}

void write_calibration(std::ostream& out, const Calibration& calibration) {
    for (const auto& note : calibration.notes) out << "# " << note << "\n";
    out << "kernel: " << calibration.kernel << "\n";
    if (!calibration.keys.empty()) {
        out << "keys:\n";
        for (const auto& [name, value] : calibration.keys) out << "  " << name << ": " << exact_number(value) << "\n";
    }
    if (calibration.interval) {
        out << "interval:\n"
            << "  f: " << exact_number(calibration.interval->f) << "\n";
        if (calibration.interval->launch_us)
            out << "  launch_us: " << exact_number(*calibration.interval->launch_us) << "\n";
    }
}

void apply_calibration(workloads::KernelSpec& spec, const Calibration& calibration) {
    if (spec.name() != calibration.kernel) return;
    for (std::size_t i = 0; i < calibration.keys.size(); ++i) {
        const auto& [key, value] = calibration.keys[i];
        if (!spec.has(key))
            spec.set(key, exact_number(value), i < calibration.key_where.size() ? calibration.key_where[i] : "");
    }
}

std::string apply_calibration(const std::string& spec, const Calibration& calibration) {
    workloads::KernelSpec parsed("");
    try {
        parsed = workloads::KernelSpec::parse(spec, "");
    } catch (const InputError&) {
        return spec;
    }
    const std::size_t given = parsed.entries().size();
    apply_calibration(parsed, calibration);
    if (parsed.entries().size() == given) return spec;
    // The text loses where each added key was written: a value the generator refuses is
    // reported now, at its line of the calibration file; any other problem of the spec is
    // reported where the text is used.
    try {
        (void)workloads::build_kernel_launches(parsed);
    } catch (const InputError& e) {
        const std::string message = e.what();
        for (std::size_t i = given; i < parsed.entries().size(); ++i) {
            const workloads::SpecEntry& entry = parsed.entries()[i];
            if (!entry.where.empty() && message.starts_with(entry.where + ": key '" + entry.key + "'")) throw;
        }
    }
    return parsed.as_written();
}

}  // namespace gpusched::calibrate
