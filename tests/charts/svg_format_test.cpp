// Tests of XML escaping and locale-independent number formatting.
#include <clocale>
#include <locale>
#include <string>

#include <doctest/doctest.h>

#include "gpusched/charts/svg_format.h"

using gpusched::charts::escape_xml;
using gpusched::charts::format_number;
using gpusched::charts::format_tick;

TEST_CASE("escape_xml escapes the five XML specials") {
    CHECK(escape_xml("<&>") == "&lt;&amp;&gt;");
    CHECK(escape_xml("a \"b\" 'c'") == "a &quot;b&quot; &apos;c&apos;");
    CHECK(escape_xml("launches 6->7") == "launches 6-&gt;7");
    CHECK(escape_xml("") == "");
}

TEST_CASE("escape_xml keeps valid UTF-8 and replaces what XML cannot hold") {
    CHECK(escape_xml("\xc2\xb5s") == "\xc2\xb5s");                 // micro sign
    CHECK(escape_xml("\xe2\x86\x92") == "\xe2\x86\x92");           // arrow
    CHECK(escape_xml("a\x01" "b\x7f") == "a?b?");                   // control bytes
    CHECK(escape_xml("tab\there\nnew") == "tab\there\nnew");
    CHECK(escape_xml("\xff\xfe") == "??");                           // not UTF-8
    CHECK(escape_xml("\xc0\xaf") == "??");                           // overlong
    CHECK(escape_xml("\xed\xa0\x80") == "???");                      // surrogate
    CHECK(escape_xml("\xe2\x86") == "??");                           // truncated
}

TEST_CASE("format_number: fixed decimals, trimmed, no -0") {
    CHECK(format_number(12.50, 2) == "12.5");
    CHECK(format_number(3, 2) == "3");
    CHECK(format_number(-0.001, 2) == "0");
    CHECK(format_number(-1.256, 2) == "-1.26");
    CHECK(format_number(1234567.0, 0) == "1234567");
    CHECK(format_number(0.1 + 0.2, 3) == "0.3");
    CHECK(format_number(1.0 / 0.0, 2) == "0");
}

TEST_CASE("format_tick: decimals follow the step") {
    CHECK(format_tick(40, 20) == "40");
    CHECK(format_tick(0.30000000000000004, 0.1) == "0.3");
    CHECK(format_tick(0.75, 0.25) == "0.75");
    CHECK(format_tick(2e7, 1e7) == "2e+07");
    CHECK(format_tick(1.5e7, 5e6) == "1.5e+07");
    CHECK(format_tick(0, 1e7) == "0");
}

TEST_CASE("number formatting does not depend on the locale") {
    const char* names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    bool switched = false;
    for (const char* name : names)
        if (std::setlocale(LC_ALL, name)) {
            switched = true;
            try {
                std::locale::global(std::locale(name));
            } catch (const std::exception&) {
            }
            break;
        }
    CHECK(format_number(1234.5, 2) == "1234.5");
    CHECK(format_tick(0.5, 0.1) == "0.5");
    std::setlocale(LC_ALL, "C");
    std::locale::global(std::locale::classic());
    if (!switched) MESSAGE("no comma-decimal locale installed; checked in the C locale only");
}
