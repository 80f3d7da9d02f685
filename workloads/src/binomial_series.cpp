// The compute-bound binomial-series kernel: pure arithmetic per thread, one store at the end.
#include "gpusched/workloads/binomial_series.h"

#include <memory>

#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/spec_numbers.h"
#include "warp_arithmetic.h"

namespace gpusched::workloads {

namespace {
constexpr std::int64_t kMaxTerms = 1'000'000'000'000;
}  // namespace

BinomialSeriesWork::BinomialSeriesWork(BinomialSeriesKeys keys, std::uint64_t threads_per_block, Time fixed_duration)
    : keys_(keys), threads_per_block_(threads_per_block), fixed_duration_(fixed_duration) {}

double BinomialSeriesWork::issue_slots() const { return static_cast<double>(keys_.terms) * keys_.instr_per_term; }

Time BinomialSeriesWork::duration(std::uint64_t block) const {
    (void)block;
    return fixed_duration_;
}

std::optional<WarpWork> BinomialSeriesWork::warp_work(std::uint64_t block) const {
    (void)block;
    const std::uint64_t warps = ceil_div(threads_per_block_, kCudaWarpSize);
    WarpWork w;
    w.issue_slots = issue_slots();
    w.latency_bound = 0;
    w.dram_bytes =
        warps == 0 ? 0 : keys_.elem_bytes * static_cast<double>(threads_per_block_) / static_cast<double>(warps);
    return w;
}

double BinomialSeriesWork::latency_bound_cycles(std::uint64_t block) const {
    (void)block;
    return static_cast<double>(keys_.terms) * keys_.term_latency_cycles;
}

std::shared_ptr<const BlockWork> BinomialSeriesWork::bind(const GpuContext& context) const {
    if (keys_.term_latency_given) return nullptr;
    GpuNumbers numbers(context.gpu, "binomial-series", "term_latency_cycles");
    BinomialSeriesKeys keys = keys_;
    keys.term_latency_cycles = binomial_term_chain(numbers).cycles_per_step;
    keys.term_latency_given = true;
    return std::make_shared<const BinomialSeriesWork>(keys, threads_per_block_, fixed_duration_);
}

WorkDerivation BinomialSeriesWork::derivation(const GpuContext& context) const {
    WorkDerivation out;
    const std::string terms = std::to_string(keys_.terms);
    out.steps.push_back("issue slots = terms x instr_per_term = " + terms + " x " +
                        format_spec_number(keys_.instr_per_term) + " = " + format_spec_number(issue_slots()));
    if (keys_.term_latency_given) {
        out.steps.push_back("latency floor = terms x term_latency_cycles (given) = " +
                            format_spec_number(latency_bound_cycles(0)) + " cycles");
        return out;
    }
    GpuNumbers numbers(context.gpu, "binomial-series", "term_latency_cycles");
    const StepChain chain = binomial_term_chain(numbers);
    out.steps.push_back(describe_step_chain(chain, "term"));
    out.steps.push_back("latency floor = terms x " + format_spec_number(chain.cycles_per_step) + " = " +
                        format_spec_number(static_cast<double>(keys_.terms) * chain.cycles_per_step) +
                        " cycles (derived from the GPU)");
    out.gpu_numbers = numbers.used();
    return out;
}

std::string BinomialSeriesWork::describe() const {
    std::string out = "binomial series, " + std::to_string(keys_.terms) + " terms: " +
                      format_spec_number(issue_slots()) + " issue slots per warp";
    if (keys_.term_latency_cycles > 0)
        out += ", latency " + format_spec_number(latency_bound_cycles(0)) + " cycles";
    return out;
}

namespace {

void build_binomial(SpecArgs& args, KernelLaunch& launch) {
    if (!args.has("blocks") && !args.has("grid")) args.fail_spec("required key 'blocks' (or 'grid') is missing");
    if (!args.has("threads") && !args.has("block")) args.fail_spec("required key 'threads' (or 'block') is missing");
    BinomialSeriesKeys keys;
    keys.terms = static_cast<std::uint64_t>(args.optional_integer("terms", 1, kMaxTerms).value_or(1000));
    keys.instr_per_term = spec_number(args, "instr_per_term", 0, 1e6, keys.instr_per_term);
    keys.term_latency_given = args.has("term_latency_cycles");
    keys.term_latency_cycles = spec_number(args, "term_latency_cycles", 0, 1e9, keys.term_latency_cycles);
    keys.elem_bytes = static_cast<double>(args.optional_integer("elem_bytes", 0, 1024).value_or(4));
    const double ns_per_instr = spec_number(args, "ns_per_instr", 0, 1e6, 1);
    const double slots = static_cast<double>(keys.terms) * keys.instr_per_term;
    const auto duration = instruction_time(slots, ns_per_instr);
    if (!duration)
        args.fail(args.has("ns_per_instr") ? "ns_per_instr" : "terms",
                  format_spec_number(slots) + " issue slots x " + format_spec_number(ns_per_instr) +
                      " ns per instruction is beyond the longest duration (2^63 ps); use fewer terms or a smaller "
                      "ns_per_instr");
    launch.work = std::make_shared<const BinomialSeriesWork>(keys, launch.block.count(), *duration);
}

}  // namespace

KernelGeneratorInfo binomial_series_generator() {
    KernelGeneratorInfo info;
    info.name = "binomial-series";
    info.description = "compute-bound: every thread sums K terms of a binomial series, one store at the end";
    info.keys = {
        {"terms", "K", "series terms per thread, 1..10^12 (default 1000; the paper does not give K)"},
        {"instr_per_term", "I", "warp-instructions per term (the loop body), 0..10^6 (default 10)"},
        {"term_latency_cycles", "C", "latency-bound cycles per term per warp, 0..10^9 (default: the loop's dependency chain on the GPU)"},
        {"elem_bytes", "B", "bytes of each thread's one result, 0..1024 (default 4: a float)"},
        {"ns_per_instr", "NS", "`fixed` model only: nanoseconds per warp-instruction, 0..10^6 (default 1)"},
    };
    info.example = "binomial-series:blocks=208,threads=128,terms=1000";
    info.build = build_binomial;
    return info;
}

}  // namespace gpusched::workloads
