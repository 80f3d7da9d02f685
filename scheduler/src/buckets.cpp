// buckets: runs of k = blocks-per-SM consecutive blocks pre-assigned round-robin (the interval paper's *Buckets*).
#include "policies.h"
#include "preassigned_dispatcher.h"

namespace gpusched::scheduler {

namespace {

class BucketsDispatcher final : public PreassignedDispatcher {
public:
    explicit BucketsDispatcher(const sim::LaunchContext& c)
        : PreassignedDispatcher(c),
          blocks_(c.launch->blocks()),
          k_(static_cast<std::uint64_t>(c.occupancy->blocks_per_sm)) {
        set_total(blocks_);
    }

protected:
    // Bucket q holds blocks [q k, min((q + 1) k, B)) and goes to position q mod S. Position p
    // owns buckets p, p + S, ...; only the very last bucket (index floor(B / k)) may be short.
    [[nodiscard]] std::uint64_t queue_length(int p) const override {
        const auto s = static_cast<std::uint64_t>(positions());
        const std::uint64_t buckets = (blocks_ + k_ - 1) / k_;
        const std::uint64_t mine = buckets / s + (static_cast<std::uint64_t>(p) < buckets % s ? 1 : 0);
        std::uint64_t length = mine * k_;
        const std::uint64_t last_size = blocks_ % k_;
        if (last_size != 0 && (buckets - 1) % s == static_cast<std::uint64_t>(p)) length -= k_ - last_size;
        return length;
    }
    [[nodiscard]] std::uint64_t block_at(int p, std::uint64_t j) const override {
        const auto s = static_cast<std::uint64_t>(positions());
        const std::uint64_t bucket = static_cast<std::uint64_t>(p) + (j / k_) * s;
        return bucket * k_ + j % k_;
    }

private:
    std::uint64_t blocks_;
    std::uint64_t k_;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_buckets() { return std::make_unique<PolicyOf<BucketsDispatcher>>("buckets", false); }

}  // namespace gpusched::scheduler
