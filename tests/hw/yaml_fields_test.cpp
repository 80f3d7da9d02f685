// YamlFields: strict scalar parsing and key tracking.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"

using namespace gpusched;

TEST_CASE("strict number parsing rejects partial, hex-like and non-finite text") {
    CHECK(parse_integer("42") == 42);
    CHECK(parse_integer("+7") == 7);
    CHECK(parse_integer("-3") == -3);
    CHECK_FALSE(parse_integer("4.5").has_value());
    CHECK_FALSE(parse_integer("0x10").has_value());
    CHECK_FALSE(parse_integer("").has_value());
    CHECK_FALSE(parse_integer("99999999999999999999999").has_value());
    CHECK(parse_number("1.5e3") == doctest::Approx(1500));
    CHECK_FALSE(parse_number("nan").has_value());
    CHECK_FALSE(parse_number("inf").has_value());
    CHECK_FALSE(parse_number("12abc").has_value());
}

TEST_CASE("YamlFields reports the line and full key path") {
    const YAML::Node root = parse_yaml_document("a: 1\nsection:\n  b: x\n", "t.yaml");
    YamlFields top(root, "t.yaml", "");
    CHECK(top.integer("a", 0, 10) == 1);
    YamlFields section(top.child("section"), "t.yaml", "section");
    CHECK_THROWS_WITH_AS(section.integer("b", 0, 10), "t.yaml:3: key 'section.b': expected an integer in [0, 10], got 'x'",
                         InputError);
    top.finish();
    YamlFields unread(root, "t.yaml", "");
    CHECK_THROWS_WITH_AS(unread.finish(), doctest::Contains("unknown key 'a'"), InputError);
}

TEST_CASE("a key given twice is an error at its second line") {
    const YAML::Node root = parse_yaml_document("a: 1\nb: 2\na: 3\n", "t.yaml");
    CHECK_THROWS_WITH_AS(YamlFields(root, "t.yaml", ""), "t.yaml:3: key 'a' appears twice", InputError);
}
