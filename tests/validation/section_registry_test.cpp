// The registry of validation sections and the three views (text, JSON, report part) every section gives.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/validation_report.h"

using namespace gpusched;

TEST_CASE("section registry: every experiment's section, registered by its view, in run order, each named, described and with an input") {
    const auto& sections = validation::validation_sections();
    std::vector<std::string> names;
    for (const auto& s : sections) {
        CAPTURE(s->name());
        names.push_back(s->name());
        CHECK_FALSE(s->description().empty());
        CHECK_FALSE(s->input().empty());
        CHECK(validation::find_section(s->name()) == s.get());
    }
    CHECK(names == std::vector<std::string>{"placement", "concurrency", "curves", "series", "spmv", "sssp",
                                            "streamcluster", "apsp-timelines", "whatif", "trace-only", "h200", "clusters",
                                            "partitions"});
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    CHECK(validation::find_section("all") == nullptr);  // "all" is the command's word, not a section
    CHECK(validation::find_section("ssp") == nullptr);
}

TEST_CASE("section registry: placement and curves report a missing input themselves, the others are skipped") {
    for (const auto& s : validation::validation_sections()) {
        CAPTURE(s->name());
        const bool own = s->name() == "placement" || s->name() == "curves";
        CHECK(s->skipped_when_missing() == !own);
    }
    CHECK(validation::find_section("spmv")->input() == "spmv/runs.csv");
    CHECK(validation::find_section("apsp-timelines")->input() == "apsp_timeline");
}

TEST_CASE("section registry: a skipped placement keeps its JSON totals at 0 and shows nothing else") {
    for (const auto& s : validation::validation_sections()) {
        CAPTURE(s->name());
        const auto view = s->view_when_skipped();
        if (s->name() != "placement") {
            CHECK(view == nullptr);
            continue;
        }
        REQUIRE(view != nullptr);
        std::ostringstream text;
        view->print_text(text);
        CHECK(text.str().empty());
        CHECK(view->report_part().empty());
        nlohmann::ordered_json j;
        view->add_json(j);
        CHECK(j.dump() == R"({"within_1_percent":0,"exact_placements":0,"worst_error_percent":0.0})");
    }
}

TEST_CASE("section registry: the series section run on the h100 data, as text, JSON and a report part") {
    const auto* series = validation::find_section("series");
    REQUIRE(series != nullptr);
    const std::string data = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100";
    validation::SectionSettings settings{hw::resolve_gpu("h100"), "most-room", "most-room", false};
    const auto view = series->run(data, settings);
    REQUIRE(view != nullptr);
    std::ostringstream text;
    view->print_text(text);
    // Each section after the first begins with an empty line, then names its input.
    CHECK(text.str().rfind("\nbinomial series of " + data + "/curves/binomial.csv: ", 0) == 0);
    nlohmann::ordered_json j{{"gpu", "h100"}};
    view->add_json(j);
    CHECK(j.begin().key() == "gpu");  // a section adds its keys after what is there
    REQUIRE(j.contains("series"));
    CHECK(j["series"]["points"].size() > 10);
    const std::string part = view->report_part();
    CHECK(part.rfind("<section id=\"series\">", 0) == 0);
    const std::string html = validation::render_validation_report({data, "h100", "most-room"}, {part});
    CHECK(html.find(part) != std::string::npos);
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.substr(html.size() - 15) == "</body></html>\n");
}
