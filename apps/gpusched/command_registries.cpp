// `gpusched list policies` and `gpusched list workloads`: the named registries with their descriptions.
#include <iostream>

#include "commands.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/workloads/generator_registry.h"
#include "table.h"

namespace gpusched::cli {

namespace {

void list_policies() {
    TextTable table({"policy", "description"});
    for (const auto& p : scheduler::policies())
        table.add_row({p.name + (p.name == scheduler::default_policy() ? " (default)" : ""), p.description});
    table.print(std::cout);
}

void list_workloads() {
    for (const auto& g : workloads::kernel_generators()) {
        std::cout << g.name << ": " << g.description << "\n  example: --kernel " << g.example << "\n  keys:\n";
        for (const auto& k : g.keys) std::cout << "    " << k.name << "=" << k.syntax << "  " << k.help << "\n";
    }
    std::cout << "keys every kernel takes:\n";
    for (const auto& k : workloads::generic_spec_keys()) std::cout << "    " << k.name << "=" << k.syntax << "  " << k.help << "\n";
}

}  // namespace

void add_registry_lists(CLI::App& list) {
    list.add_subcommand("policies", "Dispatch policies with their descriptions")
        ->callback(list_policies)
        ->footer("Examples:\n  gpusched list policies\n  gpusched simulate --policy round-robin");
    list.add_subcommand("workloads", "Kernel generators for --kernel and workload files")
        ->callback(list_workloads)
        ->footer("Examples:\n  gpusched list workloads\n  gpusched show work apsp-minplus:n=1000,block=16 --gpu h100");
}

}  // namespace gpusched::cli
