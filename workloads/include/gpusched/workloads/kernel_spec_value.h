// KernelSpec: one kernel spec as data -- generator name, ordered key=value entries, and where it came from.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpusched::workloads {

/// Longest one-line spec parse() accepts, in characters.
constexpr std::size_t kMaxSpecLength = 65536;

/// One key=value of a kernel spec and where it was written (for messages).
struct SpecEntry {
    std::string key;
    std::string value;
    std::string where;  ///< "--kernel", "FILE:LINE"; empty = the spec's own location
};

/// A kernel spec, `NAME` or `NAME:key=value,key=value,...`, parsed once and then edited as data.
///
/// Invariants (parse() establishes them, every edit keeps them):
///  - keys are unique, non-empty printable ASCII, without ',' or '=' and without surrounding blanks;
///  - values are non-empty printable ASCII, without ',' and without surrounding blanks;
///  - entries keep the order they were written or added in (set() on a present key keeps its place).
/// Hence, for a registered generator, parse(to_string()) gives back the same name and entries.
///
/// Display: to_string() is the canonical one-line form. as_written() is the text parse() read, so
/// outputs that echo the user's spec show it exactly; once an edit changes the entries (or for a
/// spec built in code) it is to_string().
class KernelSpec {
public:
    /// A spec of generator `name` without keys; `where` names it in messages ("--kernel", "FILE:LINE").
    explicit KernelSpec(std::string name, std::string where = "");

    /// Parses one line. Blanks around the name, items, keys and values are ignored. Throws
    /// InputError prefixed with `where` for a spec over kMaxSpecLength characters, a byte that is
    /// not printable ASCII, an empty name, a name that is not a registered generator (listing
    /// them), an empty item, an item without '=', an empty key or value, or a key given twice.
    /// Keys are not checked against the generator here: build_kernel_launches does that.
    static KernelSpec parse(const std::string& text, const std::string& where);

    /// The generator name of one-line text without parsing its keys: the blank-trimmed text before
    /// the first ':' (for text that may still hold placeholders).
    static std::string name_of(const std::string& text);

    [[nodiscard]] const std::string& name() const { return name_; }
    [[nodiscard]] const std::string& where() const { return where_; }
    [[nodiscard]] const std::vector<SpecEntry>& entries() const { return entries_; }

    [[nodiscard]] bool has(const std::string& key) const;
    /// The value of `key`, or nullopt when the spec does not give it.
    [[nodiscard]] std::optional<std::string> get(const std::string& key) const;

    /// Sets key=value: replaces the value in place where the key is given, else appends the entry
    /// (written at `entry_where`, e.g. the FILE:LINE of a calibration; empty: the spec's own
    /// location). Blanks around key and value are ignored, as in parse(). Throws InputError
    /// (prefixed with where()) for a key or value that breaks the invariants.
    KernelSpec& set(const std::string& key, const std::string& value, const std::string& entry_where = "");
    /// Appends key=value for a key the spec must not give yet: InputError "WHERE: key 'KEY' is given
    /// twice" (parse's message for a repeated key) when it does; otherwise as set().
    KernelSpec& add(const std::string& key, const std::string& value);
    /// Removes the key's entry; returns whether it was there.
    bool erase(const std::string& key);
    /// Copies with one key set or removed.
    [[nodiscard]] KernelSpec with(const std::string& key, const std::string& value) const;
    [[nodiscard]] KernelSpec without(const std::string& key) const;

    /// "NAME" without entries, else "NAME:key=value,key=value" in entry order.
    [[nodiscard]] std::string to_string() const;
    /// The text parse() read while the entries are unchanged, else to_string().
    [[nodiscard]] std::string as_written() const;

    /// Same name and the same key=value entries in the same order (locations and text aside).
    bool operator==(const KernelSpec& other) const;

private:
    [[nodiscard]] std::vector<SpecEntry>::const_iterator find(const std::string& key) const;

    std::string name_;
    std::string where_;
    std::vector<SpecEntry> entries_;
    std::optional<std::string> written_;
};

/// The message for a generator name that is not registered: "WHERE: unknown kernel 'NAME' (known kernels: ...)".
std::string unknown_kernel_message(const std::string& where, const std::string& name);

}  // namespace gpusched::workloads
