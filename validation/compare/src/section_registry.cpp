// The registry of validation sections: the experiments' registrations, sorted by their order keys.
#include "gpusched/validation/section_registry.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace gpusched::validation {

namespace {

using SectionMaker = std::function<std::unique_ptr<ValidationSection>()>;

/// The registrations so far (a function's static: registrations run before main, in no set order).
std::vector<std::pair<int, SectionMaker>>& registrations() {
    static std::vector<std::pair<int, SectionMaker>> all;
    return all;
}

std::vector<std::unique_ptr<ValidationSection>> make_sections() {
    auto all = registrations();
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < all.size(); ++i)
        if (all[i].first == all[i - 1].first)
            throw std::logic_error("two validation sections registered with order " + std::to_string(all[i].first));
    std::vector<std::unique_ptr<ValidationSection>> s;
    for (const auto& [order, make] : all) s.push_back(make());
    return s;
}

}  // namespace

std::string spell_as_keys(const CommandHint& hint) {
    std::string s = hint.command;
    for (const auto& [key, value] : hint.values) s += " " + key + (value.empty() ? "" : "=" + value);
    return s;
}

SectionRegistration::SectionRegistration(int order, SectionMaker make) {
    registrations().emplace_back(order, std::move(make));
}

const std::vector<std::unique_ptr<ValidationSection>>& validation_sections() {
    static const std::vector<std::unique_ptr<ValidationSection>> sections = make_sections();
    return sections;
}

const ValidationSection* find_section(const std::string& name) {
    for (const auto& s : validation_sections())
        if (s->name() == name) return s.get();
    return nullptr;
}

}  // namespace gpusched::validation
