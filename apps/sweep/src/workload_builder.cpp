// Workload builder: placeholder substitution, then parsing and kernel-key setting by the workloads library.
#include "gpusched/sweep/workload_builder.h"

#include <algorithm>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

namespace gpusched::sweep {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string substitute(const std::string& text, const std::vector<Parameter>& params,
                       const std::vector<std::string>& values, const std::string& where) {
    std::string out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t open = text.find("${", pos);
        if (open == std::string::npos) break;
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        const std::string name = text.substr(open + 2, close - open - 2);
        out += text.substr(pos, open - pos);
        if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char)) {
            out += "${";
            pos = open + 2;
            continue;
        }
        std::size_t i = 0;
        while (i < params.size() && params[i].name != name) ++i;
        if (i == params.size() || values[i].empty())
            throw InputError(where + ": placeholder ${" + name + "} has no value at this point (give '" + name +
                             "' in fixed: or in the point set)");
        out += values[i];
        pos = close + 1;
    }
    return out + text.substr(pos);
}

}  // namespace

std::vector<std::string> placeholders(const std::string& text) {
    std::vector<std::string> names;
    std::size_t pos = 0;
    while ((pos = text.find("${", pos)) != std::string::npos) {
        std::size_t end = pos + 2;
        while (end < text.size() && is_name_char(text[end])) ++end;
        if (end < text.size() && text[end] == '}' && end > pos + 2) {
            std::string name = text.substr(pos + 2, end - pos - 2);
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
        }
        pos = end;
    }
    return names;
}

std::string broken_placeholder(const std::string& text, bool yaml_comments) {
    std::size_t pos = 0;
    while ((pos = text.find("${", pos)) != std::string::npos) {
        if (yaml_comments) {
            const std::size_t line_start = text.rfind('\n', pos) == std::string::npos ? 0 : text.rfind('\n', pos) + 1;
            const std::size_t hash = text.find('#', line_start);
            if (hash < pos && (hash == line_start || text[hash - 1] == ' ' || text[hash - 1] == '\t')) {
                pos += 2;
                continue;
            }
        }
        std::size_t end = pos + 2;
        while (end < text.size() && is_name_char(text[end])) ++end;
        if (end == pos + 2 || end == text.size() || text[end] != '}') {
            const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
            std::string shown = text.substr(pos, std::min<std::size_t>(24, text.find('\n', pos) - pos));
            return "line " + std::to_string(line) + ": '" + shown + "'";
        }
        pos = end + 1;
    }
    return {};
}

std::vector<std::string> spec_keys(const std::string& spec) {
    const auto* generator = workloads::find_kernel_generator(workloads::KernelSpec::name_of(spec));
    if (generator == nullptr) return {};
    std::vector<std::string> keys;
    for (const auto& k : workloads::generic_spec_keys()) keys.push_back(k.name);
    for (const auto& k : generator->keys)
        if (std::find(keys.begin(), keys.end(), k.name) == keys.end()) keys.push_back(k.name);
    return keys;
}

bool feeds_workload(const WorkloadDef& w, const std::string& name) {
    const auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
    if (!w.file.empty()) return in(placeholders(w.file_text));
    for (const auto& spec : w.specs)
        if (in(placeholders(spec))) return true;
    return w.specs.size() == 1 && in(spec_keys(w.specs.front()));
}

workloads::Application build_workload(const WorkloadDef& w, const std::vector<Parameter>& params,
                                      const std::vector<std::string>& values) {
    const std::string where = "workload '" + w.name + "'";
    if (!w.file.empty()) return workloads::parse_workload(substitute(w.file_text, params, values, where), w.file);
    workloads::Application app;
    for (std::size_t s = 0; s < w.specs.size(); ++s) {
        const std::string spec_where = w.specs.size() == 1 ? where : where + " spec #" + std::to_string(s + 1);
        workloads::KernelSpec spec =
            workloads::KernelSpec::parse(substitute(w.specs[s], params, values, where), spec_where);
        if (w.specs.size() == 1) {
            const auto keys = spec_keys(spec.name());
            const auto own = placeholders(w.specs[s]);
            for (std::size_t i = 0; i < params.size(); ++i) {
                if (params[i].kind != ParamKind::workload_key || values[i].empty()) continue;
                if (std::find(own.begin(), own.end(), params[i].name) != own.end()) continue;
                if (std::find(keys.begin(), keys.end(), params[i].name) == keys.end()) continue;
                spec.set(params[i].name, values[i]);
            }
        }
        workloads::SpecLaunches built = workloads::build_kernel_launches(spec);
        if (built.total() > workloads::kMaxSpecApplicationLaunches - app.launches.size())
            throw InputError(spec_where + ": the application would have more than " +
                             std::to_string(workloads::kMaxSpecApplicationLaunches) + " launches");
        built.append_to(app);  // every launch (multi-launch `then`) and the spec's operations (copies)
        app.description += (s == 0 ? "" : " ") + spec.as_written();
    }
    return app;
}

}  // namespace gpusched::sweep
