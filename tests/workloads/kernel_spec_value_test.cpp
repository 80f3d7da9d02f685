// KernelSpec as data: parse once, edit keys, print canonically, build launches; and the shared text helpers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/kernel_spec_value.h"

using namespace gpusched;
using workloads::KernelSpec;

namespace {

std::vector<std::string> keys_of(const KernelSpec& spec) {
    std::vector<std::string> out;
    for (const auto& entry : spec.entries()) out.push_back(entry.key);
    return out;
}

void check_parse_error(const std::string& text, const std::string& message) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(KernelSpec::parse(text, "FILE:7"), message.c_str(), InputError);
}

}  // namespace

TEST_CASE("trim drops blanks at both ends only; split keeps empty pieces") {
    CHECK(trim("  a b\t ") == "a b");
    CHECK(trim(" \t ").empty());
    CHECK(trim("\na\n") == "\na\n");  // only spaces and tabs are blanks
    CHECK(split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
    CHECK(split("", ',') == std::vector<std::string>{""});
    CHECK(split("a,", ',') == std::vector<std::string>{"a", ""});
}

TEST_CASE("parse keeps the name, the entries in written order, and where the spec came from") {
    const KernelSpec s = KernelSpec::parse(" synthetic : threads = 64 ,blocks=2, duration=1us ", "--kernel");
    CHECK(s.name() == "synthetic");
    CHECK(s.where() == "--kernel");
    CHECK(keys_of(s) == std::vector<std::string>{"threads", "blocks", "duration"});
    CHECK(s.get("threads") == "64");
    CHECK(s.get("duration") == "1us");
    CHECK(!s.get("regs"));
    CHECK(s.has("blocks"));
    CHECK(!s.has("block"));
    // The value after the first '=' may hold '=' and ':' (only ',' separates items).
    const KernelSpec odd = KernelSpec::parse("synthetic:name=a:b,duration=1us=x", "--kernel");
    CHECK(odd.get("name") == "a:b");
    CHECK(odd.get("duration") == "1us=x");
    // A bare name and a name with an empty key list have no entries.
    CHECK(KernelSpec::parse("binomial-series", "--kernel").entries().empty());
    CHECK(KernelSpec::parse("binomial-series: ", "--kernel").entries().empty());
}

TEST_CASE("to_string is canonical; as_written echoes the text until an edit changes the entries") {
    const std::string text = " synthetic : threads = 64 ,blocks=2";
    KernelSpec s = KernelSpec::parse(text, "--kernel");
    CHECK(s.to_string() == "synthetic:threads=64,blocks=2");
    CHECK(s.as_written() == text);
    s.set("threads", "64");  // the same value: nothing changes, the written text stays
    CHECK(s.as_written() == text);
    s.set("threads", "128");
    CHECK(s.as_written() == "synthetic:threads=128,blocks=2");
    CHECK(KernelSpec::parse("binomial-series:", "--kernel").to_string() == "binomial-series");
    CHECK(KernelSpec("apsp-fw").as_written() == "apsp-fw");
}

TEST_CASE("round trip: parse(to_string()) gives the same spec") {
    for (const std::string text : {"synthetic:duration=1us", " synthetic : a = 1 , b=x=y ,c=p:q", "apsp-minplus",
                                   "streamcluster:points=65536,dims=256,regs=40,copy=pageable"}) {
        CAPTURE(text);
        const KernelSpec s = KernelSpec::parse(text, "--kernel");
        const KernelSpec again = KernelSpec::parse(s.to_string(), "--kernel");
        CHECK(again == s);
        CHECK(again.to_string() == s.to_string());
    }
    KernelSpec edited = KernelSpec::parse("synthetic:b=2", "x");
    edited.set("a", "1").set("b", "3");
    CHECK(KernelSpec::parse(edited.to_string(), "x") == edited);
}

TEST_CASE("set replaces in place or appends; add refuses a present key; erase and without remove") {
    KernelSpec s = KernelSpec::parse("synthetic:blocks=2,threads=64", "--kernel");
    s.set("threads", "128");  // in place: blocks stays first
    CHECK(s.to_string() == "synthetic:blocks=2,threads=128");
    s.set("duration", "1us");  // appended
    CHECK(s.to_string() == "synthetic:blocks=2,threads=128,duration=1us");
    s.set(" regs ", " 32 ");  // blanks around key and value are ignored, as in parse
    CHECK(s.get("regs") == "32");
    CHECK(s.with("blocks", "9").to_string() == "synthetic:blocks=9,threads=128,duration=1us,regs=32");
    CHECK(s.get("blocks") == "2");  // with() copies
    CHECK(s.erase("threads"));
    CHECK(!s.erase("threads"));
    CHECK(s.to_string() == "synthetic:blocks=2,duration=1us,regs=32");
    CHECK(s.without("blocks").to_string() == "synthetic:duration=1us,regs=32");
    s.add("stream", "1");
    CHECK(s.get("stream") == "1");
    CHECK_THROWS_WITH_AS(s.add("stream", "2"), "--kernel: key 'stream' is given twice", InputError);
    CHECK(s.get("stream") == "1");
}

TEST_CASE("set refuses what a one-line spec cannot hold, naming the key") {
    KernelSpec s = KernelSpec::parse("synthetic:duration=1us", "FILE:3");
    CHECK_THROWS_WITH_AS(s.set("threads", ""), "FILE:3: key 'threads': empty value", InputError);
    CHECK_THROWS_WITH_AS(s.set("threads", " "), "FILE:3: key 'threads': empty value", InputError);
    CHECK_THROWS_WITH_AS(s.set("threads", "1,2"),
                         "FILE:3: key 'threads': expected a value of printable ASCII without ',', got '1,2'", InputError);
    CHECK_THROWS_AS(s.set("a=b", "1"), InputError);
    CHECK_THROWS_AS(s.set("", "1"), InputError);
    CHECK_THROWS_AS(s.set("threads", "caf\xc3\xa9"), InputError);
    CHECK(s.to_string() == "synthetic:duration=1us");  // unchanged after the refusals
}

TEST_CASE("parse keeps parse_kernel_spec's messages, each prefixed with where") {
    check_parse_error("synthetic:a=1,,b=2",
                      "FILE:7: empty item in kernel spec 'synthetic:a=1,,b=2' (expected key=value between commas)");
    check_parse_error("synthetic:threads", "FILE:7: key 'threads': expected key=value");
    check_parse_error("synthetic:=3", "FILE:7: expected key=value, got '=3'");
    check_parse_error("synthetic:threads= ", "FILE:7: key 'threads': empty value");
    check_parse_error("synthetic:threads=1,threads=2", "FILE:7: key 'threads' is given twice");
    check_parse_error("synthetic:a=1,a=2,b", "FILE:7: key 'b': expected key=value");  // items first, then repeats
    check_parse_error("synthetic:\x01", "FILE:7: kernel spec must be printable ASCII; found byte 0x01 at character 11");
    check_parse_error(std::string(workloads::kMaxSpecLength + 1, 'a'),
                      "FILE:7: kernel spec is 65537 characters long; at most 65536 are allowed");
    CHECK_THROWS_WITH_AS(KernelSpec::parse(" :a=1", "FILE:7"), doctest::Contains("FILE:7: expected NAME or NAME:key=value"),
                         InputError);
    // An unknown generator is reported before any item error.
    CHECK_THROWS_WITH_AS(KernelSpec::parse("nope:,,", "FILE:7"), doctest::Contains("FILE:7: unknown kernel 'nope'"),
                         InputError);
    // Keys are the generator's business: parse accepts any, building rejects unknown ones.
    const KernelSpec unknown_key = KernelSpec::parse("synthetic:duration=1us,colour=red", "FILE:7");
    CHECK_THROWS_WITH_AS(workloads::build_kernel_launches(unknown_key), doctest::Contains("FILE:7: key 'colour': unknown key"),
                         InputError);
}

TEST_CASE("name_of reads the name of text that need not parse") {
    CHECK(KernelSpec::name_of(" apsp-fw :block=${b}") == "apsp-fw");
    CHECK(KernelSpec::name_of("synthetic") == "synthetic");
    CHECK(KernelSpec::name_of("").empty());
}

TEST_CASE("an edited spec builds the launches its to_string text would") {
    KernelSpec s = KernelSpec::parse("synthetic:blocks=2,threads=64,duration=1us", "--kernel");
    s.set("blocks", "5").set("stream", "3");
    const workloads::SpecLaunches built = workloads::build_kernel_launches(s);
    const workloads::KernelLaunch from_text = workloads::parse_kernel_spec(s.to_string(), "--kernel");
    CHECK(built.launch.blocks() == 5);
    CHECK(built.launch.stream == 3);
    CHECK(from_text.blocks() == built.launch.blocks());
    CHECK(from_text.threads_per_block() == built.launch.threads_per_block());
    // application_from_specs names each parsed spec by its own where and describes it as written.
    const workloads::Application app =
        workloads::build_application({KernelSpec::parse("synthetic: blocks=1,threads=32,duration=1us", "A"), s});
    CHECK(app.launches.size() == 2);
    CHECK(app.description == "synthetic: blocks=1,threads=32,duration=1us synthetic:blocks=5,threads=64,duration=1us,stream=3");
    CHECK_THROWS_WITH_AS(workloads::build_application({s.with("threads", "0")}),
                         doctest::Contains("--kernel: key 'threads'"), InputError);
}
