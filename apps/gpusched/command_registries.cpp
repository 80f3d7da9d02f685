// `gpusched list policies`, `list workloads` and `list kernel-families`: the named registries with their descriptions.
#include <iostream>

#include "commands.h"
#include "gpusched/importers/kernel_family.h"
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

void list_kernel_families() {
    TextTable table({"row", "family", "name contains (lower case; ^ = starts with)", "grid", "description"});
    const auto& rules = importers::family_rules();
    for (std::size_t r = 0; r < rules.size(); ++r)
        table.add_row({std::to_string(r + 1), std::string(rules[r].family), std::string(rules[r].patterns),
                       rules[r].max_blocks == 0 ? "any" : "<= " + std::to_string(rules[r].max_blocks) + " blocks",
                       std::string(rules[r].description)});
    table.add_row({"-", "other", "(no row matches)", "any", "the fallback: duration only"});
    table.print(std::cout);
}

}  // namespace

void add_registry_lists(CLI::App& list) {
    list.add_subcommand("policies", "Dispatch policies with their descriptions")
        ->callback(list_policies)
        ->footer("Examples:\n  gpusched list policies\n  gpusched simulate --policy round-robin");
    list.add_subcommand("workloads", "Kernel generators for --kernel and workload files")
        ->callback(list_workloads)
        ->footer("Examples:\n  gpusched list workloads\n  gpusched show work apsp-minplus:n=1000,block=16 --gpu h100");
    list.add_subcommand("kernel-families", "The ordered rule table that puts imported kernels in families (docs/importing.md)")
        ->callback(list_kernel_families)
        ->footer("Examples:\n  gpusched list kernel-families\n  gpusched import torch validation/data/h100/torch/cnn_k132.json.gz --out cnn.yaml");
}

}  // namespace gpusched::cli
