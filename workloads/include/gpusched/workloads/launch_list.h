// LaunchList: an application's kernel launches in issue order, identical back-to-back copies stored once.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// True when a and b are the same launch: every field equal and one work model shared.
bool same_launch(const KernelLaunch& a, const KernelLaunch& b);

/// The launches of an application: read like a std::vector<KernelLaunch>, appended to like one.
///
/// Compact for a million calls of one spec: each launch is a 4-byte index into records of 112
/// bytes, and append_copies() stores identical back-to-back launches (a multi-launch spec, a
/// repeated workload item) as one record. Launches are read-only through operator[] and the
/// iterators (a read never splits a shared record); edit() gives one launch a record of its own.
class LaunchList {
public:
    /// A random-access iterator over the launches (each a const KernelLaunch&).
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = KernelLaunch;
        using difference_type = std::ptrdiff_t;
        using pointer = const KernelLaunch*;
        using reference = const KernelLaunch&;

        const_iterator() = default;
        const_iterator(const LaunchList* list, std::size_t at) : list_(list), at_(at) {}
        reference operator*() const { return (*list_)[at_]; }
        pointer operator->() const { return &(*list_)[at_]; }
        reference operator[](difference_type n) const { return (*list_)[at_ + static_cast<std::size_t>(n)]; }
        const_iterator& operator++() { ++at_; return *this; }
        const_iterator operator++(int) { const_iterator old = *this; ++at_; return old; }
        const_iterator& operator--() { --at_; return *this; }
        const_iterator operator--(int) { const_iterator old = *this; --at_; return old; }
        const_iterator& operator+=(difference_type n) { at_ += static_cast<std::size_t>(n); return *this; }
        const_iterator& operator-=(difference_type n) { at_ -= static_cast<std::size_t>(n); return *this; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.at_ == b.at_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.at_ <=> b.at_; }

    private:
        const LaunchList* list_ = nullptr;
        std::size_t at_ = 0;
    };
    using value_type = KernelLaunch;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = const KernelLaunch&;
    using const_reference = const KernelLaunch&;
    using iterator = const_iterator;

    LaunchList() = default;
    /// Each launch with a record of its own (as push_back), so `app.launches = {a, b}` reads as for a vector.
    LaunchList(std::vector<KernelLaunch> launches);
    LaunchList(std::initializer_list<KernelLaunch> launches);

    [[nodiscard]] std::size_t size() const { return index_.size(); }
    [[nodiscard]] bool empty() const { return index_.empty(); }
    [[nodiscard]] const KernelLaunch& operator[](std::size_t i) const { return records_[index_[i]]; }
    /// Launch i; std::out_of_range past the end.
    [[nodiscard]] const KernelLaunch& at(std::size_t i) const;
    [[nodiscard]] const KernelLaunch& front() const { return (*this)[0]; }
    [[nodiscard]] const KernelLaunch& back() const { return (*this)[size() - 1]; }
    [[nodiscard]] const_iterator begin() const { return {this, 0}; }
    [[nodiscard]] const_iterator end() const { return {this, size()}; }
    [[nodiscard]] const_iterator cbegin() const { return begin(); }
    [[nodiscard]] const_iterator cend() const { return end(); }

    /// Room for `count` launches of their own (push_back, emplace_back) without regrowth.
    void reserve(std::size_t count);
    void push_back(KernelLaunch launch);
    /// A new default launch with a record of its own, to fill in.
    KernelLaunch& emplace_back();
    /// `count` launches equal to `launch`, sharing one record: the last launch's record when it is
    /// the same launch (same_launch), else a new one.
    void append_copies(const KernelLaunch& launch, std::size_t count);
    /// Launch i, given a record of its own first when it shares one (copy on write).
    KernelLaunch& edit(std::size_t i);
    /// Keeps the first `count` launches (count <= size()); records no launch uses any more stay until clear().
    void truncate(std::size_t count);
    void clear();
    /// Every record's work replaced by `replace(work)` (launches that share a record keep sharing it).
    template <class Replace>
    void replace_works(Replace&& replace) {
        for (auto& record : records_) record.work = replace(record.work);
    }

    /// Distinct records held (launches that share a record count once).
    [[nodiscard]] std::size_t record_count() const { return records_.size(); }

private:
    /// Index of a new record holding `launch`; std::length_error beyond 2^32 - 1 records.
    std::uint32_t add_record(KernelLaunch launch);

    std::vector<KernelLaunch> records_;
    std::vector<bool> shared_;          ///< per record: append_copies gave it to more than one launch
    std::vector<std::uint32_t> index_;  ///< launch i's record
};

}  // namespace gpusched::workloads
